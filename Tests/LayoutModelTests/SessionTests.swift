import XCTest
import JSON
@testable import LayoutModel
import ConstraintSolver

final class SessionTests: XCTestCase {
    /// Each constraint field is found at its place in `fieldOrder`, and nothing else is: not
    /// a name of the same length and first letter, not a prefix, not another case.
    func testEveryConstraintFieldIsFoundAtItsPlace() {
        for (k, name) in LayoutDocument.fieldOrder.enumerated() {
            XCTAssertEqual(LayoutDocument.field(name), k, name)
            XCTAssertNil(LayoutDocument.field(String(name.dropLast()) + "x"), name)
            XCTAssertNil(LayoutDocument.field(name.uppercased()), name)
            XCTAssertNil(LayoutDocument.field(String(name.dropLast())), name)
        }
        for other in ["", "x", "views", "second ", "optionz", "priorit", "multiplie"] { XCTAssertNil(LayoutDocument.field(other), other) }
    }

    let card = """
        {"views":[{"id":"card","frame":{"x":0,"y":0,"width":375,"height":120}},
                  {"id":"avatar","parent":"card"},
                  {"id":"title","parent":"card","intrinsicSize":{"width":120,"height":20}},
                  {"id":"badge","parent":"avatar"}],
         "constraints":[{"id":"avatarLeading","first":"avatar.leading","relation":"==","second":"card.leading","multiplier":1,"constant":8,"priority":1000},
                        {"id":"avatarWidth","expr":"avatar.width == 40"},{"expr":"avatar.height == avatar.width"},{"expr":"avatar.top == card.top + 8"},
                        {"id":"row","visual":"H:[avatar]-12-[title]-(>=8)-|","options":["alignAllCenterY"],"metrics":{}},
                        {"expr":"badge.trailing == avatar.trailing"},{"expr":"badge.top == avatar.top"},{"expr":"badge.width == 10"},{"expr":"badge.height == 10"}]}
        """

    func testFramesInParentCoordinatesAndOnlyChangesReported() throws {
        let s = session(card)
        XCTAssertEqual(s.frame("avatar"), R(8, 8, 40, 40))
        XCTAssertEqual(s.frame("title"), R(60, 18, 120, 20))
        XCTAssertEqual(s.frame("badge"), R(30, 0, 10, 10), "in avatar's coordinates")
        XCTAssertEqual(s.diagnostics(), [])
        // Drag the avatar: the badge moves with it, so it is not reported.
        let r = try s.setConstants(json(#"{"avatarLeading": 20}"#))
        XCTAssertEqual(r.frames.map(\.id), ["avatar", "title"])
        XCTAssertEqual(r.frames[0].frame, R(20, 8, 40, 40))
        XCTAssertEqual(r.revision, 2)
        // A constant that changes nothing still counts as a revision.
        XCTAssertEqual(try s.setConstants(json(#"{"avatarLeading": 20}"#)).revision, 3)
        // The document reflects the new constant.
        let doc = s.document.json
        XCTAssertEqual(doc["constraints"]?.array?.first?["constant"], .number(20))
    }

    /// Atoms and entries keep 32-bit creation numbers: at the limit the live ones are
    /// numbered again, in the same order, and the layout goes on unchanged.
    func testAtomCreationNumbersRenumberAtTheLimitKeepingTheirOrder() throws {
        let s = session(card)
        func order() -> [AtomRef] {
            s.document.atoms.indices.filter { s.document.atoms[$0].live }
                .sorted { s.document.atoms[$0].sequence < s.document.atoms[$1].sequence }.map { AtomRef($0) }
        }
        let before = order()
        let entriesBefore = s.document.liveEntries.map { s.document.entries[Int($0)].id }
        s.document.atomSequence = .max - 1
        s.document.entrySequence = .max - 1
        _ = try s.change(
            #"{"ops":[{"op":"addConstraints","constraints":[{"id":"late1","expr":"badge.leading >= avatar.leading"},"#
                + #"{"id":"late2","expr":"badge.bottom <= avatar.bottom"}]}]}"#)
        let after = order()
        XCTAssertEqual(Array(after.prefix(before.count)), before, "the earlier atoms keep their order")
        XCTAssertEqual(after.count, before.count + 2)
        XCTAssertLessThan(s.document.atomSequence, 1000, "numbered again from 1")
        XCTAssertEqual(s.document.liveEntries.map { s.document.entries[Int($0)].id }, entriesBefore + ["late1", "late2"])
        XCTAssertLessThan(s.document.entrySequence, 1000, "numbered again from 1")
        XCTAssertEqual(s.frame("badge"), R(30, 0, 10, 10))
    }

    /// The history is a ring of `historyDepth` revisions: within it answers are incremental
    /// and exact, past it the answer is the full set (never a wrong incremental one).
    func testFramesSinceAcrossTheHistoryRing() throws {
        let s = try LayoutSession(document: json(card), limits: SessionLimits(historyDepth: 4))
        for k in 0..<10 { _ = try s.setConstants(json(#"{"avatarLeading": \#(10 + k)}"#)) }  // revs 2…11
        XCTAssertEqual(s.revision, 11)
        for since in 7...10 {
            let a = try s.frames(since: since)
            XCTAssertFalse(a.full, "revisions 8…11 are kept")
            XCTAssertEqual(a.frames.map(\.id), ["avatar", "title"])
        }
        XCTAssertEqual(try s.frames(since: 11).frames, [])
        XCTAssertTrue(try s.frames(since: 6).full, "revision 7 has been overwritten")
        XCTAssertEqual(try s.frames(since: 6).frames.count, 4)
    }

    func testFramesSince() throws {
        let s = session(card)
        _ = try s.setConstants(json(#"{"avatarLeading": 20}"#))  // rev 2: avatar, title
        _ = try s.change(#"{"ops":[{"op":"updateView","id":"title","hidden":true}]}"#)  // rev 3: title
        _ = try s.setConstants(json(#"{"avatarWidth": 50}"#))  // rev 4: avatar, title, badge
        let since3 = try s.frames(since: 3)
        XCTAssertEqual(since3.frames.map(\.id), ["avatar", "badge", "title"])
        XCTAssertFalse(since3.full)
        let since2 = try s.frames(since: 2)
        XCTAssertEqual(since2.frames.first { $0.id == "title" }?.hidden, true)
        XCTAssertTrue(try s.frames(since: 0).full)
        XCTAssertEqual(try s.frames(since: 4).frames, [])
        XCTAssertThrowsError(try s.frames(since: 5))
    }

    func testRollbackIsExactAndNamesTheOp() throws {
        let s = session(card)
        let before = s.document.json
        XCTAssertThrowsError(
            try s.change(
                """
                {"ops":[{"op":"addViews","views":[{"id":"x","parent":"card"}]},
                        {"op":"setConstant","id":"avatarLeading","constant":99},
                        {"op":"addConstraints","constraints":[{"expr":"x.left == nowhere.left"}]}]}
                """)
        ) { e in
            let e = e as! LayoutError
            XCTAssertEqual(e.pointer, "/ops/2/constraints/0/expr")
            XCTAssertTrue(e.detail.contains("nowhere"))
        }
        XCTAssertEqual(s.document.json, before)
        XCTAssertEqual(s.revision, 1)
        XCTAssertEqual(s.frame("avatar"), R(8, 8, 40, 40))
        XCTAssertNil(s.frame("x"))
        // The session still works.
        XCTAssertEqual(try s.setConstants(json(#"{"avatarLeading": 9}"#)).frames.first?.frame.x, 9)
    }

    /// Every kind of set-constant member through the fast path and the checked one: a named
    /// constraint, a VFL atom (its group is then listed as edited), several at once, and
    /// the document and frames agreeing with a session that got the same values as ops.
    func testSetConstantsOnNamedAtomsAndGroupsMatchesOps() throws {
        let fast = session(card), ops = session(card)
        let r = try fast.setConstants(json(#"{"avatarLeading": 14, "row.0": 20, "avatarWidth": 44}"#))
        _ = try ops.change(
            #"{"ops":[{"op":"setConstant","id":"avatarLeading","constant":14},{"op":"setConstant","id":"row.0","constant":20},{"op":"setConstant","id":"avatarWidth","constant":44}]}"#
        )
        XCTAssertEqual(fast.allFrames, ops.allFrames)
        XCTAssertEqual(fast.document.json, ops.document.json)
        XCTAssertEqual(fast.frame("avatar"), R(14, 8, 44, 44))
        XCTAssertEqual(fast.frame("title")?.x, 14 + 44 + 20)
        XCTAssertEqual(Set(r.frames.map(\.id)), ["avatar", "title", "badge"])
        let rowJSON = fast.document.json["constraints"]!.array!.filter { ($0["id"]?.string ?? "").hasPrefix("row") }
        XCTAssertEqual(rowJSON.compactMap { $0["id"]?.string }, ["row.0", "row.1", "row.2"], "an edited VFL group is listed as its constraints")
        // A body naming a group is refused whole, before anything changes.
        XCTAssertThrowsError(try fast.setConstants(json(#"{"avatarLeading": 1, "row": 3}"#)))
        XCTAssertEqual(fast.frame("avatar")?.x, 14)
    }

    func testRevisionMismatchAndUnknownIds() {
        let s = session(card)
        XCTAssertThrowsError(try s.change(#"{"baseRevision":7,"ops":[]}"#)) { XCTAssertEqual(($0 as! LayoutError).kind, .revisionMismatch) }
        XCTAssertThrowsError(try s.setConstants(json(#"{"avatarLeading": 3, "nope": 4}"#))) {
            XCTAssertEqual(($0 as! LayoutError).pointer, "/nope")
        }
        XCTAssertEqual(s.frame("avatar")?.x, 8, "a rejected constants body changes nothing")
        // Pointers are written lazily, on error only: RFC 6901 escapes still apply (~ → ~0, / → ~1).
        XCTAssertThrowsError(try s.setConstants(json(#"{"a/b~c": 4}"#))) { XCTAssertEqual(($0 as! LayoutError).pointer, "/a~1b~0c") }
        XCTAssertThrowsError(
            try s.change(#"{"ops":[{"op":"setConstant","id":"avatarLeading","constant":1},{"op":"setConstant","id":"x/y","constant":3}]}"#)
        ) {
            XCTAssertEqual(($0 as! LayoutError).pointer, "/ops/1/id")
        }
        XCTAssertThrowsError(try s.setConstants(json(#"{"card.frame.x": 3}"#)))
        XCTAssertThrowsError(try s.change(#"{"ops":[{"op":"setConstant","id":"row","constant":3}]}"#)) {
            XCTAssertTrue(($0 as! LayoutError).detail.contains("row.0"))
        }
    }

    func testNumbersOutsideTheContractRangeAreRejectedAndTheSessionKeepsWorking() throws {
        let s = session(card)
        XCTAssertThrowsError(try s.setConstants(json(#"{"avatarLeading": 1e308}"#))) {
            XCTAssertEqual(($0 as! LayoutError).pointer, "/avatarLeading")
        }
        XCTAssertThrowsError(try s.change(#"{"ops":[{"op":"setConstant","id":"avatarLeading","constant":-2e7}]}"#)) {
            XCTAssertEqual(($0 as! LayoutError).pointer, "/ops/0/constant")
        }
        XCTAssertThrowsError(try s.change(#"{"ops":[{"op":"addConstraints","constraints":[{"expr":"avatar.width == 1e300 * title.width"}]}]}"#))
        XCTAssertThrowsError(try s.change(#"{"ops":[{"op":"updateView","id":"card","frame":{"x":0,"y":0,"width":1e9,"height":1}}]}"#)) {
            XCTAssertEqual(($0 as! LayoutError).pointer, "/ops/0/frame/width")
        }
        // The largest allowed values still solve to finite frames, and the session recovers.
        _ = try s.setConstants(json(#"{"avatarLeading": 10000000}"#))
        _ = try s.setConstants(json(#"{"avatarLeading": -10000000}"#))
        let r = try s.setConstants(json(#"{"avatarLeading": 8}"#))
        XCTAssertEqual(r.frames.first { $0.id == "avatar" }?.frame, R(8, 8, 40, 40))
    }

    func testAnchorRulesRejectedPrecisely() {
        let bad = [
            ("title.left == card.top", "other axis"), ("title.left == card.width", "dimension"),
            ("title.left == 100", "needs a second item"), ("title.left == 0 * card.left + 5", "multiplier of 0"),
            ("title.leading == card.left", "cannot be mixed")
        ]
        for (e, why) in bad {
            XCTAssertThrowsError(
                try LayoutSession(document: json(#"{"views":[{"id":"card"},{"id":"title","parent":"card"}],"constraints":[{"expr":"\#(e)"}]}"#))
            ) {
                let err = $0 as! LayoutError
                XCTAssertEqual(err.pointer, "/constraints/0/expr")
                XCTAssertTrue(err.detail.contains(why), "\(e): \(err.detail)")
            }
        }
        // Dimensions across axes and to constants are fine.
        let ok = session(
            #"{"views":[{"id":"v","frame":{"x":0,"y":0,"width":10,"height":10}},{"id":"i","parent":"v"}],"constraints":[{"expr":"i.width == 2 * i.height"},{"expr":"i.height == 7"},{"expr":"i.left == v.left"},{"expr":"i.top == v.top"}]}"#
        )
        XCTAssertEqual(ok.frame("i"), R(0, 0, 14, 7))
    }

    /// An `expr` read straight into refs makes the constraint the tokenizing parser makes; one
    /// that breaks a rule or names an unknown view takes the whole way to its error.
    func testAnExpressionReadInPlaceIsTheOneTokensRead() throws {
        let views = #"{"views":[{"id":"a"},{"id":"b","parent":"a"},{"id":"b-2","parent":"a"}],"#
        let exprs = [
            "b.width == 2 * a.height + 5 @750", "b.centerX == a.centerX * 0.5 - 3", "b.top >= a.bottom + 1.25",
            "b.width <= a.width / 4", "b.height == 12", "b.lastBaseline == b-2.firstBaseline", "b.leading == a.leadingMargin - -2",
            "b.width == 10000000", "b.width == a.width * 1000000"
        ]
        let doc = views + #""constraints":["# + exprs.enumerated().map { #"{"id":"e\#($0)","expr":"\#($1)"}"# }.joined(separator: ",") + "]}"
        let s = session(doc)
        for (k, e) in exprs.enumerated() {
            XCTAssertEqual(s.document.constraint(named: "e\(k)"), try ExpressionSyntax.parseTokens(e), e)
        }
        let bad = [
            ("b.width == nope.width", "unknown view 'nope'"), ("nope.width == 1", "unknown view 'nope'"),
            ("b.width == 10000001", "the constant 10000001.0 is outside ±10000000"),
            ("b.width == a.width * 1000001", "the multiplier 1000001.0 is outside ±1000000"),
            ("b.left == 4", "the location b.left needs a second item: a location cannot be given only a constant")
        ]
        for (e, detail) in bad {
            XCTAssertThrowsError(try LayoutSession(document: json(views + #""constraints":[{"expr":"b.width == 1"},{"expr":"\#(e)"}]}"#)), e) {
                XCTAssertEqual(($0 as? LayoutError)?.pointer, "/constraints/1/expr", e)
                XCTAssertEqual(($0 as? LayoutError)?.detail, detail, e)
            }
        }
    }

    func testExprSyntax() throws {
        let a = try ExpressionSyntax.parse(
            "a.x == b.y * 2 + 8 @750".replacingOccurrences(of: ".x", with: ".centerX").replacingOccurrences(of: ".y", with: ".centerX"))
        XCTAssertEqual(
            a,
            AtomicConstraint(
                first: Anchor(view: "a", attribute: .centerX), relation: .equal, second: Anchor(view: "b", attribute: .centerX), multiplier: 2,
                constant: 8, priority: 750))
        let b = try ExpressionSyntax.parse("title.leading >= avatar.trailing - 12.5")
        XCTAssertEqual(b.constant, -12.5)
        XCTAssertEqual(b.relation, .greaterOrEqual)
        let c = try ExpressionSyntax.parse("icon.width == 2 * icon.height")
        XCTAssertEqual(c.multiplier, 2)
        XCTAssertEqual(try ExpressionSyntax.parse("v.width <= 100").second, nil)
        XCTAssertEqual(try ExpressionSyntax.parse("v.width == w.width / 4").multiplier, 0.25)
        for (e, pos) in [
            ("v.width = 3", 8), ("v.width == ", 11), ("v.width == 3 @", 14), ("v.width == a.width + b.width", 21), ("v.width == 3 $", 13)
        ] {
            XCTAssertThrowsError(try ExpressionSyntax.parse(e)) { XCTAssertEqual(($0 as! ExpressionSyntax.Failure).position, pos, e) }
        }
        // Non-ASCII text takes the Character path: ids in any script, positions in characters.
        let greek = try ExpressionSyntax.parse("εικόνα.width == 2 * κείμενο-α.height + 3")
        XCTAssertEqual(
            greek,
            AtomicConstraint(
                first: Anchor(view: "εικόνα", attribute: .width), relation: .equal,
                second: Anchor(view: "κείμενο-α", attribute: .height), multiplier: 2, constant: 3))
        for (e, pos, message) in [
            ("εικόνα.width = 3", 13, "expected ==, <= or >="), ("é.width == 3 $", 13, "unexpected character '$'"),
            ("é.width == a.width + b.width", 21, "only one view.attribute may stand on the right"),
            ("e.width == a.width + b.width", 21, "only one view.attribute may stand on the right"),
            ("e.width == 3 €", 13, "unexpected character '€'"), ("e.width == ٣", 11, "invalid number")
        ] {
            XCTAssertThrowsError(try ExpressionSyntax.parse(e)) {
                XCTAssertEqual(($0 as! ExpressionSyntax.Failure).position, pos, e)
                XCTAssertEqual(($0 as! ExpressionSyntax.Failure).message, message, e)
            }
        }
    }

    /// A batch's parents: the first view whose chain comes back on itself is named (also when
    /// the loop it reaches leaves it out), an unknown parent is named, and any order is fine.
    func testParentLoopsAndUnknownParentsAreNamed() throws {
        func error(_ views: String) -> LayoutError? {
            do { _ = try LayoutSession(document: json(#"{"views":[\#(views)],"constraints":[]}"#)) } catch { return error }
            return nil
        }
        let loop = error(#"{"id":"a","parent":"b"},{"id":"b","parent":"a"}"#)
        XCTAssertEqual(loop?.pointer, "/views/0/parent")
        XCTAssertEqual(loop?.detail, "the parent chain of 'a' loops")
        let reaches = error(#"{"id":"r"},{"id":"x","parent":"a"},{"id":"a","parent":"b"},{"id":"b","parent":"a"}"#)
        XCTAssertEqual(reaches?.pointer, "/views/1/parent")
        XCTAssertEqual(reaches?.detail, "the parent chain of 'x' loops")
        let unknown = error(#"{"id":"a","parent":"r"},{"id":"r"},{"id":"c","parent":"nope"}"#)
        XCTAssertEqual(unknown?.pointer, "/views/2/parent")
        XCTAssertEqual(unknown?.detail, "unknown parent view 'nope'")
        XCTAssertNil(error(#"{"id":"v3","parent":"v2"},{"id":"v2","parent":"v1"},{"id":"v1","parent":"root"},{"id":"root"}"#))
        // Children before their parents (refs not in list order) or after (the batch's table of
        // ids taken whole): either way each id names its own view, in a first batch and a later one.
        for views in [
            #"{"id":"v2","parent":"v1"},{"id":"v1","parent":"root"},{"id":"root","frame":{"x":0,"y":0,"width":100,"height":100}}"#,
            #"{"id":"root","frame":{"x":0,"y":0,"width":100,"height":100}},{"id":"v1","parent":"root"},{"id":"v2","parent":"v1"}"#
        ] {
            let s = session(
                #"{"views":[\#(views)],"constraints":[{"expr":"v1.left == root.left + 10"},{"expr":"v1.top == root.top + 20"},"#
                    + #"{"expr":"v1.width == 50"},{"expr":"v1.height == 30"},{"expr":"v2.left == v1.left + 5"},"#
                    + #"{"expr":"v2.top == v1.top + 1"},{"expr":"v2.width == 7"},{"expr":"v2.height == 8"}]}"#)
            XCTAssertEqual(s.frame("v1"), R(10, 20, 50, 30), views)
            XCTAssertEqual(s.frame("v2"), R(5, 1, 7, 8), views)
            _ = try s.change(#"{"ops":[{"op":"addViews","views":[{"id":"v4","parent":"v3"},{"id":"v3","parent":"v2"}]}]}"#)
            XCTAssertNotNil(s.document.viewRef("v4"))
            XCTAssertEqual(s.document.views[Int(s.document.viewRef("v4")!)].parent, s.document.viewRef("v3"))
            XCTAssertEqual(s.document.views[Int(s.document.viewRef("v3")!)].parent, s.document.viewRef("v2"))
        }
        let twice = error(#"{"id":"r"},{"id":"a","parent":"r"},{"id":"a"}"#)
        XCTAssertEqual(twice?.pointer, "/views/2/id")
        XCTAssertEqual(twice?.detail, "a view 'a' exists already")
        XCTAssertEqual(error(#"{"id":"r"},{"id":"a","hidden":1}"#)?.pointer, "/views/1/hidden")
        XCTAssertEqual(error(#"{"id":"r"},{"id":"a","kind":"view","stack":{}}"#)?.pointer, "/views/1/stack")
        // An op's batch points into the op.
        let s = session(#"{"views":[{"id":"r"}]}"#)
        XCTAssertThrowsError(try s.change(#"{"ops":[{"op":"addViews","views":[{"id":"b","parent":"r"},{"id":"r"}]}]}"#)) {
            XCTAssertEqual(($0 as? LayoutError)?.pointer, "/ops/0/views/1/id")
        }
    }

    func testRemovingViewRemovesSubtreeAndNamingConstraintsVFLRemainderListed() throws {
        let s = session(card)
        let r = try s.change(#"{"ops":[{"op":"removeViews","ids":["avatar"]}]}"#)
        XCTAssertEqual(r.removed, ["avatar", "badge"])
        XCTAssertNil(s.document.constraint(named: "avatarLeading"))
        XCTAssertNil(s.document.constraint(named: "row.0"), "row.0 named avatar")
        XCTAssertNotNil(s.document.constraint(named: "row.1"), "title-to-edge stays")
        let cs = s.document.json["constraints"]!.array!
        XCTAssertEqual(cs.compactMap { $0["id"]?.string }, ["row.1"], "the edited group is listed as its remaining constraints")
        XCTAssertTrue(ambiguous(r.diagnostics).contains("title.vertical"))
    }

    /// Removals within the window are listed by `frames(since:)`, a view removed and added
    /// again is a frame (not a removal), and past the window the answer is full.
    func testFramesSinceListsRemovalsAndReadditions() throws {
        let s = try LayoutSession(document: json(card), limits: SessionLimits(historyDepth: 3))
        _ = try s.change(#"{"ops":[{"op":"removeViews","ids":["badge"]}]}"#)  // rev 2
        _ = try s.change(#"{"ops":[{"op":"removeViews","ids":["title"]}]}"#)  // rev 3
        _ = try s.change(#"{"ops":[{"op":"addViews","views":[{"id":"title","parent":"card","intrinsicSize":{"width":50,"height":10}}]}]}"#)  // rev 4
        let since1 = try s.frames(since: 1)
        XCTAssertFalse(since1.full)
        XCTAssertEqual(since1.removed, ["badge"])
        XCTAssertEqual(since1.frames.map(\.id), ["title"])
        XCTAssertEqual(try s.frames(since: 2).removed, [])
        XCTAssertEqual(try s.frames(since: 3).frames.map(\.id), ["title"])
        for k in 0..<3 { _ = try s.setConstants(json(#"{"avatarLeading": \#(30 + k)}"#)) }  // revs 5…7
        XCTAssertTrue(try s.frames(since: 3).full, "the removal at revision 3 may be gone")
        let since4 = try s.frames(since: 4)
        XCTAssertFalse(since4.full)
        XCTAssertEqual(since4.removed, [])
        XCTAssertEqual(since4.frames.map(\.id), ["avatar"], "the new title is not tied to the avatar")
    }

    /// The document is written from its records, not kept as sent: what it writes must build
    /// the same session (same frames, diagnostics and document), before and after changes that
    /// edit groups, change and make `expr` entries stale, deactivate and restyle.
    func testDocumentJSONRebuildsTheSameSession() throws {
        let s = session(
            #"""
            {"options":{"layoutDirection":"rtl","scale":2},
             "views":[{"id":"root","frame":{"x":0,"y":0,"width":320,"height":480},"margins":{"top":4,"left":6,"bottom":4,"right":6}},
                      {"id":"g","parent":"root","kind":"guide"},
                      {"id":"a","parent":"root","intrinsicSize":{"width":40},"hugging":{"horizontal":700},"alignmentInsets":{"top":1,"left":2,"bottom":3,"right":4}},
                      {"id":"b","parent":"root","intrinsicSize":{"width":60,"height":20},"compressionResistance":{"vertical":800},"baseline":{"first":14,"last":16}},
                      {"id":"c","parent":"root","hidden":true,"frame":{"x":1,"y":2,"width":3,"height":4}}],
             "constraints":[{"id":"row","visual":"H:|-[a]-(gap)-[b]-|","options":["alignAllTop"],"metrics":{"gap":12}},
                            {"expr":"a.top == root.topMargin + 8 @999"},
                            {"id":"bw","first":"b.width","relation":">=","second":"a.width","multiplier":0.5,"constant":3,"priority":900},
                            {"expr":"g.leading == root.leading"},{"expr":"g.width == 10"},{"expr":"g.width == 10","active":false},
                            {"expr":"g.top == b.lastBaseline"},{"expr":"g.height == 2"},{"expr":"a.height == 30"}]}
            """#)
        func same(_ s: LayoutSession, file: StaticString = #filePath, line: UInt = #line) throws {
            XCTAssertEqual(s.diagnostics(), [], "determined, so that any engine's build gives the same frames", file: file, line: line)
            let again = try LayoutSession(document: s.document.json)
            XCTAssertEqual(again.allFrames, s.allFrames, file: file, line: line)
            XCTAssertEqual(again.diagnostics(), s.diagnostics(), file: file, line: line)
            XCTAssertEqual(again.document.json, s.document.json, file: file, line: line)
        }
        try same(s)
        XCTAssertEqual(s.document.json["constraints"]!.array!.map { $0["id"]!.string! }, ["row", "c1", "bw", "c2", "c3", "c4", "c5", "c6", "c7"])
        XCTAssertEqual(s.document.json["constraints"]!.array![5]["active"], .bool(false))
        _ = try s.change(
            #"{"ops":[{"op":"setConstant","id":"c1","constant":12},{"op":"setConstant","id":"row.1","constant":14},"#
                + #"{"op":"activate","ids":["c4"]},{"op":"updateView","id":"a","margins":{"top":9},"intrinsicSize":null},"#
                + #"{"op":"setPriority","id":"bw","priority":500}]}"#)
        try same(s)
        let cs = s.document.json["constraints"]!.array!
        XCTAssertEqual(cs.compactMap { $0["id"]?.string }.prefix(4), ["row.0", "row.1", "row.2", "row.3"], "the edited group as its members")
        XCTAssertEqual(
            cs.first { $0["id"]?.string == "c1" }?["expr"]?.string, "a.top == root.topMargin + 12 @999", "an expr written the usual way stays one")
        _ = try s.setConstants(json(#"{"bw": 7, "c1": 12.5}"#))
        try same(s)
        XCTAssertEqual(
            s.document.json["constraints"]!.array!.first { $0["id"]?.string == "c1" }?["constant"]?.number, 12.5,
            "a stale expr (a constant it cannot write) in the explicit form")
    }

    /// The entries' texts live in one pool that is repacked as constraints go: what is left
    /// is listed as sent, and the pool stays near the size of the texts still live.
    func testExpressionTextsSurviveRemovalsAndRepacking() throws {
        let n = 400
        let views = (0..<n).map { #"{"id":"v\#($0)","parent":"root"}"# }.joined(separator: ",")
        let constraints = (0..<n).map { #"{"id":"e\#($0)","expr":"v\#($0).left == root.left + \#($0)  "}"# }.joined(separator: ",")
        let s = session(#"{"views":[{"id":"root","frame":{"x":0,"y":0,"width":9,"height":9}},\#(views)],"constraints":[\#(constraints)]}"#)
        let full = s.document.texts.byteCount
        for k in stride(from: 0, to: n, by: 40) {
            let ids = (k..<k + 40).filter { $0 % 10 != 3 }.map { #""e\#($0)""# }.joined(separator: ",")
            _ = try s.change(#"{"ops":[{"op":"removeConstraints","ids":[\#(ids)]}]}"#)
        }
        let left = s.document.json["constraints"]!.array!
        XCTAssertEqual(left.map { $0["id"]!.string! }, stride(from: 3, to: n, by: 10).map { "e\($0)" })
        XCTAssertEqual(left.map { $0["expr"]!.string! }, stride(from: 3, to: n, by: 10).map { "v\($0).left == root.left + \($0)  " })
        XCTAssertLessThan(s.document.texts.byteCount, full / 2, "repacked as entries went")
        XCTAssertEqual(s.frame("v43"), R(43, 0, 0, 0))
    }

    func testServerIdsNeverReusedAndDuplicates422() throws {
        let s = session(
            #"{"views":[{"id":"v","frame":{"x":0,"y":0,"width":10,"height":10}},{"id":"w","parent":"v"}],"constraints":[{"expr":"w.width == 1"},{"expr":"w.height == 1"}]}"#
        )
        XCTAssertEqual(s.document.entryOrder, ["c1", "c2"])
        let r = try s.change(#"{"ops":[{"op":"removeConstraints","ids":["c2"]},{"op":"addConstraints","constraints":[{"expr":"w.height == 2"}]}]}"#)
        XCTAssertEqual(r.added, ["c3"])
        XCTAssertThrowsError(try s.change(#"{"ops":[{"op":"addConstraints","constraints":[{"id":"c1","expr":"w.height == 2"}]}]}"#)) {
            XCTAssertEqual(($0 as! LayoutError).pointer, "/ops/0/constraints/0/id")
        }
        XCTAssertThrowsError(try s.change(#"{"ops":[{"op":"addViews","views":[{"id":"w"}]}]}"#))
        XCTAssertThrowsError(try s.change(#"{"ops":[{"op":"addViews","views":[{"id":"a.b"}]}]}"#))
    }

    /// A stored entry that does not replay (the restore's journal ends before it) leaves the
    /// session at the revision it had, not at the one before the entry's: a merged set-constants
    /// entry carries its latest revision, so that one may lie far past the session's.
    func testAReplayRefusedLeavesTheRevisionAsItWas() throws {
        let s = session(#"{"views":[{"id":"v","frame":{"x":0,"y":0,"width":10,"height":10}},{"id":"w","parent":"v"}]}"#)
        s.restore(revision: 4, nextAutoID: 1)
        let unknown = try JSONParser.parse(#"{"ops":[{"op":"setConstant","id":"nope","constant":6}]}"#)
        XCTAssertThrowsError(try s.replay(changes: unknown, at: 9))
        XCTAssertEqual(s.revision, 4)
        XCTAssertThrowsError(try s.replay(constants: JSONParser.parse(#"{"nope": 6}"#), at: 12))
        XCTAssertEqual(s.revision, 4)
        try s.replay(changes: JSONParser.parse(#"{"ops":[{"op":"addConstraints","constraints":[{"expr":"w.width == 1"}]}]}"#), at: 5)
        XCTAssertEqual(s.revision, 5)
    }

    /// A server-given id is kept as its number while it fits in an entry, and as its name
    /// beyond: either way it reads, finds, changes and goes the same.
    func testServerIdsAcrossTheLargestNumberAnEntryHolds() throws {
        let s = session(#"{"views":[{"id":"v","frame":{"x":0,"y":0,"width":10,"height":10}},{"id":"w","parent":"v"}]}"#)
        s.restore(revision: 1, nextAutoID: Entry.maxNumber)
        let r = try s.change(#"{"ops":[{"op":"addConstraints","constraints":[{"expr":"w.width == 1"},{"expr":"w.height == 1"}]}]}"#)
        let (held, named) = ("c\(Entry.maxNumber)", "c\(Entry.maxNumber + 1)")
        XCTAssertEqual(r.added, [held, named])
        XCTAssertEqual(s.document.entryOrder, [held, named])
        _ = try s.change(#"{"ops":[{"op":"setConstant","id":"\#(held)","constant":4},{"op":"setConstant","id":"\#(named)","constant":6}]}"#)
        XCTAssertEqual(s.frame("w"), R(0, 0, 4, 6))
        _ = try s.change(#"{"ops":[{"op":"removeConstraints","ids":["\#(held)","\#(named)"]}]}"#)
        XCTAssertEqual(s.document.entryOrder, [])
        XCTAssertThrowsError(try s.change(#"{"ops":[{"op":"removeConstraints","ids":["\#(held)"]}]}"#))
    }

    /// A server-given id skips one a client gave, whether it came before or after it, in the
    /// document or in a later change; ids only like them (`c`, `cx`, `c.1`) take nothing.
    func testServerIdsSkipTheClientsOwn() throws {
        let s = session(
            #"{"views":[{"id":"v","frame":{"x":0,"y":0,"width":10,"height":10}},{"id":"w","parent":"v"}],"constraints":["#
                + #"{"id":"c","expr":"w.width == 1"},{"id":"cx","expr":"w.width == 1"},{"expr":"w.width == 1"},"#
                + #"{"id":"c3","expr":"w.height == 1"},{"expr":"w.height == 1"},{"expr":"w.height == 1"}]}"#)
        XCTAssertEqual(s.document.entryOrder, ["c", "cx", "c1", "c3", "c2", "c4"])
        let r = try s.change(
            #"{"ops":[{"op":"addConstraints","constraints":[{"id":"c6","expr":"w.height == 2"},{"expr":"w.height == 2"},{"expr":"w.height == 2"}]}]}"#
        )
        XCTAssertEqual(r.added, ["c6", "c5", "c7"])
        XCTAssertTrue(LayoutDocument.isAutoShaped("c0x"))
        for id in ["c", "cx", "c.1", "x1", "", "C1"] { XCTAssertFalse(LayoutDocument.isAutoShaped(id), id) }
    }

    /// A VFL group's members are named `id.k`: one a client gave first is refused, and ids
    /// only like them (`row`, `row.x`, `row.`) take nothing.
    func testAGroupsMemberNamesAreRefusedWhenTaken() throws {
        let views = #"{"views":[{"id":"v","frame":{"x":0,"y":0,"width":100,"height":10}},{"id":"a","parent":"v"},{"id":"b","parent":"v"}],"#
        XCTAssertThrowsError(
            try LayoutSession(document: json(views + #""constraints":[{"id":"g.1","expr":"a.width == 1"},{"id":"g","visual":"H:|[a]-[b]|"}]}"#))
        ) {
            XCTAssertEqual(($0 as? LayoutError)?.pointer, "/constraints/1/visual")
            XCTAssertEqual(($0 as? LayoutError)?.detail, "a constraint 'g.1' exists already")
        }
        // Errors are named in member order: a taken id before a later member's broken rule,
        // and a broken rule before a later member's taken id. (H:|[a]-[b(==zz)]|: 0 is a's
        // leading, 1 b's leading, 2 b's width, which names no view zz.)
        for (taken, detail) in [("g.0", "a constraint 'g.0' exists already"), ("g.2", "unknown view 'zz'")] {
            XCTAssertThrowsError(
                try LayoutSession(
                    document: json(views + #""constraints":[{"id":"\#(taken)","expr":"a.width == 1"},{"id":"g","visual":"H:|[a]-[b(==zz)]|"}]}"#))
            ) {
                XCTAssertEqual(($0 as? LayoutError)?.pointer, "/constraints/1/visual")
                XCTAssertEqual(($0 as? LayoutError)?.detail, detail)
            }
        }
        let s = session(views + #""constraints":[{"id":"g.x","expr":"a.width == 1"},{"id":"g","visual":"H:|[a]-[b]|"}]}"#)
        XCTAssertEqual(s.document.entryOrder, ["g.x", "g"])
        XCTAssertTrue(LayoutDocument.isMemberShaped("row.12"))
        for id in ["row", "row.x", "row.", "row.1x", "12"] { XCTAssertFalse(LayoutDocument.isMemberShaped(id), id) }
    }

    /// A kept session holds its records without the room its build reserved by estimate.
    func testACompactedSessionsRecordsHoldNoSpareRoom() throws {
        let views = (0..<100).map { #"{"id":"v\#($0)"\#($0 == 0 ? "" : #","parent":"v0""#)}"# }
        let constraints = (1..<100).map { #"{"expr":"v\#($0).width == 10"}"# }
        let s = session(#"{"views":["# + views.joined(separator: ",") + #"],"constraints":["# + constraints.joined(separator: ",") + "]}")
        XCTAssertGreaterThan(s.document.atoms.capacity, 2 * s.document.atoms.count, "a build reserves four atoms a view")
        s.compact()
        for (what, count, capacity) in [
            ("atoms", s.document.atoms.count, s.document.atoms.capacity), ("views", s.document.views.count, s.document.views.capacity),
            ("entries", s.document.entries.count, s.document.entries.capacity)
        ] {
            XCTAssertLessThanOrEqual(capacity, count + count / 32 + 16, what)
        }
        XCTAssertEqual(try s.change(#"{"ops":[{"op":"setConstant","id":"c1","constant":20}]}"#).frames.first?.frame.width, 20)
    }

    /// The server's ids are found by their number, ids clients give by name, and one client id
    /// shaped like the server's sends every later one to the table; removing and adding again
    /// finds the right one each time.
    func testServerIdsAreFoundByNumberAndClientIdsByName() throws {
        for (id, n) in [("c0", 0), ("c7", 7), ("c123456789", 123_456_789)] { XCTAssertEqual(LayoutDocument.autoNumber(id), n, id) }
        for id in ["", "c", "c01", "c00", "C1", "c1x", "c1234567890", "d1", "c-1", "cé"] { XCTAssertNil(LayoutDocument.autoNumber(id), id) }
        let s = session(
            #"{"views":[{"id":"r","frame":{"x":0,"y":0,"width":100,"height":100}},{"id":"a","parent":"r"}],"#
                + #""constraints":[{"expr":"a.width == 10"},{"expr":"a.height == 5"},{"expr":"a.left == r.left"}]}"#)
        XCTAssertEqual(s.document.autoEntries.filter { $0 != .noRef }.count, 3)
        XCTAssertEqual(try s.setConstants(json(#"{"c2": 7}"#)).frames.first?.frame.height, 7)
        _ = try s.change(#"{"ops":[{"op":"removeConstraints","ids":["c1"]}]}"#)
        XCTAssertNil(s.document.entryRef("c1"))
        let r = try s.change(
            #"{"ops":[{"op":"addConstraints","constraints":[{"id":"c1","expr":"a.width == 3"},{"id":"c05","expr":"a.top == r.top + 1"},{"expr":"a.width >= 1"}]}]}"#
        )
        XCTAssertEqual(r.added, ["c1", "c05", "c4"])
        XCTAssertEqual(s.frame("a"), R(0, 1, 3, 7))
        XCTAssertEqual(try s.setConstants(json(#"{"c1": 4, "c05": 2, "c3": 6}"#)).frames.first?.frame, R(6, 2, 4, 7))
        XCTAssertThrowsError(try s.change(#"{"ops":[{"op":"addConstraints","constraints":[{"id":"c4","expr":"a.width >= 2"}]}]}"#))
        _ = try s.change(#"{"ops":[{"op":"removeConstraints","ids":["c2","c05"]}]}"#)
        XCTAssertEqual(s.document.entryOrder, ["c3", "c1", "c4"])
        for id in ["c3", "c1", "c4"] { XCTAssertEqual(s.document.entryRef(id).map { s.document.entries[Int($0)].id }, id) }
    }

    func testNumberedNamesAreThePrefixAndTheDecimalDigits() {
        for (prefix, n) in [("c", 0), ("c", 7), ("c", 1_234_567), ("row.", 12), ("", -5), ("é.", Int.max), ("x", Int.min)] {
            XCTAssertEqual(LayoutDocument.numbered(prefix, n), "\(prefix)\(n)")
        }
    }

    /// A group's member name is taken while it lives; a view's own names (`v.frame.x`,
    /// `s.stack.0`) are refused whether or not that view has the constraint yet (a stack's
    /// are made after the document's, a frame comes with an update); any other dotted id is free.
    func testDerivedNamesAreTakenAndOtherDottedIdsAreFree() throws {
        let views = #"""
            {"views":[{"id":"v","frame":{"x":0,"y":0,"width":100,"height":10}},{"id":"a","parent":"v","intrinsicSize":{"width":5,"height":5}},
              {"id":"s","parent":"v","kind":"stack","stack":{"arrangedSubviews":["b"]}},{"id":"b","parent":"s"}],
            """#
        let constraints = #"{"id":"g","visual":"H:|[a]"},{"expr":"b.width == 1"}"#
        func refused(_ id: String) -> String {
            "'\(id)' is shaped like a name the server gives ('view.stack.0', 'view.frame.x'…): choose another id"
        }
        let cases = [
            ("v.frame.x", refused("v.frame.x")), ("v.frame.height", refused("v.frame.height")), ("a.hugging.h", refused("a.hugging.h")),
            ("a.compression.v", refused("a.compression.v")), ("a.frame.x", refused("a.frame.x")), ("s.stack.0", refused("s.stack.0")),
            ("b.stack.0", refused("b.stack.0")), ("s.stack.9", refused("s.stack.9")), ("s.stack", refused("s.stack")),
            ("g.0", "a constraint 'g.0' exists already")
        ]
        for (id, detail) in cases {
            XCTAssertThrowsError(
                try LayoutSession(document: json(views + #""constraints":["# + constraints + #",{"id":"\#(id)","expr":"a.height == 1"}]}"#)), id
            ) {
                XCTAssertEqual(($0 as? LayoutError)?.detail, detail, id)
                XCTAssertEqual(($0 as? LayoutError)?.pointer, "/constraints/2/id", id)
            }
        }
        let free = ["a.top", "v.frame", "a.hugging.x", "g.1", "g.01", "s.stack.", "s.stacked.0", "x.", ".", "g.0x"]
        let entries = free.map { #"{"id":"\#($0)","expr":"a.height >= 1"}"# }.joined(separator: ",")
        let s = session(views + #""constraints":["# + constraints + "," + entries + "]}")
        XCTAssertEqual(s.document.entryOrder, ["g", "c1"] + free)
        XCTAssertNotNil(s.document.atomNamed("g.0"))
        XCTAssertNotNil(s.document.atomNamed("s.stack.0"))
        XCTAssertNotNil(s.document.atomNamed("v.frame.width"))
        XCTAssertThrowsError(try s.change(#"{"ops":[{"op":"addConstraints","constraints":[{"id":"s.stack.0","expr":"a.height == 1"}]}]}"#)) {
            XCTAssertEqual(($0 as? LayoutError)?.detail, refused("s.stack.0"))
        }
    }

    func testRTLMirrorsLeadingAndTrailing() throws {
        let doc = { (dir: String) in
            """
            {"options":{"layoutDirection":"\(dir)"},"views":[{"id":"root","frame":{"x":0,"y":0,"width":200,"height":50}},{"id":"a","parent":"root"}],
             "constraints":[{"expr":"a.leading == root.leading + 10"},{"expr":"a.width == 30"},{"expr":"a.top == root.top"},{"expr":"a.height == 5"}]}
            """
        }
        XCTAssertEqual(session(doc("ltr")).frame("a"), R(10, 0, 30, 5))
        let rtl = session(doc("rtl"))
        XCTAssertEqual(rtl.frame("a"), R(160, 0, 30, 5))
        let back = try rtl.change(#"{"ops":[{"op":"setOptions","options":{"layoutDirection":"ltr"}}]}"#)
        XCTAssertEqual(back.frames.map(\.frame), [R(10, 0, 30, 5)])
        let vfl = session(
            #"{"options":{"layoutDirection":"rtl"},"views":[{"id":"root","frame":{"x":0,"y":0,"width":200,"height":50}},{"id":"a","parent":"root","intrinsicSize":{"width":30,"height":5}},{"id":"b","parent":"root","intrinsicSize":{"width":40,"height":5}}],"constraints":[{"visual":"H:|-10-[a]-5-[b]"},{"visual":"V:|[a]"},{"visual":"V:|[b]"}]}"#
        )
        XCTAssertEqual(vfl.frame("a"), R(160, 0, 30, 5))
        XCTAssertEqual(vfl.frame("b"), R(115, 0, 40, 5))
    }

    func testCommonAncestorSpaceWithMultiplier() {
        let s = session(
            #"{"views":[{"id":"p","frame":{"x":100,"y":0,"width":200,"height":100}},{"id":"c","parent":"p"}],"constraints":[{"expr":"c.centerX == 0.5 * p.centerX"},{"expr":"c.width == 20"},{"expr":"c.top == p.top"},{"expr":"c.height == 20"}]}"#
        )
        XCTAssertEqual(s.frame("c"), R(40, 0, 20, 20), "center at a quarter of the parent's width")
        // Cousins: evaluated in the grandparent's space.
        let t = session(
            #"{"views":[{"id":"g","frame":{"x":0,"y":0,"width":300,"height":100}},{"id":"p1","parent":"g","frame":{"x":10,"y":0,"width":100,"height":100}},{"id":"p2","parent":"g","frame":{"x":150,"y":0,"width":100,"height":100}},{"id":"a","parent":"p1"},{"id":"b","parent":"p2"}],"constraints":[{"expr":"a.left == p1.left + 5"},{"expr":"b.left == a.right + 10"},{"expr":"a.width == 20"},{"expr":"b.width == 20"},{"expr":"a.top == p1.top"},{"expr":"b.top == p2.top"},{"expr":"a.height == 1"},{"expr":"b.height == 1"}]}"#
        )
        XCTAssertEqual(t.frame("b"), R(-105, 0, 20, 1), "10+5+20+10 = 45 in g, minus p2's 150")
    }

    func testScaleRounding() {
        let s = session(
            #"{"options":{"scale":2},"views":[{"id":"r","frame":{"x":0,"y":0,"width":100,"height":100}},{"id":"v","parent":"r"}],"constraints":[{"expr":"v.left == r.left + 10.3"},{"expr":"v.width == 10.25"},{"expr":"v.top == r.top - 0.25"},{"expr":"v.height == 1.74"}]}"#
        )
        // Edges to pixels: left 10.3 → 10.5, right 20.55 → 20.5; top -0.25 → -0.5, bottom 1.49 → 1.5.
        XCTAssertEqual(s.frame("v"), R(10.5, -0.5, 10, 2))
        // Three equal columns of 460 / 3 points at scale 2 stay contiguous, as UIKit rounds them.
        let c = session(
            """
            {"options":{"scale":2},"views":[{"id":"r","frame":{"x":0,"y":0,"width":460,"height":10}},{"id":"a","parent":"r"},{"id":"b","parent":"r"},{"id":"c","parent":"r"}],
             "constraints":[{"expr":"a.left == r.left"},{"expr":"b.left == a.right"},{"expr":"c.left == b.right"},{"expr":"c.right == r.right"},
                            {"expr":"b.width == a.width"},{"expr":"c.width == a.width"},{"expr":"a.top == r.top"},{"expr":"b.top == r.top"},{"expr":"c.top == r.top"},
                            {"expr":"a.height == 10"},{"expr":"b.height == 10"},{"expr":"c.height == 10"}]}
            """)
        let (a, b, cc) = (c.frame("a")!, c.frame("b")!, c.frame("c")!)
        XCTAssertEqual(a.x + a.width, b.x)
        XCTAssertEqual(b.x + b.width, cc.x)
        XCTAssertEqual(cc.x + cc.width, 460)
        XCTAssertEqual([a.width, b.width, cc.width].sorted(), [153, 153.5, 153.5])
        // A value within float noise of a half pixel is the half: it rounds away from zero.
        let t = session(
            #"{"options":{"scale":2},"views":[{"id":"r","frame":{"x":0,"y":0,"width":100,"height":100}},{"id":"v","parent":"r"}],"constraints":[{"expr":"v.left == r.left + 0.35 - 0.1"},{"expr":"v.width == 0.75"},{"expr":"v.top == r.top"},{"expr":"v.height == 1"}]}"#
        )
        XCTAssertEqual(t.frame("v"), R(0.5, 0, 0.5, 1))
    }

    func testMarginsBaselinesInsetsAndIntrinsicSize() {
        let s = session(
            """
            {"views":[{"id":"r","frame":{"x":0,"y":0,"width":300,"height":100},"margins":{"left":16,"top":4}},
                      {"id":"label","parent":"r","intrinsicSize":{"width":80,"height":20},"baseline":{"first":15,"last":15},"alignmentInsets":{"left":2,"top":1,"bottom":1,"right":2}},
                      {"id":"field","parent":"r","intrinsicSize":{"width":100,"height":30},"baseline":{"first":20,"last":20}},
                      {"id":"g","parent":"r","kind":"guide"}],
             "constraints":[{"expr":"label.leading == r.leadingMargin"},{"expr":"label.top == r.topMargin"},
                            {"expr":"field.leading == label.trailing + 8"},{"expr":"field.firstBaseline == label.firstBaseline"},
                            {"expr":"g.left == r.left"},{"expr":"g.top == r.top"},{"expr":"g.width == r.width"},{"expr":"g.height == 0"}]}
            """)
        // label's alignment rect starts at the 16 margin: frame x = 16 - 2; its intrinsic size is the alignment rect's.
        XCTAssertEqual(s.frame("label"), R(14, 3, 84, 22))
        XCTAssertEqual(s.frame("field"), R(104, -1, 100, 30), "baselines: label 3+1+15 = 19 = field.y + 20")
        XCTAssertEqual(s.frame("g"), R(0, 0, 300, 0))
        XCTAssertEqual(s.diagnostics(), [])
    }

    func testExplainAndTrace() throws {
        let s = session(card)
        let ex = try s.explain(view: "avatar", axis: .horizontal)
        // The two that decide it, then those naming it on the axis that decide other views (v1.1: every one, with its role).
        XCTAssertEqual(ex.filter { $0.role == .determining }.map(\.id), ["avatarLeading", "avatarWidth"])
        XCTAssertEqual(ex.map(\.id), ["avatarLeading", "avatarWidth", "c1", "row.0", "c3"])
        XCTAssertEqual(Set(ex.dropFirst(2).map(\.role)), [.satisfied])
        XCTAssertEqual(ex[0].description, "avatar.leading == card.leading + 8")
        let tr = s.trace()
        XCTAssertTrue(tr.hasPrefix("•card (0, 0, 375, 120)\n    |avatar (8, 8, 40, 40)\n        |badge (30, 0, 10, 10)\n"), tr)
        XCTAssertThrowsError(try s.explain(view: "nope", axis: .vertical))
    }

    func testUpdateViewFrameAndHugging() throws {
        let s = session(card)
        let r = try s.change(
            #"{"ops":[{"op":"updateView","id":"card","frame":{"x":5,"y":5,"width":200,"height":60}},{"op":"updateView","id":"title","intrinsicSize":{"width":300,"height":20}}]}"#
        )
        XCTAssertEqual(r.frames.map(\.id), ["card", "title"])
        XCTAssertEqual(s.frame("title"), R(60, 18, 132, 20), "compressed to fit: 200 - 8 - 60")
        let r2 = try s.change(#"{"ops":[{"op":"updateView","id":"card","frame":null}]}"#)
        XCTAssertTrue(ambiguous(r2.diagnostics).contains("card.horizontal"))
        XCTAssertThrowsError(try s.change(#"{"ops":[{"op":"updateView","id":"title","parent":"avatar"}]}"#))
    }

    func testOneShotAndLimits() throws {
        // A one-shot layout (`POST /v1/layout`) is a session made, read and dropped.
        let out = try LayoutSession.make(document: json(card))
        XCTAssertEqual(out.allFrames.count, 4)
        XCTAssertThrowsError(try LayoutSession(document: json(card), limits: SessionLimits(maxViews: 3))) {
            XCTAssertEqual(($0 as! LayoutError).kind, .limit)
        }
    }

    /// A chain of conflicts, each unit's width 2 past the one before and every width the
    /// root's: the first listed breaks, so each broken width is explained by the chain after
    /// it. Past `maxConflictsListed` a set lists the broken one and the first others, and
    /// counts the rest: the answer stays linear in the document.
    func testALongConflictingSetListsTheFirstAndCountsTheRest() throws {
        let n = 40
        var views = [#"{"id":"root","frame":{"x":0,"y":0,"width":375,"height":1000}}"#], constraints: [String] = []
        for i in 0..<n {
            views.append(#"{"id":"c\#(i)","parent":"root"}"#)
            constraints.append(#"{"id":"w\#(i)","expr":"c\#(i).width == root.width"}"#)
            constraints += [
                #"{"expr":"c\#(i).top == root.top + \#(i * 10)"}"#, #"{"expr":"c\#(i).height == 4"}"#, #"{"expr":"c\#(i).leading == root.leading"}"#
            ]
            if i > 0 { constraints.append(#"{"id":"p\#(i)","expr":"c\#(i).width == c\#(i - 1).width + 2"}"#) }
        }
        let doc = json(#"{"views":[\#(views.joined(separator: ","))],"constraints":[\#(constraints.joined(separator: ","))]}"#)
        let full = unsatisfiable(try LayoutSession(document: doc).diagnostics())
        var limits = SessionLimits()
        limits.maxConflictsListed = 8
        let short = try LayoutSession(document: doc, limits: limits).diagnostics()
        XCTAssertEqual(full.count, n - 1)
        XCTAssertEqual(full.first?.0, "w0")
        XCTAssertEqual(full.first?.1.count, n + 1, "w0 is explained by every p and the last width")
        var omittedSeen = 0
        for (d, (broken, set)) in zip(short, full) {
            guard case let .unsatisfiable(c, listed, omitted) = d else { return XCTFail("\(d)") }
            XCTAssertEqual(c, broken)
            XCTAssertTrue(listed.contains(c))
            XCTAssertLessThanOrEqual(listed.count, 8)
            XCTAssertEqual(listed.count + omitted, set.count)
            XCTAssertEqual(listed.filter { $0 != c }, Array(set.filter { $0 != c }.prefix(listed.count - 1)))
            if omitted > 0 { XCTAssertTrue(d.message.hasSuffix("and \(omitted) more; remove one of them or lower a priority below 1000.")) }
            omittedSeen += omitted
        }
        XCTAssertGreaterThan(omittedSeen, 0)
    }
}
