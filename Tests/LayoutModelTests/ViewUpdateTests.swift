import XCTest
import JSON
@testable import LayoutModel

/// A change of `updateView` ops alone is checked first and stored in the session's document
/// in place (no copy of every view): the same layout as a session made of the new document,
/// and all or nothing as any change is.
final class ViewUpdateTests: XCTestCase {
    /// A column of n boxes in a vertical stack, each with an intrinsic size.
    private func column(_ n: Int) -> String {
        let boxes = (0..<n).map { #"{"id":"b\#($0)","parent":"s","intrinsicSize":{"width":\#(40 + $0 % 7),"height":\#(20 + $0 % 5)}}"# }
        let arranged = (0..<n).map { #""b\#($0)""# }.joined(separator: ",")
        return #"{"views":[{"id":"root","frame":{"x":0,"y":0,"width":320,"height":4000}},"#
            + #"{"id":"s","parent":"root","kind":"stack","stack":{"axis":"vertical","spacing":2,"arrangedSubviews":[\#(arranged)]}},"#
            + boxes.joined(separator: ",") + #"],"constraints":[{"expr":"s.top == root.top"},{"expr":"s.leading == root.leading"}]}"#
    }

    func testViewUpdatesAgreeWithASessionOfTheNewDocument() throws {
        let s = try LayoutSession(document: json(column(60)), limits: SessionLimits(engine: .factored))
        let result = try s.change(
            #"{"ops":[{"op":"updateView","id":"b30","intrinsicSize":{"width":40,"height":44}},"#
                + #"{"op":"updateView","id":"b10","hidden":true},{"op":"updateView","id":"b50","compressionResistance":{"vertical":999}}]}"#)
        XCTAssertEqual(result.revision, 2)
        XCTAssertEqual(s.frame("b30")?.height, 44)
        XCTAssertEqual(result.frames.count, 51, "b10 and what is below it, and the stack")
        let fresh = try LayoutSession(document: s.document.json, limits: SessionLimits(engine: .factored))
        XCTAssertEqual(s.allFrames, fresh.allFrames)
        // And again, back: the session keeps taking changes.
        _ = try s.change(#"{"ops":[{"op":"updateView","id":"b10","hidden":false}]}"#)
        let again = try LayoutSession(document: s.document.json, limits: SessionLimits(engine: .factored))
        XCTAssertEqual(s.allFrames, again.allFrames)
    }

    func testAFailingUpdateLeavesTheSessionAsItWas() throws {
        let s = try LayoutSession(document: json(column(20)), limits: SessionLimits(engine: .factored))
        let (document, frames, revision) = (s.document.json, s.allFrames, s.revision)
        let grow = #"{"op":"updateView","id":"b3","intrinsicSize":{"width":90,"height":44}}"#
        for (op, pointer) in [
            (#"{"op":"updateView","id":"b4","intrinsicSize":{"width":"x","height":1}}"#, "/ops/1/intrinsicSize"),
            (#"{"op":"updateView","id":"nope","hidden":true}"#, "/ops/1/id"), (#"{"op":"updateView","id":"b5","parent":"root"}"#, "/ops/1/parent")
        ] {
            let ops = grow + "," + op
            XCTAssertThrowsError(try s.change(#"{"ops":[\#(ops)]}"#)) { error in
                XCTAssertTrue((error as? LayoutError)?.pointer.hasPrefix(pointer) == true, "\(error)")
            }
            XCTAssertEqual(s.document.json, document)
            XCTAssertEqual(s.allFrames, frames)
            XCTAssertEqual(s.revision, revision)
        }
        // At its constraint limit, an update that makes a view's content-size constraints is
        // refused as any change past the limit is, the session as it was.
        let full = try LayoutSession(
            document: json(
                #"{"views":[{"id":"root","frame":{"x":0,"y":0,"width":100,"height":100}},{"id":"a","parent":"root"}],"#
                    + #""constraints":[{"expr":"a.top == root.top"},{"expr":"a.leading == root.leading"},{"expr":"a.width == 10"},{"expr":"a.height == 10"}]}"#
            ),
            limits: SessionLimits(maxConstraints: 8, engine: .factored))
        let fullDocument = full.document.json
        XCTAssertThrowsError(try full.change(#"{"ops":[{"op":"updateView","id":"a","intrinsicSize":{"width":5,"height":5}}]}"#)) { error in
            XCTAssertEqual((error as? LayoutError)?.kind, .limit)
        }
        XCTAssertEqual(full.document.json, fullDocument)
        // Two updates of one view apply in turn (the copying path): the last one holds.
        _ = try s.change(#"{"ops":[\#(grow),{"op":"updateView","id":"b3","intrinsicSize":{"width":91,"height":45}}]}"#)
        XCTAssertEqual(s.frame("b3")?.height, 45)
    }
}
