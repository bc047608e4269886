import XCTest
import JSON
import TextLayout
@testable import LayoutModel

/// The system's standard space as a constraint constant and as a stack's spacing, and
/// baseline-relative vertical stacks: 8 between siblings, 20 to the superview's own edge,
/// a line between two baselines.
final class StandardSpacingTests: XCTestCase {
    let font = #"{"family":"DejaVu Sans","size":17}"#
    var line: TextMeasurement { try! TextMeasurer.shared.measure("Ag", style: TextStyle(font: Font(family: "DejaVu Sans", size: 17)), width: nil) }

    func testAStandardConstantIs8BetweenSiblingsAnd20ToTheSuperview() throws {
        let s = session(
            """
            {"views": [{"id": "root", "frame": {"x": 0, "y": 0, "width": 300, "height": 300}},
                       {"id": "a", "parent": "root", "intrinsicSize": {"width": 40, "height": 30}},
                       {"id": "b", "parent": "root", "intrinsicSize": {"width": 40, "height": 30}}],
             "constraints": [{"first": "a.leading", "second": "root.leading", "constant": "standard"},
                             {"first": "root.bottom", "second": "a.bottom", "constant": "standard"},
                             {"id": "gap", "first": "b.leading", "second": "a.trailing", "constant": "standard"},
                             {"first": "b.top", "second": "a.top"}]}
            """)
        XCTAssertEqual(s.frame("a"), R(20, 250, 40, 30))
        XCTAssertEqual(s.frame("b"), R(68, 250, 40, 30))
        // Resolved once: a set-constant replaces it like any constant.
        _ = try s.setConstants(json(#"{"gap": 2}"#))
        XCTAssertEqual(s.frame("b"), R(62, 250, 40, 30))
    }

    func testTwoBaselinesAreALineApart() {
        let s = session(
            """
            {"views": [{"id": "root", "frame": {"x": 0, "y": 0, "width": 300, "height": 300}},
                       {"id": "title", "parent": "root", "text": {"string": "Title", "font": \(font)}},
                       {"id": "body", "parent": "root", "text": {"string": "Body", "font": \(font)}}],
             "constraints": [{"expr": "title.top == root.top"}, {"expr": "title.leading == root.leading"},
                             {"expr": "body.leading == root.leading"},
                             {"first": "body.firstBaseline", "second": "title.lastBaseline", "constant": "standard"}]}
            """)
        let m = line
        XCTAssertGreaterThan(m.lineHeight, 8)
        XCTAssertEqual(s.frame("body")!.y, m.lineHeight, accuracy: 1e-6)
    }

    func testAStandardSizeIsRefusedWithAPointer() {
        XCTAssertThrowsError(
            try LayoutSession(
                document: json(
                    """
                    {"views": [{"id": "a"}], "constraints": [{"first": "a.width", "constant": "standard"}]}
                    """))
        ) {
            XCTAssertEqual(($0 as! LayoutError).pointer, "/constraints/0/constant")
        }
    }

    func testAStackWithStandardSpacing() throws {
        let s = session(
            """
            {"views": [{"id": "root", "frame": {"x": 0, "y": 0, "width": 300, "height": 300}},
                       {"id": "row", "parent": "root", "kind": "stack",
                        "stack": {"spacing": "standard", "arrangedSubviews": ["a", "b", "c"]}},
                       {"id": "a", "parent": "row", "intrinsicSize": {"width": 40, "height": 30}},
                       {"id": "b", "parent": "row", "intrinsicSize": {"width": 40, "height": 30}},
                       {"id": "c", "parent": "row", "intrinsicSize": {"width": 40, "height": 30}}],
             "constraints": [{"expr": "row.top == root.top"}, {"expr": "row.leading == root.leading"}]}
            """)
        XCTAssertEqual(s.frame("row"), R(0, 0, 136, 30))
        XCTAssertEqual(s.frame("c"), R(96, 0, 40, 30))
        // The document reads back as it was sent.
        let stack = s.document.json["views"]?.array?.first { $0["id"]?.string == "row" }?["stack"]
        XCTAssertEqual(stack?["spacing"]?.string, "standard")
    }

    func testABaselineRelativeVerticalStack() throws {
        let s = session(
            """
            {"views": [{"id": "root", "frame": {"x": 0, "y": 0, "width": 300, "height": 300}},
                       {"id": "col", "parent": "root", "kind": "stack",
                        "stack": {"axis": "vertical", "alignment": "leading", "spacing": 30, "baselineRelativeArrangement": true,
                                  "arrangedSubviews": ["title", "box", "body"]}},
                       {"id": "title", "parent": "col", "text": {"string": "Title", "font": \(font)}},
                       {"id": "box", "parent": "col", "intrinsicSize": {"width": 40, "height": 10}},
                       {"id": "body", "parent": "col", "text": {"string": "Body", "font": \(font)}}],
             "constraints": [{"expr": "col.top == root.top"}, {"expr": "col.leading == root.leading"}]}
            """)
        let m = line
        // title's baseline at its ascender; the box (no text: its edges are its baselines) 30 below it;
        // body's first baseline 30 below the box's bottom.
        XCTAssertEqual(s.frame("title")!.y, 0, accuracy: 1e-6)
        XCTAssertEqual(s.frame("box")!.y, m.ascender + 30, accuracy: 1e-6)
        XCTAssertEqual(s.frame("body")!.y + m.ascender, m.ascender + 30 + 10 + 30, accuracy: 1e-6)
        XCTAssertEqual(s.frame("col")!.height, s.frame("body")!.y + s.frame("body")!.height, accuracy: 1e-6)
        let stack = s.document.json["views"]?.array?.first { $0["id"]?.string == "col" }?["stack"]
        XCTAssertEqual(stack?["baselineRelativeArrangement"]?.bool, true)
    }
}
