import ConstraintSolver
import JSON
import XCTest

@testable import LayoutModel

/// The translation's quick path (straight into a batch) against its general path (merged
/// terms, insets, margins, baselines, mirroring) on random documents: every atom's row the same.
final class TranslatorQuickPathTests: XCTestCase {
    func testQuickPathWritesTheGeneralPathsRows() throws {
        var rng = SystemRandomNumberGenerator()
        let horizontal = ["left", "right", "centerX", "leftMargin", "rightMargin", "centerXWithinMargins"]
        let directional = ["leading", "trailing", "leadingMargin", "trailingMargin"]
        let vertical = ["top", "bottom", "centerY", "topMargin", "bottomMargin", "centerYWithinMargins", "firstBaseline", "lastBaseline"]
        var quick = 0, checked = 0
        for _ in 0..<60 {
            let dir = Bool.random(using: &rng) ? "rtl" : "ltr"
            var views = [#"{"id":"v0","frame":{"x":0,"y":0,"width":300,"height":200}}"#]
            for k in 1..<9 {
                var fields = #""id":"v\#(k)","parent":"v\#(Int.random(in: 0..<k, using: &rng))""#
                if Int.random(in: 0..<4, using: &rng) == 0 { fields += #","alignmentInsets":{"top":1,"left":2,"bottom":3,"right":4}"# }
                if Int.random(in: 0..<4, using: &rng) == 0 { fields += #","margins":{"top":5,"left":6,"bottom":7,"right":9}"# }
                if Int.random(in: 0..<4, using: &rng) == 0 { fields += #","baseline":{"first":11,"last":13}"# }
                views.append("{\(fields)}")
            }
            let s = session(#"{"options":{"layoutDirection":"\#(dir)"},"views":[\#(views.joined(separator: ","))],"constraints":[]}"#)
            for n in 0..<60 {
                let family = [horizontal, directional, vertical, ["width", "height"]].randomElement(using: &rng)!
                let a = "v\(Int.random(in: 1..<9, using: &rng)).\(family.randomElement(using: &rng)!)"
                let b = "v\(Int.random(in: 0..<9, using: &rng)).\(family.randomElement(using: &rng)!)"
                let m = [1, 1, 0.5, 2, -1, 0].randomElement(using: &rng)!
                let rel = ["==", "<=", ">="].randomElement(using: &rng)!
                let expr = Bool.random(using: &rng) ? "\(a) \(rel) \(m) * \(b) + 3 @\(Int.random(in: 1...1000, using: &rng))" : "\(a) \(rel) 17"
                _ = try? s.change(#"{"ops":[{"op":"addConstraints","constraints":[{"id":"c\#(n)x","expr":"\#(expr)"}]}]}"#)
            }
            let translator = Translator(document: s.document, variables: s.views)
            for a in s.document.atoms.indices where s.document.atoms[a].live {
                let general = translator.translate(AtomRef(a))
                var batch = ConstraintBatch()
                let (base, sign) = translator.translate(AtomRef(a), into: &batch)
                let row = batch[0]
                XCTAssertEqual(
                    Dictionary(uniqueKeysWithValues: row.expression.terms.map { ($0.variable.id, $0.coefficient) }),
                    Dictionary(uniqueKeysWithValues: general.definition.expression.terms.map { ($0.variable.id, $0.coefficient) }),
                    s.document.describe(AtomRef(a)))
                XCTAssertEqual(row.expression.constant, general.definition.expression.constant, s.document.describe(AtomRef(a)))
                XCTAssertEqual(row.relation, general.definition.relation)
                XCTAssertEqual(row.priority, general.definition.priority)
                XCTAssertEqual(base, general.base)
                XCTAssertEqual(sign, general.sign)
                checked += 1
                if base == 0 && sign == -1 { quick += 1 }
            }
        }
        print("translator quick path: \(quick) of \(checked) atoms")
        XCTAssertGreaterThan(checked, 1000)
        XCTAssertGreaterThan(quick, checked / 4, "the quick path's atoms are among them")
    }
}

/// A set-constant after a whole-document build moves views as the document with that constant
/// built anew would place them: links keep each row's base (insets) and mirroring (rtl).
final class BatchLinkTests: XCTestCase {
    func testSetConstantAfterABuildMatchesTheDocumentBuiltWithIt() throws {
        for dir in ["ltr", "rtl"] {
            func doc(_ lead: Int, _ top: Int, _ width: Int) -> String {
                #"{"options":{"layoutDirection":"\#(dir)"},"views":[{"id":"r","frame":{"x":0,"y":0,"width":300,"height":200}},"#
                    + #"{"id":"a","parent":"r","alignmentInsets":{"top":2,"left":3,"bottom":4,"right":5}},{"id":"b","parent":"r"}],"#
                    + #""constraints":[{"id":"lead","expr":"a.leading == r.leading + \#(lead)"},{"id":"top","expr":"a.top == r.top + \#(top)"},"#
                    + #"{"id":"w","expr":"a.width == \#(width)"},{"expr":"a.height == 30"},{"expr":"b.leading == a.trailing + 4"},"#
                    + #"{"expr":"b.top == a.bottom"},{"expr":"b.width == 10"},{"expr":"b.height == 10"}]}"#
            }
            let fresh = session(doc(17, 9, 61))
            // The set-constant path (a drag's: the link's base and sign, no translation) and a change's.
            let s = session(doc(10, 20, 50))
            _ = try s.setConstants(try JSONParser.parse(#"{"lead":17,"top":9,"w":61}"#))
            let t = session(doc(10, 20, 50))
            _ = try t.change(
                #"{"ops":[{"op":"setConstant","id":"lead","constant":17},{"op":"setConstant","id":"top","constant":9},"#
                    + #"{"op":"setConstant","id":"w","constant":61}]}"#)
            for u in [s, t] {
                XCTAssertEqual(u.frame("a"), fresh.frame("a"), dir)
                XCTAssertEqual(u.frame("b"), fresh.frame("b"), dir)
            }
        }
    }
}

/// A first build takes the engine's changes without listing them (`forgetChanges`): what
/// the next change reports must be exactly what it moved, as after a build that listed them.
final class FirstBuildChangesTests: XCTestCase {
    func testASetConstantAfterAFirstBuildReportsExactlyTheViewsBelowIt() throws {
        var views = [#"{"id":"r","frame":{"x":0,"y":0,"width":100,"height":1000}}"#]
        var constraints: [String] = []
        for i in 0..<10 {
            views.append(#"{"id":"v\#(i)","parent":"r"}"#)
            let above = i == 0 ? "r.top" : "v\(i - 1).bottom"
            constraints += [
                #"{"expr":"v\#(i).top == \#(above)"}"#, #"{"expr":"v\#(i).leading == r.leading"}"#,
                #"{"expr":"v\#(i).width == 50"}"#, #"{"id":"h\#(i)","expr":"v\#(i).height == 10"}"#
            ]
        }
        let doc = #"{"views":[\#(views.joined(separator: ","))],"constraints":[\#(constraints.joined(separator: ","))]}"#
        let built = try XCTUnwrap(LayoutSession.make(documentBytes: Array(doc.utf8)))
        for s in [built, session(doc)] {
            let moved = try s.setConstants(try JSONParser.parse(#"{"h5":25}"#))
            XCTAssertEqual(moved.frames.map(\.id), ["v5", "v6", "v7", "v8", "v9"])
            XCTAssertEqual(s.frame("v9"), R(0, 105, 50, 10))
            let again = try s.setConstants(try JSONParser.parse(#"{"h0":12}"#))
            XCTAssertEqual(again.frames.map(\.id), (0..<10).map { "v\($0)" })
        }
    }
}

/// VFL groups' members live in one list of the document, a slice a group: freed groups leave
/// holes that are repacked once they outnumber the rest. Groups made before and after the
/// repack must still be found by member, removed by member, and written back.
final class GroupMembersTests: XCTestCase {
    func testGroupsSurviveTheirNeighboursRemovalAndTheRepack() throws {
        let s = session(
            #"{"views":[{"id":"r","frame":{"x":0,"y":0,"width":300,"height":300}},{"id":"a","parent":"r"},{"id":"b","parent":"r"}],"#
                + #""constraints":[{"id":"first","visual":"H:|-10-[a(20)]-5-[b(30)]"},{"expr":"b.top == r.top"},"#
                + #"{"expr":"a.height == 10"},{"expr":"b.height == 10"}]}"#)
        let firstMembers = try XCTUnwrap(s.document.members(ofEntry: "first"))
        XCTAssertEqual(firstMembers, ["first.0", "first.1", "first.2", "first.3"])
        // 3,000 groups of two members each, made and removed in batches: 6,000 dead members,
        // repacked on the way.
        for batch in 0..<6 {
            let ids = (0..<500).map { "g\(batch)_\($0)" }
            let add = ids.map { #"{"id":"\#($0)","visual":"H:[a]-(>=1@\#(100 + batch))-[b]-(>=0@\#(100 + batch))-|"}"# }
            _ = try s.change(#"{"ops":[{"op":"addConstraints","constraints":[\#(add.joined(separator: ","))]}]}"#)
            XCTAssertEqual(s.document.members(ofEntry: ids[7]), [ids[7] + ".0", ids[7] + ".1"])
            let removed = ids.map { #""\#($0)""# }.joined(separator: ",")
            _ = try s.change(#"{"ops":[{"op":"removeConstraints","ids":[\#(removed)]}]}"#)
            XCTAssertNil(s.document.members(ofEntry: ids[7]))
        }
        XCTAssertLessThan(s.document.groupMembers.count, 6 * 1_000, "the dead members were repacked")
        XCTAssertLessThan(s.document.deadMembers, 4097)
        _ = try s.change(#"{"ops":[{"op":"addConstraints","constraints":[{"id":"last","visual":"V:|-7-[a]-(>=0)-|"}]}]}"#)
        XCTAssertEqual(s.document.members(ofEntry: "first"), firstMembers)
        XCTAssertEqual(s.document.members(ofEntry: "last"), ["last.0", "last.1"])
        XCTAssertEqual(s.frame("a"), R(10, 7, 20, 10))
        XCTAssertEqual(s.frame("b"), R(35, 0, 30, 10))
        // Members found by name after the repack: a constant set through one moves its view.
        _ = try s.change(#"{"ops":[{"op":"setConstant","id":"last.0","constant":12}]}"#)
        XCTAssertEqual(s.frame("a"), R(10, 12, 20, 10))
        // One member removed: the other stays, and the removed one is not found.
        _ = try s.change(#"{"ops":[{"op":"removeConstraints","ids":["last.1"]}]}"#)
        XCTAssertEqual(s.document.members(ofEntry: "last"), ["last.0"])
        XCTAssertThrowsError(try s.change(#"{"ops":[{"op":"setConstant","id":"last.1","constant":1}]}"#))
        let again = try LayoutSession(document: s.document.json)
        XCTAssertEqual(again.allFrames, s.allFrames)
        XCTAssertEqual(again.document.members(ofEntry: "first"), firstMembers)
    }
}
