import XCTest
import JSON
import TextLayout
@testable import LayoutModel

/// Labels in sessions: measured intrinsic sizes, wrapping that follows the width through
/// changes, baselines from the text, and the document written back with its text.
final class TextTests: XCTestCase {
    let style = TextStyle(font: Font(family: "DejaVu Sans", size: 15), numberOfLines: 0)
    let words = "Wrapping follows the width the layout gives the label"

    func measured(_ width: Double?) throws -> TextMeasurement { try TextMeasurer.shared.measure(words, style: style, width: width) }

    func cell(width: Double) -> String {
        #"""
        {"views":[{"id":"cell","frame":{"x":0,"y":0,"width":\#(width),"height":500}},
          {"id":"label","parent":"cell","text":{"string":"\#(words)","font":{"family":"DejaVu Sans","size":15},"numberOfLines":0}},
          {"id":"note","parent":"cell","text":{"string":"note","font":{"family":"DejaVu Sans","size":11}}},
          {"id":"below","parent":"cell"}],
         "constraints":[{"id":"lead","expr":"label.leading == cell.leading + 10"},{"id":"trail","expr":"label.trailing == cell.trailing - 10"},
          {"expr":"label.top == cell.top"},{"expr":"note.lastBaseline == label.lastBaseline"},{"expr":"note.leading == cell.leading"},
          {"expr":"below.top == label.bottom"},{"expr":"below.leading == cell.leading"},{"expr":"below.width == 10"},{"expr":"below.height == 10"}]}
        """#
    }

    func testALabelWrapsToTheWidthItIsGiven() throws {
        let s = session(cell(width: 1000))
        let natural = try measured(nil)
        XCTAssertLessThan(natural.width, 980)
        XCTAssertEqual(s.frame("label")!.width, 980, accuracy: 1e-9, "pinned at both ends")
        XCTAssertEqual(s.frame("label")!.height, natural.height, accuracy: 1e-9, "wider than its text: one line")
        let narrow = session(cell(width: 170))
        let wrapped = try measured(150)
        XCTAssertGreaterThan(wrapped.lines, 2)
        XCTAssertEqual(narrow.frame("label")!.width, 150, accuracy: 1e-9)
        XCTAssertEqual(narrow.frame("label")!.height, wrapped.height, accuracy: 1e-9)
        XCTAssertEqual(narrow.frame("below")!.y, wrapped.height, accuracy: 1e-9)
        // The note sits on the label's last line: its baseline, from the text's own metrics.
        let note = try TextMeasurer.shared.measure("note", style: TextStyle(font: Font(family: "DejaVu Sans", size: 11)), width: nil)
        XCTAssertEqual(narrow.frame("note")!.y + note.lastBaseline, wrapped.lastBaseline, accuracy: 1e-9)
    }

    func testASetConstantRewrapsAndReportsWhatMoved() throws {
        let s = session(cell(width: 400))
        let before = try measured(380)
        XCTAssertEqual(s.frame("label")!.height, before.height, accuracy: 1e-9)
        let r = try s.setConstants(json(#"{"trail": -250}"#))
        let after = try measured(140)
        XCTAssertGreaterThan(after.lines, before.lines)
        XCTAssertEqual(Set(r.frames.map(\.id)), ["label", "below", "note"], "the label, what hangs below it, and what sits on its last baseline")
        XCTAssertEqual(s.frame("label")!.height, after.height, accuracy: 1e-9)
        XCTAssertEqual(s.frame("below")!.y, after.height, accuracy: 1e-9)
        _ = try s.setConstants(json(#"{"trail": -10}"#))
        XCTAssertEqual(s.frame("label")!.height, before.height, accuracy: 1e-9, "widened back: the lines come back")
        XCTAssertEqual(s.frame("below")!.y, before.height, accuracy: 1e-9)
    }

    func testChangingTheTextMeasuresItAgainAndTheDocumentKeepsIt() throws {
        let s = session(cell(width: 400))
        _ = try s.change(
            #"{"ops":[{"op":"updateView","id":"label","text":{"string":"Short","font":{"family":"DejaVu Sans","size":15},"numberOfLines":0}}]}"#)
        let short = try TextMeasurer.shared.measure("Short", style: style, width: nil)
        XCTAssertEqual(s.frame("label")!.height, short.height, accuracy: 1e-9)
        let written = s.document.json
        let text = written["views"]?.array?.first { $0["id"]?.string == "label" }?["text"]
        XCTAssertEqual(text?["string"]?.string, "Short")
        XCTAssertEqual(text?["numberOfLines"]?.number, 0)
        let rebuilt = try LayoutSession(document: written)
        XCTAssertEqual(rebuilt.allFrames, s.allFrames)
    }

    /// A label without a family is in the system font: Inter tracked as San Francisco is at its
    /// size, where a label that names Inter is not; written back without a family, it stays so.
    func testTheSystemFontIsTrackedAndWrittenBackAsTheSystemFont() throws {
        guard TextMeasurer.shared.catalog.defaultFamily == "Inter" else { throw XCTSkip("Inter is not installed") }
        let s = session(
            #"""
            {"views":[{"id":"root","frame":{"x":0,"y":0,"width":1000,"height":500}},
              {"id":"system","parent":"root","text":{"string":"Hello, world"}},
              {"id":"inter","parent":"root","text":{"string":"Hello, world","font":{"family":"Inter","size":17}}}],
             "constraints":[{"expr":"system.leading == root.leading"},{"expr":"system.top == root.top"},
              {"expr":"inter.leading == root.leading"},{"expr":"inter.top == system.bottom"}]}
            """#)
        XCTAssertEqual(s.frame("system")!.width, s.frame("inter")!.width - 12 * 0.40, accuracy: 1e-9)
        let written = s.document.json
        let font = written["views"]?.array?.first { $0["id"]?.string == "system" }?["text"]?["font"]
        XCTAssertNil(font?["family"], "the system font, not Inter")
        XCTAssertEqual(try LayoutSession(document: written).allFrames, s.allFrames)
    }

    /// `tracking` spaces the characters out as UIKit's kern does, on top of the system font's
    /// own, and is written back; past its range it is refused where it stands.
    func testTrackingIsAskedForAndKept() throws {
        let doc = { (font: String) in
            #"{"views":[{"id":"root","frame":{"x":0,"y":0,"width":1000,"height":500}},{"id":"t","parent":"root","text":{"string":"Hello","font":\#(font)}}],"constraints":[{"expr":"t.leading == root.leading"},{"expr":"t.top == root.top"}]}"#
        }
        let plain = session(doc(#"{"family":"DejaVu Sans","size":15}"#))
        let spaced = session(doc(#"{"family":"DejaVu Sans","size":15,"tracking":2}"#))
        XCTAssertEqual(spaced.frame("t")!.width, plain.frame("t")!.width + 5 * 2, accuracy: 1e-9)
        let written = spaced.document.json["views"]?.array?.first { $0["id"]?.string == "t" }?["text"]?["font"]
        XCTAssertEqual(written?["tracking"]?.number, 2)
        let system = session(doc(#"{"size":17}"#)), systemSpaced = session(doc(#"{"size":17,"tracking":1}"#))
        XCTAssertEqual(systemSpaced.frame("t")!.width, system.frame("t")!.width + 5, accuracy: 1e-9)
        XCTAssertThrowsError(try LayoutSession(document: json(doc(#"{"size":17,"tracking":1e6}"#)))) { error in
            XCTAssertEqual((error as? LayoutError)?.pointer, "/views/1/text/font/tracking")
        }
    }

    /// A longer text at the same width wraps: nothing moves the label's width, so only the
    /// change itself can send it to be wrapped (it stayed on one line, its cell's height too).
    func testALongerTextWrapsAtTheWidthItHas() throws {
        let s = session(cell(width: 200))
        _ = try s.change(
            #"{"ops":[{"op":"updateView","id":"label","text":{"string":"Short","font":{"family":"DejaVu Sans","size":15},"numberOfLines":0}}]}"#)
        let oneLine = s.frame("label")!.height
        let long = "Ken Ferry liked your post about the layout engine and its cache"
        let r = try s.change(
            #"{"ops":[{"op":"updateView","id":"label","text":{"string":"\#(long)","font":{"family":"DejaVu Sans","size":15},"numberOfLines":0}}]}"#)
        let width = s.frame("label")!.width
        let wrapped = try TextMeasurer.shared.measure(long, style: style, width: width)
        XCTAssertGreaterThan(wrapped.lines, 1)
        XCTAssertEqual(s.frame("label")!.height, wrapped.height, accuracy: 1e-9)
        XCTAssertGreaterThan(s.frame("label")!.height, oneLine)
        XCTAssertTrue(r.frames.contains { $0.id == "label" })
    }

    /// explain lists every constraint naming the view on the axis, each with its role.
    func testExplainGivesEveryConstraintItsRole() throws {
        let s = session(cell(width: 170))
        let h = try s.explain(view: "label", axis: .horizontal)
        let roles = Dictionary(uniqueKeysWithValues: h.map { ($0.id, $0.role) })
        XCTAssertEqual(roles["lead"], .determining)
        XCTAssertEqual(roles["trail"], .determining)
        XCTAssertEqual(roles["label.compression.h"], .unsatisfied, "narrower than its text: wrapped")
        XCTAssertEqual(roles["label.hugging.h"], .satisfied)
        XCTAssertEqual(roles["cell.frame.width"], .determining, "not naming the label, but deciding its width")
        let v = try s.explain(view: "label", axis: .vertical)
        XCTAssertEqual(
            Dictionary(uniqueKeysWithValues: v.map { ($0.id, $0.role) })["c4"], .satisfied, "below.top == label.bottom names it; decides only below")
        let broken = session(
            #"{"views":[{"id":"a","frame":{"x":0,"y":0,"width":10,"height":10}}],"constraints":[{"id":"w","expr":"a.width == 20"}]}"#)
        let b = try broken.explain(view: "a", axis: .horizontal)
        XCTAssertEqual(b.first { $0.id == "w" }?.role, .broken)
        XCTAssertEqual(b.first { $0.id == "a.frame.width" }?.role, .determining)
    }

    func testBadTextIsRefusedAtItsPlace() throws {
        for (doc, pointer) in [
            (#"{"views":[{"id":"a","text":{"string":"x","font":{"family":"Nope Sans","size":12}}}]}"#, "/views/0/text/font/family"),
            (#"{"views":[{"id":"a","text":{"string":"x","font":{"family":"DejaVu Sans","size":-1}}}]}"#, "/views/0/text/font/size"),
            (
                #"{"views":[{"id":"a","text":{"string":"x","font":{"family":"DejaVu Sans","size":12},"numberOfLines":-2}}]}"#,
                "/views/0/text/numberOfLines"
            ),
            (
                #"{"views":[{"id":"a","text":{"string":"x","font":{"family":"DejaVu Sans","size":12},"lineBreak":"clip"}}]}"#,
                "/views/0/text/lineBreak"
            ),
            (#"{"views":[{"id":"a","text":{"font":{"family":"DejaVu Sans","size":12}}}]}"#, "/views/0/text/string"),
            (#"{"views":[{"id":"a","intrinsicSize":{"width":4},"text":{"string":"x","font":{"family":"DejaVu Sans","size":12}}}]}"#, "/views/0/text")
        ] {
            XCTAssertThrowsError(try LayoutSession(document: json(doc)), doc) { XCTAssertEqual(($0 as? LayoutError)?.pointer, pointer, doc) }
        }
    }
}
