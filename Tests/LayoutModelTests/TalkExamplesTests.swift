import XCTest
import JSON
@testable import LayoutModel

/// The examples from Apple's Auto Layout talks.
final class TalkExamplesTests: XCTestCase {
    func testTwoTextFields20Apart() {
        let s = session(
            """
            {"views":[{"id":"root","frame":{"x":0,"y":0,"width":400,"height":100}},
                      {"id":"f1","parent":"root"},{"id":"f2","parent":"root"}],
             "constraints":[{"expr":"f1.leading == root.leading + 20"},{"expr":"f1.width == 100"},
                            {"expr":"f2.leading == f1.trailing + 20"},{"expr":"f2.width == f1.width"},
                            {"expr":"f1.top == root.top + 20"},{"expr":"f2.top == f1.top"},
                            {"expr":"f1.height == 22"},{"expr":"f2.height == 22"}]}
            """)
        XCTAssertEqual(s.frame("f1"), R(20, 20, 100, 22))
        XCTAssertEqual(s.frame("f2"), R(140, 20, 100, 22))
        XCTAssertEqual(s.diagnostics(), [])
    }

    func testSaturnAmbiguousThenFixed() throws {
        let s = session(
            """
            {"views":[{"id":"space","frame":{"x":0,"y":0,"width":320,"height":480}},{"id":"saturn","parent":"space"}],
             "constraints":[{"expr":"saturn.width == 100"},{"expr":"saturn.height == 100"},{"expr":"saturn.centerY == space.centerY"}]}
            """)
        XCTAssertEqual(ambiguous(s.diagnostics()), ["saturn.horizontal"])
        XCTAssertTrue(s.trace().contains("saturn (0, 190, 100, 100) AMBIGUOUS LAYOUT horizontal"), s.trace())
        let other = s.exerciseAmbiguity()
        XCTAssertEqual(other.count, 1)
        XCTAssertNotEqual(other[0].frame.x, 0, "another valid layout moves saturn horizontally")
        XCTAssertEqual(other[0].frame.y, 190)
        XCTAssertEqual(s.revision, 1, "exercising ambiguity keeps no state")
        let r = try s.change(#"{"ops":[{"op":"addConstraints","constraints":[{"id":"cx","expr":"saturn.centerX == space.centerX"}]}]}"#)
        XCTAssertEqual(r.frames, [FrameEntry(id: "saturn", frame: R(110, 190, 100, 100), hidden: false)])
        XCTAssertEqual(r.diagnostics, [])
        XCTAssertEqual(r.revision, 2)
    }

    func testView50And200WideIsUnsatisfiableNamingBoth() {
        let s = session(
            """
            {"views":[{"id":"root","frame":{"x":0,"y":0,"width":400,"height":100}},{"id":"v","parent":"root"}],
             "constraints":[{"id":"w50","expr":"v.width == 50"},{"id":"w200","expr":"v.width == 200"},
                            {"expr":"v.left == root.left"},{"expr":"v.top == root.top"},{"expr":"v.height == 10"}]}
            """)
        let u = unsatisfiable(s.diagnostics())
        XCTAssertEqual(u.count, 1)
        // UIKit's choice, as Xcode's stored frames show it: the constraint listed later holds.
        XCTAssertEqual(u.first?.0, "w50")
        XCTAssertEqual(u.first?.1, ["w50", "w200"])
        XCTAssertEqual(s.frame("v"), R(0, 0, 200, 10))
    }

    /// A change that adds a conflicting constraint: it holds and the older one breaks (a swap
    /// after the engine broke the new one), on either engine; removing it restores the old.
    func testAConstraintAChangeAddsHoldsAgainstAnOlderOne() throws {
        let s = session(
            """
            {"views":[{"id":"root","frame":{"x":0,"y":0,"width":400,"height":100}},{"id":"v","parent":"root"}],
             "constraints":[{"id":"w50","expr":"v.width == 50"},
                            {"expr":"v.left == root.left"},{"expr":"v.top == root.top"},{"expr":"v.height == 10"}]}
            """)
        let r = try s.change(#"{"ops":[{"op":"addConstraints","constraints":[{"id":"w200","expr":"v.width == 200"}]}]}"#)
        XCTAssertEqual(unsatisfiable(r.diagnostics).map(\.0), ["w50"])
        XCTAssertEqual(s.frame("v"), R(0, 0, 200, 10))
        let back = try s.change(#"{"ops":[{"op":"removeConstraints","ids":["w200"]}]}"#)
        XCTAssertEqual(back.diagnostics, [])
        XCTAssertEqual(s.frame("v"), R(0, 0, 50, 10))
    }

    func testFixedZeroFrameButtonConflictsNamingTheFrame() {
        let s = session(
            """
            {"views":[{"id":"root","frame":{"x":0,"y":0,"width":400,"height":300}},
                      {"id":"button","parent":"root","frame":{"x":0,"y":0,"width":0,"height":0}}],
             "constraints":[{"id":"top","expr":"button.top == root.top + 20"},{"id":"left","expr":"button.left == root.left + 20"}]}
            """)
        let u = unsatisfiable(s.diagnostics())
        XCTAssertEqual(u.map(\.0), ["top", "left"])
        // In the document's order: its constraints, then what UIKit makes at layout time.
        XCTAssertEqual(u.first?.1, ["top", "button.frame.y"])
        XCTAssertEqual(u.last?.1, ["left", "button.frame.x"])
        XCTAssertEqual(s.frame("button"), R(0, 0, 0, 0))
        XCTAssertTrue(s.diagnostics().first!.message.contains("button.frame.y"))
    }

    func testTwoLabelsEqualHuggingAmbiguousDifferentResolved() throws {
        let doc = { (h2: Int) in
            """
            {"views":[{"id":"row","frame":{"x":0,"y":0,"width":300,"height":40}},
                      {"id":"a","parent":"row","intrinsicSize":{"width":50,"height":20}},
                      {"id":"b","parent":"row","intrinsicSize":{"width":60,"height":20},"hugging":{"horizontal":\(h2)}}],
             "constraints":[{"id":"h","visual":"H:|-[a]-[b]-|","options":["alignAllCenterY"]},{"expr":"a.top == row.top + 10"}]}
            """
        }
        let tie = session(doc(250))
        XCTAssertEqual(Set(ambiguous(tie.diagnostics())), ["a.horizontal", "b.horizontal"])
        let resolved = session(doc(251))
        XCTAssertEqual(ambiguous(resolved.diagnostics()), [])
        // b hugs harder: it keeps its 60, a stretches: 300 - 20 - 8 - 20 - 60 = 192.
        XCTAssertEqual(resolved.frame("a"), R(20, 10, 192, 20))
        XCTAssertEqual(resolved.frame("b"), R(220, 10, 60, 20))
    }

    func testSocialFeedCellSwapIsNotChurnRebuildIs() throws {
        let base = """
            {"views":[{"id":"cell","frame":{"x":0,"y":0,"width":320,"height":200}},{"id":"image","parent":"cell"}],
             "constraints":[{"expr":"image.top == cell.top + 8"},{"expr":"image.leading == cell.leading + 8"},
               {"id":"withImage","visual":"V:[image(100)]","options":[]},{"id":"withImageW","expr":"image.width == 100"},
               {"id":"noImage","expr":"image.height == 0","active":false},{"id":"noImageW","expr":"image.width == 0","active":false}]}
            """
        let s = session(base)
        XCTAssertEqual(s.frame("image"), R(8, 8, 100, 100))
        // Swapping groups: deactivate one set, activate another: no churn.
        let swap = try s.change(#"{"ops":[{"op":"deactivate","ids":["withImage","withImageW"]},{"op":"activate","ids":["noImage","noImageW"]}]}"#)
        XCTAssertFalse(swap.diagnostics.contains { $0.kind == "churn" })
        XCTAssertEqual(swap.frames.map(\.frame), [R(8, 8, 0, 0)])
        // Tearing down and rebuilding the same constraints: churn, naming them and the view.
        let rebuild = try s.change(
            """
            {"ops":[{"op":"removeConstraints","ids":["noImage","noImageW"]},
                    {"op":"addConstraints","constraints":[{"id":"again1","expr":"image.height == 0"},{"id":"again2","expr":"image.width == 0"}]}]}
            """)
        XCTAssertEqual(rebuild.diagnostics.filter { $0.kind == "churn" }, [.churn(constraints: ["again1", "again2"], views: ["image"])])
        XCTAssertEqual(rebuild.frames, [], "nothing moved")
    }
}
