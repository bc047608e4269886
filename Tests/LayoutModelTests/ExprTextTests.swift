import ConstraintSolver
import JSON
import XCTest

@testable import LayoutModel

/// An `expr` text that its constraint renders to is not kept (`keep(expr:of:)`); every
/// other is. Either way the document gives back each text exactly as sent, after removals
/// that repack the pool too.
final class ExprTextTests: XCTestCase {
    static let texts = [
        "a.top == b.bottom + 12 @750", "a.top == b.bottom - 12", "a.width == 40", "a.height >= -3", "a.leading <= b.trailing",
        "row_1-x.top == a.top + 3",
        // Kept as sent: not the usual way, or not integers.
        "a.top  == b.bottom", "a.top == b.bottom + 12.0", "a.top == b.bottom + 0", "a.top == b.bottom - 0", "a.width == 2 * b.width",
        "a.width == b.width * 2", "a.top == b.bottom + 1.5", "a.top == b.bottom @750.5", "a.width == 40 @1000", "a.width==40",
        "a.width == 1e3"
    ]

    func testTextsComeBackAsSent() throws {
        let constraints = Self.texts.enumerated().map { #"{"id":"x\#($0.offset)","expr":"\#($0.element)"}"# }
        let s = session(
            #"{"views":[{"id":"root","frame":{"x":0,"y":0,"width":320,"height":480}},{"id":"a","parent":"root"},"#
                + #"{"id":"b","parent":"root"},{"id":"row_1-x","parent":"root"}],"constraints":[\#(constraints.joined(separator: ","))]}"#)
        func texts(_ s: LayoutSession) -> [String] { s.document.json["constraints"]!.array!.compactMap { $0["expr"]?.string } }
        XCTAssertEqual(texts(s), Self.texts)
        let rendered = s.document.entries.filter { $0.text == .rendered }.count
        XCTAssertEqual(rendered, 6, "the first six render as sent, and only they")
        // Removing entries leaves holes; the texts that remain (kept or rendered) stay as sent.
        for k in stride(from: 0, to: Self.texts.count, by: 2) {
            _ = try s.change(#"{"ops":[{"op":"removeConstraints","ids":["x\#(k)"]}]}"#)
        }
        XCTAssertEqual(texts(s), Self.texts.enumerated().filter { $0.offset % 2 == 1 }.map(\.element))
        XCTAssertEqual(try LayoutSession(document: s.document.json).document.json, s.document.json)
        // A repack copies what the pool holds and leaves a rendered text rendered.
        var other = StringPool()
        XCTAssertEqual(s.document.texts.copy(.rendered, into: &other), .rendered)
        XCTAssertEqual(other.byteCount, 0)
    }

    /// A one-shot layout's document keeps no text (nothing gives it back) and answers as a
    /// kept session does: same frames in the same order, same diagnostics.
    func testAOneShotKeepsNoTextAndAnswersAsAKeptSession() throws {
        let constraints = Self.texts.enumerated().map { #"{"id":"x\#($0.offset)","expr":"\#($0.element)"}"# }
        let doc = json(
            #"{"views":[{"id":"root","frame":{"x":0,"y":0,"width":320,"height":480}},{"id":"a","parent":"root"},"#
                + #"{"id":"b","parent":"root"},{"id":"row_1-x","parent":"root"}],"constraints":[\#(constraints.joined(separator: ","))]}"#)
        let kept = try LayoutSession.make(document: doc)
        let oneShot = try LayoutSession.make(document: doc, oneShot: true)
        XCTAssertGreaterThan(kept.document.texts.byteCount, 0, "the kept session keeps the texts not written the usual way")
        XCTAssertEqual(oneShot.document.texts.byteCount, 0)
        XCTAssertEqual(oneShot.allFrames, kept.allFrames)
        XCTAssertEqual(oneShot.diagnostics(), kept.diagnostics())
        XCTAssertFalse(kept.diagnostics().isEmpty, "the texts conflict: the diagnostics compared are not empty")
    }
}
