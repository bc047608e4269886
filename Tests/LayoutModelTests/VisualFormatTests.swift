import XCTest
import JSON
import ConstraintSolver
@testable import LayoutModel

/// Examples from Apple's Visual Format Language documentation, with exact frames.
final class VisualFormatTests: XCTestCase {
    /// A 400×100 root, the views given, each 20 from the top and 30 tall unless the format says otherwise.
    func layout(_ views: [String], _ formats: [(String, [String], String)], extra: [String] = [], file: StaticString = #filePath, line: UInt = #line)
        -> LayoutSession
    {
        let vs = views.map { #"{"id":"\#($0)","parent":"root","intrinsicSize":{"width":60,"height":30}}"# }.joined(separator: ",")
        var cs = formats.enumerated().map { k, f in
            #"{"id":"f\#(k)","visual":"\#(f.0)","options":[\#(f.1.map { "\"\($0)\"" }.joined(separator: ","))],"metrics":\#(f.2)}"#
        }
        cs += views.map { #"{"expr":"\#($0).top == root.top + 20"}"# }
        cs += extra
        return session(
            #"{"views":[{"id":"root","frame":{"x":0,"y":0,"width":400,"height":100}},\#(vs)],"constraints":[\#(cs.joined(separator: ","))]}"#,
            file: file, line: line)
    }

    /// A format's numbers read as `Double(String)` reads them, integers by their own path:
    /// signs, leading zeros, fifteen digits and more, fractions; and the relations.
    func testNumbersAndRelationsReadAsDoubleReadsThem() throws {
        let numbers = ["0", "7", "007", "+5", "-5", "-0", "999999999999999", "1234567890123456", "12345678901234567", "1.5", "0.25", "5.", ".5"]
        for n in numbers {
            for (op, relation) in [("", Relation.equal), ("==", .equal), ("<=", .lessOrEqual), (">=", .greaterOrEqual)] {
                let format = "H:[a(\(op)\(n))]"
                let parsed = try VisualFormat.parse(format, options: [], metrics: [:], superview: "|")
                XCTAssertEqual(parsed.constraints.first?.constant, Double(n), format)
                XCTAssertEqual(parsed.constraints.first?.relation, relation, format)
                let connection = n.hasPrefix("-") || n.hasPrefix("+") ? "(\(n))" : n
                let spaced = try VisualFormat.parse("H:[a]-\(connection)-[b]", options: [], metrics: [:], superview: "|")
                XCTAssertEqual(spaced.constraints.first?.constant, Double(n), format)
            }
        }
        // Non-ASCII digits are digits to the scan and numbers to no one: an error, as before.
        XCTAssertThrowsError(try VisualFormat.parse("H:[a(٣)]", options: [], metrics: [:], superview: "|"))
        XCTAssertThrowsError(try VisualFormat.parse("H:[a(=<5)]", options: [], metrics: [:], superview: "|"))
    }

    /// A CR LF is one Character: a format with one is read as Characters, and an error is
    /// placed in characters, not past the end (the vfl fuzz target's finding).
    func testAnErrorAfterACRLFIsPlacedInCharacters() {
        let format = "V:[\r\na]-(84"
        XCTAssertThrowsError(try VisualFormat.parse(format, options: [], metrics: [:], superview: "|")) {
            XCTAssertEqual(($0 as? SyntaxError)?.position, format.count)
        }
    }

    func testStandardSpace() {
        let s = layout(["button", "textField"], [("|-[button]-[textField]", [], "{}")])
        XCTAssertEqual(s.frame("button"), R(20, 20, 60, 30))
        XCTAssertEqual(s.frame("textField"), R(88, 20, 60, 30))
    }

    func testWidthConstraint() {
        let s = layout(["button"], [("|-[button(>=50)]", [], "{}")])
        XCTAssertEqual(s.frame("button"), R(20, 20, 60, 30))
        let t = layout(["button"], [("|-[button(>=80)]", [], "{}")])
        XCTAssertEqual(t.frame("button")?.width, 80)
    }

    func testConnectionToSuperview() {
        let s = layout(["purpleBox"], [("|-50-[purpleBox]-50-|", [], "{}")])
        XCTAssertEqual(s.frame("purpleBox"), R(50, 20, 300, 30))
    }

    func testVerticalLayout() {
        let s = session(
            """
            {"views":[{"id":"root","frame":{"x":0,"y":0,"width":400,"height":300}},{"id":"topField","parent":"root"},{"id":"bottomField","parent":"root"}],
             "constraints":[{"visual":"V:|-[topField(30)]-10-[bottomField(40)]"},{"visual":"H:|[topField]|"},{"visual":"H:|[bottomField]|"}]}
            """)
        XCTAssertEqual(s.frame("topField"), R(0, 20, 400, 30))
        XCTAssertEqual(s.frame("bottomField"), R(0, 60, 400, 40))
    }

    /// A document reads its formats one after another into one kept shape: nothing of one
    /// format (its axis, a `|`, its views) carries into the next.
    func testEachFormatIsReadAfreshInADocument() {
        let s = session(
            """
            {"views":[{"id":"root","frame":{"x":0,"y":0,"width":400,"height":300}},{"id":"a","parent":"root"},{"id":"b","parent":"root"},
              {"id":"x","frame":{"x":0,"y":0,"width":10,"height":10}},{"id":"y","intrinsicSize":{"width":5,"height":5}}],
             "constraints":[{"visual":"V:|-[a(30)]-[b(==a)]-(>=0)-|"},{"visual":"|-10-[a(50)]-[b(==a)]"},{"visual":"[x]-3-[y]"},
              {"expr":"y.top == x.top"}]}
            """)
        XCTAssertEqual(s.frame("a"), R(10, 20, 50, 30))
        XCTAssertEqual(s.frame("b"), R(68, 58, 50, 30))
        XCTAssertEqual(s.frame("y"), R(13, 0, 5, 5))
    }

    func testFlushViews() {
        let s = layout(["maroonView", "blueView"], [("|[maroonView][blueView]", [], "{}")])
        XCTAssertEqual(s.frame("maroonView"), R(0, 20, 60, 30))
        XCTAssertEqual(s.frame("blueView"), R(60, 20, 60, 30))
    }

    func testPriority() {
        // A width of 100 at priority 20 loses to the intrinsic size (hugging 250, compression 750).
        let s = layout(["button"], [("|[button(100@20)]", [], "{}")])
        XCTAssertEqual(s.frame("button")?.width, 60)
    }

    func testEqualWidths() {
        let s = layout(["button1", "button2"], [("|-[button1(==button2)]-[button2]-|", [], "{}")])
        // 400 - 20 - 8 - 20 = 352, split equally (both hug at 250: the equal-width constraint decides).
        XCTAssertEqual(s.frame("button1"), R(20, 20, 176, 30))
        XCTAssertEqual(s.frame("button2"), R(204, 20, 176, 30))
    }

    func testMultiplePredicates() throws {
        // Hugging pulls toward the intrinsic 60; the required >=70 stops it.
        XCTAssertEqual(layout(["flexibleButton"], [("|[flexibleButton(>=70,<=100)]", [], "{}")]).frame("flexibleButton")?.width, 70)
        // Edge to edge (400) is impossible with <=100: as UIKit does, the newest of the
        // conflicting constraints hold and the first listed (the leading edge) breaks.
        let s = layout(["flexibleButton"], [("|[flexibleButton(>=70,<=100)]|", [], "{}")])
        XCTAssertEqual(unsatisfiable(s.diagnostics()).map(\.0), ["f0.0"])
        XCTAssertEqual(
            Set(unsatisfiable(s.diagnostics()).first?.1 ?? []), ["root.frame.width", "f0.0", "f0.2", "f0.3"],
            "leading edge, <=100, trailing edge, root width")
        // Held by the trailing edge, within its widths.
        let f = try XCTUnwrap(s.frame("flexibleButton"))
        XCTAssertEqual(f.x + f.width, 400)
        XCTAssertTrue((70...100).contains(f.width), "\(f)")
    }

    func testCompleteLineOfLayout() {
        let s = session(
            """
            {"views":[{"id":"root","frame":{"x":0,"y":0,"width":400,"height":100}},
                      {"id":"find","parent":"root","intrinsicSize":{"width":60,"height":30}},
                      {"id":"findNext","parent":"root","intrinsicSize":{"width":60,"height":30}},
                      {"id":"findField","parent":"root","intrinsicSize":{"width":60,"height":30},"hugging":{"horizontal":200}}],
             "constraints":[{"visual":"|-[find]-[findNext]-[findField(>=20)]-|"},
                            {"visual":"V:|-20-[find]"},{"visual":"V:|-20-[findNext]"},{"visual":"V:|-20-[findField]"}]}
            """)
        XCTAssertEqual(s.frame("find"), R(20, 20, 60, 30))
        XCTAssertEqual(s.frame("findNext"), R(88, 20, 60, 30))
        // findField hugs least, so it takes the rest: 400 - 20 - 156.
        XCTAssertEqual(s.frame("findField"), R(156, 20, 224, 30))
        XCTAssertEqual(s.diagnostics(), [])
    }

    func testMetricsPredicateListsAndAlignment() {
        let s = session(
            """
            {"views":[{"id":"root","frame":{"x":0,"y":0,"width":400,"height":100}},
                      {"id":"a","parent":"root","intrinsicSize":{"width":60,"height":30}},
                      {"id":"b","parent":"root","intrinsicSize":{"width":60,"height":20}}],
             "constraints":[{"id":"row","visual":"H:|-pad-[a]-(>=gap@750,<=40)-[b]","options":["alignAllCenterY"],"metrics":{"pad":12,"gap":16}},
                            {"expr":"a.top == root.top + 10"}]}
            """)
        XCTAssertEqual(s.frame("a"), R(12, 10, 60, 30))
        XCTAssertEqual(s.frame("b"), R(88, 15, 60, 20))
        XCTAssertEqual(s.document.members(ofEntry: "row"), ["row.0", "row.1", "row.2", "row.3"])
        XCTAssertEqual(s.document.constraint(named: "row.3")?.description, "b.centerY == a.centerY")
    }

    func testErrorsPointAtThePosition() {
        let cases: [(String, [String], String)] = [
            ("H:|-[a]-[", [], "position 9"),
            ("H:|-[a]-(>=x)-[b]", [], "unknown metric 'x' at position 11"),
            ("X:[a]", [], "position 0"),
            ("H:[a]", ["alignAllTop", "alignAllLeft"], "alignAllLeft aligns along the format's own axis"),
            ("V:[a]", ["alignAllNothing"], "unknown option 'alignAllNothing'"),
            ("H:[a]-|-", [], "nothing may follow the closing '|'"),
            // Not ASCII: read as Characters, so positions count characters, not bytes.
            ("H:|-(ééé)-[a]", [], "unknown metric 'ééé' at position 5"),
            ("H:[é]-[a]-[", [], "position 11")
        ]
        for (f, options, expected) in cases {
            let opts = options.map { "\"\($0)\"" }.joined(separator: ",")
            XCTAssertThrowsError(
                try LayoutSession(
                    document: json(
                        #"{"views":[{"id":"root"},{"id":"a","parent":"root"},{"id":"b","parent":"root"}],"constraints":[{"visual":"\#(f)","options":[\#(opts)]}]}"#
                    ))
            ) { e in
                let e = e as! LayoutError
                XCTAssertEqual(e.pointer, "/constraints/0/visual", f)
                XCTAssertTrue(e.detail.contains(expected), "\(f): \(e.detail)")
            }
        }
    }

    func testViewIdsWithDashes() {
        let s = session(
            """
            {"views":[{"id":"root","frame":{"x":0,"y":0,"width":100,"height":100}},{"id":"my-view","parent":"root"}],
             "constraints":[{"visual":"H:|-10-[my-view(==50)]"},{"visual":"V:|-10-[my-view(==5)]"}]}
            """)
        XCTAssertEqual(s.frame("my-view"), R(10, 10, 50, 5))
    }
}
