import XCTest
import JSON
@testable import LayoutModel

/// Stack views as UIStackView lays them out: every distribution × alignment on three views
/// with intrinsic sizes (40×20, 60×30, 80×40; spacing 10; the stack 400 wide, its height its
/// own), hidden views collapsing and coming back, a stack in a stack, conflicts naming the
/// stack's constraints, and rebuilding in the same change.
final class StackTests: XCTestCase {
    let sizes: [(String, Double, Double)] = [("a", 40, 20), ("b", 60, 30), ("c", 80, 40)]

    func row(distribution: String, alignment: String, extra: String = "", hidden: String = "") -> String {
        let baselines = alignment == "firstBaseline" ? [15.0, 25, 10] : [18, 28, 35]
        let views = sizes.enumerated().map { k, s in
            let b = alignment.hasSuffix("Baseline") ? #","baseline":{"first":\#(baselines[k]),"last":\#(baselines[k])}"# : ""
            let h = s.0 == hidden ? #","hidden":true"# : ""
            return #"{"id":"\#(s.0)","parent":"row","intrinsicSize":{"width":\#(s.1),"height":\#(s.2)}\#(b)\#(h)}"#
        }.joined(separator: ",")
        return #"""
            {"views":[{"id":"root","frame":{"x":0,"y":0,"width":400,"height":300}},
              {"id":"row","parent":"root","kind":"stack","stack":{"distribution":"\#(distribution)","alignment":"\#(alignment)","spacing":10,"arrangedSubviews":["a","b","c"]}},
              \#(views)],
             "constraints":[{"expr":"row.leading == root.leading"},{"expr":"row.trailing == root.trailing"},{"expr":"row.top == root.top"}\#(extra)]}
            """#
    }

    /// x and width along the stack, by distribution (the three views fill 400 with two gaps of at least 10).
    func along(_ distribution: String) -> [(x: Double, width: Double)] {
        switch distribution {
        case "fill": return [(0, 40), (50, 60), (120, 280)]
        case "fillEqually": let w = 380.0 / 3; return [(0, w), (w + 10, w), (2 * w + 20, w)]
        case "fillProportionally": let w = [40.0, 60, 80].map { $0 / 180 * 380 }; return [(0, w[0]), (w[0] + 10, w[1]), (w[0] + w[1] + 20, w[2])]
        case "equalSpacing": return [(0, 40), (150, 60), (320, 80)]
        case "equalCentering": return [(0, 40), (160, 60), (320, 80)]
        default: fatalError()
        }
    }

    /// y and height across, by alignment, and the stack's height.
    func across(_ alignment: String) -> (frames: [(y: Double, height: Double)], stack: Double) {
        switch alignment {
        case "fill": return ([(0, 40), (0, 40), (0, 40)], 40)
        case "top": return ([(0, 20), (0, 30), (0, 40)], 40)
        case "center": return ([(10, 20), (5, 30), (0, 40)], 40)
        case "bottom": return ([(20, 20), (10, 30), (0, 40)], 40)
        case "firstBaseline": return ([(10, 20), (0, 30), (15, 40)], 55)  // baselines 15, 25, 10 on one line at 25
        case "lastBaseline": return ([(17, 20), (7, 30), (0, 40)], 40)  // 18, 28, 35 on one line at 35
        default: fatalError()
        }
    }

    /// A view with no text has its first baseline at its top and its last at its bottom, as
    /// UIKit documents (`forFirstBaselineLayout`, `forBaselineLayout`): a row aligned on first
    /// baselines hangs a label's first line from a plain view's top.
    func testAViewWithoutTextHasItsFirstBaselineAtItsTop() {
        let s = session(
            """
            {"views": [{"id": "root", "frame": {"x": 0, "y": 0, "width": 300, "height": 300}},
                       {"id": "box", "parent": "root", "intrinsicSize": {"width": 40, "height": 30}},
                       {"id": "other", "parent": "root", "intrinsicSize": {"width": 40, "height": 30}}],
             "constraints": [{"expr": "box.firstBaseline == root.top + 10"}, {"expr": "box.leading == root.leading"},
                             {"expr": "other.lastBaseline == root.top + 100"}, {"expr": "other.leading == root.leading"}]}
            """)
        XCTAssertEqual(s.frame("box"), R(0, 10, 40, 30))
        XCTAssertEqual(s.frame("other"), R(0, 70, 40, 30))
    }

    func testEveryDistributionAndAlignment() throws {
        for distribution in ["fill", "fillEqually", "fillProportionally", "equalSpacing", "equalCentering"] {
            for alignment in ["fill", "top", "center", "bottom", "firstBaseline", "lastBaseline"] {
                let s = session(row(distribution: distribution, alignment: alignment))
                let what = "\(distribution) × \(alignment)"
                XCTAssertEqual(s.diagnostics(), [], what)
                let (cross, height) = across(alignment)
                XCTAssertEqual(s.frame("row"), R(0, 0, 400, height), what)
                for (k, (id, _, _)) in sizes.enumerated() {
                    let f = try XCTUnwrap(s.frame(id), what)
                    let want = R(along(distribution)[k].x, cross[k].y, along(distribution)[k].width, cross[k].height)
                    for (got, expected) in [(f.x, want.x), (f.y, want.y), (f.width, want.width), (f.height, want.height)] {
                        XCTAssertEqual(got, expected, accuracy: 1e-9, "\(what): \(id) \(f) ≠ \(want)")
                    }
                }
            }
        }
    }

    func testAVerticalStackAndAStackInAStack() throws {
        let s = session(
            #"""
            {"views":[{"id":"root","frame":{"x":0,"y":0,"width":400,"height":300}},
              {"id":"column","parent":"root","kind":"stack","stack":{"axis":"vertical","alignment":"center","spacing":8,"arrangedSubviews":["title","row"]}},
              {"id":"title","parent":"column","intrinsicSize":{"width":100,"height":20}},
              {"id":"row","parent":"column","kind":"stack","stack":{"spacing":10,"arrangedSubviews":["a","b"]}},
              {"id":"a","parent":"row","intrinsicSize":{"width":40,"height":20}},{"id":"b","parent":"row","intrinsicSize":{"width":60,"height":30}}],
             "constraints":[{"expr":"column.leading == root.leading + 5"},{"expr":"column.top == root.top + 5"}]}
            """#)
        XCTAssertEqual(s.diagnostics(), [])
        XCTAssertEqual(s.frame("row"), R(0, 28, 110, 30))  // below the title and the spacing, as wide as a, b and a gap
        XCTAssertEqual(s.frame("column"), R(5, 5, 110, 58))  // as wide as its widest view (centered), as tall as both
        XCTAssertEqual(s.frame("title"), R(5, 0, 100, 20))  // centered across
        XCTAssertEqual(s.frame("b"), R(50, 0, 60, 30))
    }

    func testAHiddenViewCollapsesAndComesBack() throws {
        let s = session(row(distribution: "fill", alignment: "top"))
        let r = try s.change(#"{"ops":[{"op":"updateView","id":"b","hidden":true}]}"#)
        XCTAssertEqual(s.frame("b")!.width, 0)
        XCTAssertEqual(s.frame("b")!.x, 40, "where it stood: after a")
        XCTAssertEqual(s.frame("c"), R(50, 0, 350, 40), "c follows a by one spacing, and stretches")
        XCTAssertEqual(Set(r.frames.map(\.id)), ["b", "c"])
        XCTAssertEqual(s.diagnostics(), [])
        _ = try s.change(#"{"ops":[{"op":"updateView","id":"b","hidden":false}]}"#)
        XCTAssertEqual(s.frame("b"), R(50, 0, 60, 30))
        XCTAssertEqual(s.frame("c"), R(120, 0, 280, 40))
        // Hidden from the start, in an equal-spacing stack: two views, one gap.
        let e = session(row(distribution: "equalSpacing", alignment: "top", hidden: "b"))
        XCTAssertEqual(e.frame("c")!.x, 320)
        XCTAssertEqual(e.frame("a")!.x, 0)
        XCTAssertEqual(e.diagnostics(), [])
    }

    /// Every arranged view hidden, the stack is 0 × 0 and what hangs below it moves up, as
    /// UIKit lays it out; shown again, it is as before.
    func testAStackWhoseViewsAreAllHiddenIsZeroByZero() throws {
        let s = session(
            """
            {"views": [{"id": "root", "frame": {"x": 0, "y": 0, "width": 300, "height": 300}},
                       {"id": "col", "parent": "root", "kind": "stack",
                        "stack": {"axis": "vertical", "spacing": 4, "arrangedSubviews": ["a", "b"]}},
                       {"id": "a", "parent": "col", "intrinsicSize": {"width": 80, "height": 20}, "hidden": true},
                       {"id": "b", "parent": "col", "intrinsicSize": {"width": 60, "height": 24}, "hidden": true},
                       {"id": "below", "parent": "root", "intrinsicSize": {"width": 10, "height": 10}}],
             "constraints": [{"expr": "col.top == root.top + 10"}, {"expr": "col.leading == root.leading + 10"},
                             {"expr": "below.top == col.bottom + 8"}, {"expr": "below.leading == root.leading"}]}
            """)
        XCTAssertEqual(s.frame("col"), R(10, 10, 0, 0))
        XCTAssertEqual(s.frame("below"), R(0, 18, 10, 10))
        XCTAssertEqual(s.diagnostics(), [])
        _ = try s.change(#"{"ops":[{"op":"updateView","id":"a","hidden":false},{"op":"updateView","id":"b","hidden":false}]}"#)
        XCTAssertEqual(s.frame("col"), R(10, 10, 80, 48))
        XCTAssertEqual(s.frame("below"), R(0, 66, 10, 10))
        _ = try s.change(#"{"ops":[{"op":"updateView","id":"a","hidden":true},{"op":"updateView","id":"b","hidden":true}]}"#)
        XCTAssertEqual(s.frame("col"), R(10, 10, 0, 0))
        XCTAssertEqual(s.frame("below"), R(0, 18, 10, 10))
    }

    /// `fillProportionally` shares a view without an intrinsic size by its fitting size: 20
    /// beside a stack of 30 + 30 (its arrangement added up) share 200 points 1 : 3, and so do
    /// 20 beside a container its constraints fit to 60 (fitted on an engine of its own).
    func testFillProportionallySharesANestedStackByItsFittingSize() {
        let s = session(
            """
            {"views": [{"id": "root", "frame": {"x": 0, "y": 0, "width": 300, "height": 300}},
                       {"id": "col", "parent": "root", "kind": "stack",
                        "stack": {"axis": "vertical", "distribution": "fillProportionally", "arrangedSubviews": ["a", "inner"]}},
                       {"id": "a", "parent": "col", "intrinsicSize": {"width": 40, "height": 20}},
                       {"id": "inner", "parent": "col", "kind": "stack", "stack": {"axis": "vertical", "arrangedSubviews": ["b", "c"]}},
                       {"id": "b", "parent": "inner", "intrinsicSize": {"width": 40, "height": 30}},
                       {"id": "c", "parent": "inner", "intrinsicSize": {"width": 40, "height": 30}}],
             "constraints": [{"expr": "col.top == root.top"}, {"expr": "col.leading == root.leading"}, {"expr": "col.height == 200"}]}
            """)
        XCTAssertEqual(s.frame("a"), R(0, 0, 40, 50))
        XCTAssertEqual(s.frame("inner")?.height, 150)
        XCTAssertEqual(s.diagnostics(), [])
        // A plain container is fitted by its constraints: 20 beside a box holding 60 share 1 : 3.
        let t = session(
            """
            {"views": [{"id": "root", "frame": {"x": 0, "y": 0, "width": 300, "height": 300}},
                       {"id": "col", "parent": "root", "kind": "stack",
                        "stack": {"axis": "vertical", "distribution": "fillProportionally", "arrangedSubviews": ["a", "box"]}},
                       {"id": "a", "parent": "col", "intrinsicSize": {"width": 40, "height": 20}},
                       {"id": "box", "parent": "col"},
                       {"id": "inside", "parent": "box", "intrinsicSize": {"width": 40, "height": 60}}],
             "constraints": [{"expr": "col.top == root.top"}, {"expr": "col.leading == root.leading"}, {"expr": "col.height == 200"},
                             {"expr": "inside.top == box.top"}, {"expr": "inside.bottom == box.bottom"},
                             {"expr": "inside.leading == box.leading"}, {"expr": "inside.trailing == box.trailing"}]}
            """)
        XCTAssertEqual(t.frame("a")?.height, 50)
        XCTAssertEqual(t.frame("box")?.height, 150)
    }

    /// A subtree from the fitting index is the one a walk over the whole document finds, for
    /// every view: the same views in order, and the same entries (those inside it; not one
    /// that reaches out, as `a1.width == b.width` does; a VFL group inside).
    func testASubtreeFromTheFittingIndexIsTheWalksSubtree() throws {
        let s = session(
            """
            {"views": [{"id": "root", "frame": {"x": 0, "y": 0, "width": 300, "height": 300}},
                       {"id": "col", "parent": "root", "kind": "stack",
                        "stack": {"axis": "vertical", "distribution": "fillProportionally", "arrangedSubviews": ["a", "b"]}},
                       {"id": "a", "parent": "col"}, {"id": "a1", "parent": "a"}, {"id": "a2", "parent": "a"},
                       {"id": "b", "parent": "col"}, {"id": "b1", "parent": "b", "intrinsicSize": {"width": 40, "height": 60}},
                       {"id": "a3", "parent": "a", "intrinsicSize": {"width": 10, "height": 10}}],
             "constraints": [{"expr": "col.top == root.top"}, {"expr": "col.leading == root.leading"}, {"expr": "col.height == 200"},
                             {"id": "in-b", "expr": "b1.top == b.top + 2"}, {"expr": "b1.bottom == b.bottom"}, {"expr": "b1.leading == b.leading"},
                             {"expr": "a1.top == a.top"}, {"expr": "a1.height == 20"}, {"expr": "a1.width == b.width"},
                             {"visual": "V:[a1]-4-[a2(30)]-(>=0)-|"},
                             {"expr": "a3.top == a2.bottom"}]}
            """)
        let doc = s.document
        let index = doc.fittingIndex()
        for v in doc.viewOrder {
            // The walk: a view is inside when v is among its ancestors (or is v).
            func inside(_ u: ViewRef) -> Bool {
                var w = u
                while w != .noRef && w != v { w = doc.views[Int(w)].parent }
                return w == v
            }
            let views = doc.viewOrder.filter(inside)
            let entries = doc.liveEntries.filter { e in
                doc.liveMembers(of: e).allSatisfy { a in
                    let x = doc.atoms[Int(a)]
                    return inside(x.first) && (!x.hasSecond || inside(x.second))
                }
            }
            let found = doc.subtree(v, index)
            let id = doc.views[Int(v)].spec.id
            XCTAssertEqual(found.views, views, id)
            XCTAssertEqual(found.entries, entries, id)
            XCTAssertEqual(doc.json(subtree: v, index: index), doc.json(subtree: v), id)
        }
    }

    /// `layoutMarginsRelativeArrangement`: the arranged views sit inside the stack's layout
    /// margins (10 at the sides, 5 above and below here), the stack as big as them plus its margins.
    func testLayoutMarginsRelativeArrangementInsetsTheViews() throws {
        let s = session(
            """
            {"views": [{"id": "root", "frame": {"x": 0, "y": 0, "width": 300, "height": 300}},
                       {"id": "row", "parent": "root", "kind": "stack", "margins": {"top": 5, "left": 10, "bottom": 5, "right": 10},
                        "stack": {"alignment": "top", "spacing": 4, "arrangedSubviews": ["a", "b"], "layoutMarginsRelativeArrangement": true}},
                       {"id": "a", "parent": "row", "intrinsicSize": {"width": 40, "height": 20}},
                       {"id": "b", "parent": "row", "intrinsicSize": {"width": 60, "height": 30}}],
             "constraints": [{"expr": "row.top == root.top"}, {"expr": "row.leading == root.leading"}]}
            """)
        XCTAssertEqual(s.frame("a"), R(10, 5, 40, 20))
        XCTAssertEqual(s.frame("b"), R(54, 5, 60, 30))
        XCTAssertEqual(s.frame("row"), R(0, 0, 124, 40))
        // Without it the views meet the stack's edges.
        _ = try s.change(
            #"{"ops":[{"op":"updateView","id":"row","stack":{"alignment":"top","spacing":4,"arrangedSubviews":["a","b"]}}]}"#)
        XCTAssertEqual(s.frame("a"), R(0, 0, 40, 20))
        XCTAssertEqual(s.frame("row"), R(0, 0, 104, 30))
    }

    func testConflictsNameTheStacksConstraints() throws {
        let s = session(row(distribution: "fillEqually", alignment: "top", extra: #",{"id":"wide","expr":"a.width == 200"}"#))
        let broken = unsatisfiable(s.diagnostics())
        XCTAssertEqual(broken.count, 1)
        let conflicts = try XCTUnwrap(broken.first?.1)
        XCTAssertTrue(conflicts.contains("wide"), "\(conflicts)")
        XCTAssertTrue(conflicts.contains { $0.hasPrefix("row.stack.") }, "\(conflicts)")
        for id in conflicts where id.hasPrefix("row.stack.") { XCTAssertNotNil(s.document.constraint(named: id), id) }
        // As UIKit (and Xcode's stored frames): the stack's arrangement holds against the
        // document's constraints, and of those the one listed first (the row's trailing edge,
        // `c1`) breaks; the width listed after it holds.
        XCTAssertEqual(broken.first?.0, "c1")
        XCTAssertEqual(s.frame("a")?.width, 200)
        XCTAssertEqual(s.frame("b")?.width, 200)
        // A hidden view's collapse gives way to an explicit size instead (Xcode keeps the size).
        let h = session(row(distribution: "fill", alignment: "top", extra: #",{"id":"keep","expr":"b.width == 60"}"#, hidden: "b"))
        XCTAssertEqual(unsatisfiable(h.diagnostics()).first.map { $0.0.hasPrefix("row.stack.") }, true)
        XCTAssertEqual(h.frame("b")?.width, 60)
        // A stack's constraint is the stack's to change.
        XCTAssertThrowsError(try s.setConstants(json(#"{"row.stack.0": 5}"#))) { XCTAssertEqual(($0 as? LayoutError)?.pointer, "/row.stack.0") }
    }

    /// UIKit ties the first arranged view to the stack across and the others to the first: an
    /// explicit constraint between the same two anchors as the stack's (the first view's top
    /// 17 below a top-aligned stack's) holds, the stack's breaks, and the others follow the
    /// first. An explicit pin of another view to the stack relates other anchors (that view's
    /// tie is to the first view) and still breaks.
    func testAnExplicitConstraintOnAStacksOwnAnchorsHoldsAndTheOthersFollowTheFirst() throws {
        let s = session(row(distribution: "fill", alignment: "top", extra: #",{"id":"down","expr":"a.top == row.top + 17"}"#))
        let broken = unsatisfiable(s.diagnostics())
        XCTAssertEqual(broken.count, 1)
        XCTAssertEqual(broken.first.map { $0.0.hasPrefix("row.stack.") }, true, "\(broken)")
        XCTAssertEqual(broken.first?.1.contains("down"), true, "\(broken)")
        XCTAssertEqual(s.frame("a"), R(0, 17, 40, 20))
        XCTAssertEqual(s.frame("b"), R(50, 17, 60, 30))
        XCTAssertEqual(s.frame("c"), R(120, 17, 280, 40))
        XCTAssertEqual(s.frame("row")?.height, 57)
        let other = session(row(distribution: "fill", alignment: "top", extra: #",{"id":"down","expr":"b.top == row.top + 17"}"#))
        XCTAssertEqual(unsatisfiable(other.diagnostics()).first?.0, "down")
        XCTAssertEqual(other.frame("b"), R(50, 0, 60, 30))
        // The pin added by a change, then removed, lays out as a new session of each document.
        let later = session(row(distribution: "fill", alignment: "top"))
        _ = try later.change(#"{"ops":[{"op":"addConstraints","constraints":[{"id":"down","expr":"a.top == row.top + 17"}]}]}"#)
        XCTAssertEqual(later.frame("c"), R(120, 17, 280, 40))
        XCTAssertEqual(unsatisfiable(later.diagnostics()).map(\.0), broken.map(\.0))
        _ = try later.change(#"{"ops":[{"op":"removeConstraints","ids":["down"]}]}"#)
        XCTAssertEqual(later.frame("a"), R(0, 0, 40, 20))
        XCTAssertEqual(later.frame("c"), R(120, 0, 280, 40))
    }

    func testUpdatingTheStackRebuildsItInTheSameChange() throws {
        let s = session(row(distribution: "fill", alignment: "top"))
        _ = try s.change(
            #"{"ops":[{"op":"updateView","id":"row","stack":{"distribution":"equalSpacing","alignment":"bottom","spacing":10,"arrangedSubviews":["a","b","c"]}}]}"#
        )
        XCTAssertEqual(s.frame("b"), R(150, 10, 60, 30))
        XCTAssertEqual(s.diagnostics(), [])
        // Fewer arranged views: b leaves the arrangement (it stays a child, unconstrained).
        _ = try s.change(#"{"ops":[{"op":"updateView","id":"row","stack":{"distribution":"fill","spacing":10,"arrangedSubviews":["a","c"]}}]}"#)
        XCTAssertEqual(s.frame("c"), R(50, 0, 350, 40))
        // Removing an arranged view takes it out of the arrangement.
        _ = try s.change(#"{"ops":[{"op":"removeViews","ids":["a"]}]}"#)
        XCTAssertEqual(s.frame("c"), R(0, 0, 400, 40))
        let arranged = s.document.json["views"]?.array?.first { $0["id"]?.string == "row" }?["stack"]?["arrangedSubviews"]
        XCTAssertEqual(arranged, .array([.string("c")]))
        // The document written rebuilds the same session; no guide is in it.
        let rebuilt = try LayoutSession(document: s.document.json)
        XCTAssertEqual(rebuilt.allFrames, s.allFrames)
        XCTAssertFalse(String(decoding: s.document.json.serialized, as: UTF8.self).contains("gap"))
        // Removing the stack removes its views and every constraint it made.
        _ = try s.change(#"{"ops":[{"op":"removeViews","ids":["row"]}]}"#)
        XCTAssertEqual(s.allFrames.map(\.id), ["root"])
        XCTAssertEqual(s.document.constraintCount, 4, "the root's fixed frame")
    }

    /// A view inserted among a stack's arranged views changes only the constraints around it:
    /// every other keeps its name (and its engine row), and the stack lays out as one built
    /// with the view in place. By place in the list, every constraint past the insertion changed.
    func testInsertingAnArrangedViewKeepsTheOtherConstraints() throws {
        let s = session(row(distribution: "fill", alignment: "center"))
        func names(_ view: String) throws -> Set<String> {
            Set(try s.explain(view: view, axis: .horizontal).map(\.id) + s.explain(view: view, axis: .vertical).map(\.id))
        }
        let (a, c) = (try names("a"), try names("c"))
        let r = try s.change(
            #"{"ops":[{"op":"addViews","views":[{"id":"n","parent":"row","intrinsicSize":{"width":30,"height":10}}]},"#
                + #"{"op":"updateView","id":"row","stack":{"distribution":"fill","alignment":"center","spacing":10,"arrangedSubviews":["a","n","b","c"]}}]}"#
        )
        // c's constraints are all kept (b is still before it); of a's, only the gap to b went.
        // Read against every constraint the document holds: which of two tight ones (a's
        // hugging, its compression) the basis names as determining is the engine's choice.
        let held = Set(s.document.atoms.indices.filter { s.document.atoms[$0].live }.map { s.document.atomName(AtomRef($0)) })
        XCTAssertTrue(held.isSuperset(of: c), "lost \(c.subtracting(held).sorted())")
        XCTAssertLessThanOrEqual(a.subtracting(held).count, 1, "the gap to b went (its slot may name the gap to n)")
        XCTAssertTrue(r.frames.contains { $0.id == "n" })
        let rebuilt = try LayoutSession(document: s.document.json)
        XCTAssertEqual(rebuilt.allFrames, s.allFrames)
        XCTAssertEqual(s.frame("n"), R(50, 15, 30, 10))
        XCTAssertEqual(s.frame("c"), R(160, 0, 240, 40))
    }

    func testBadStacksAreRefusedAtTheirPlace() {
        for (doc, pointer) in [
            (#"{"views":[{"id":"s","kind":"stack","stack":{"arrangedSubviews":["x"]}}]}"#, "/views/0/stack/arrangedSubviews/0"),
            (#"{"views":[{"id":"s","kind":"stack","stack":{"arrangedSubviews":["x"]}},{"id":"x"}]}"#, "/views/0/stack/arrangedSubviews/0"),
            (#"{"views":[{"id":"s","stack":{}}]}"#, "/views/0/stack"),
            (#"{"views":[{"id":"s","kind":"stack","stack":{"distribution":"fillAll"}}]}"#, "/views/0/stack/distribution"),
            (#"{"views":[{"id":"s","kind":"stack","stack":{"axis":"vertical","alignment":"firstBaseline"}}]}"#, "/views/0/stack/alignment"),
            (
                #"{"views":[{"id":"s","kind":"stack","stack":{"arrangedSubviews":["x","x"]}},{"id":"x","parent":"s"}]}"#,
                "/views/0/stack/arrangedSubviews/1"
            )
        ] {
            XCTAssertThrowsError(try LayoutSession(document: json(doc)), doc) { XCTAssertEqual(($0 as? LayoutError)?.pointer, pointer, doc) }
        }
    }
}

extension StackTests {
    /// Labels in a vertical fill stack squeezed below their heights: the tie-breakers (by
    /// index, at each label's height) decide which gives way, so each follows its label as it
    /// rewraps at every width (in place); the session equals a new one of its document.
    func testTieBreakersFollowLabelsAsTheyRewrap() throws {
        for engine in [EngineKind.solved, .factored] {
            let limits = SessionLimits(engine: engine)
            let s = try LayoutSession(
                document: labelColumn(
                    [("t1", 4), ("t2", 1), ("t3", 2)], #"{"id":"w","expr":"col.width == 380"},{"id":"h","expr":"col.height == 90"}"#),
                limits: limits)
            var heights: Set<Double> = []
            for width in [150.0, 90, 380, 200, 120, 300] {
                _ = try s.change(#"{"ops":[{"op":"setConstant","id":"w","constant":\#(width)}]}"#)
                let fresh = try LayoutSession(document: s.document.json, limits: limits)
                XCTAssertEqual(s.allFrames, fresh.allFrames, "\(engine) at \(width)")
                heights.insert(s.frame("t1")!.height)
                // Squeezed, the last label gives way: the others keep the heights they have
                // in a stack tall enough for all (where nothing but their text holds them).
                _ = try s.change(#"{"ops":[{"op":"setConstant","id":"h","constant":900}]}"#)
                let tall = [s.frame("t1")!.height, s.frame("t2")!.height]
                _ = try s.change(#"{"ops":[{"op":"setConstant","id":"h","constant":90}]}"#)
                XCTAssertEqual([s.frame("t1")!.height, s.frame("t2")!.height], tall, "\(engine) at \(width)")
            }
            XCTAssertGreaterThan(heights.count, 2, "t1 rewrapped")
        }
    }
}

extension StackTests {
    /// A stack made a plain view and a stack again, no longer arranging a label, in one change:
    /// the label forgets its tie-breaker, whose slot a later constraint takes (its rewrap once
    /// wrote its height into that constraint).
    func testAStackDroppedForgetsItsTieBreakers() throws {
        for engine in [EngineKind.solved, .factored] {
            let limits = SessionLimits(engine: engine)
            let s = try LayoutSession(document: labelColumn([("t1", 3), ("t2", 3)], #"{"expr":"col.width == 380"}"#), limits: limits)
            _ = try s.change(
                #"{"ops":[{"op":"updateView","id":"col","kind":"view","stack":null},{"op":"updateView","id":"col","kind":"stack","stack":{"axis":"vertical","arrangedSubviews":["t2"]}}]}"#
            )
            // t1 rewraps at 100; one of the others takes the freed slot.
            let cs = [#"{"id":"tw","expr":"t1.width == 100"}"#] + (0..<8).map { #"{"id":"x\#($0)","expr":"root.width >= \#($0)"}"# }
            _ = try s.change(#"{"ops":[{"op":"addConstraints","constraints":[\#(cs.joined(separator: ","))]}]}"#)
            for k in 0..<8 {
                let e = try XCTUnwrap(s.document.entryRef("x\(k)"))
                XCTAssertEqual(s.document.atoms[Int(s.document.entries[Int(e)].atom)].constant, Double(k), "\(engine) x\(k)")
            }
            let fresh = try LayoutSession(document: s.document.json, limits: limits)
            XCTAssertEqual(fresh.allFrames, s.allFrames, "\(engine)")
        }
    }
}

extension StackTests {
    /// A vertical stack `col` of wrapping labels (id, how many times "wraps at every width")
    /// at the top left of a 400 × 600 root, and `extra` constraints.
    func labelColumn(_ labels: [(String, Int)], _ extra: String) -> JSON {
        let views = labels.map { id, n in
            let text = Array(repeating: "wraps at every width", count: n).joined(separator: " ")
            return #"{"id":"\#(id)","parent":"col","text":{"string":"\#(text)","font":{"family":"DejaVu Sans","size":15},"numberOfLines":0}}"#
        }
        let arranged = labels.map { "\"\($0.0)\"" }.joined(separator: ",")
        return json(
            #"""
            {"views":[{"id":"root","frame":{"x":0,"y":0,"width":400,"height":600}},
              {"id":"col","parent":"root","kind":"stack","stack":{"axis":"vertical","spacing":4,"arrangedSubviews":[\#(arranged)]}},
              \#(views.joined(separator: ","))],
             "constraints":[{"expr":"col.leading == root.leading"},{"expr":"col.top == root.top"},\#(extra)]}
            """#)
    }
}
