import XCTest
import TestSupport
import JSON
@testable import ConstraintSolver
@testable import LayoutModel

/// The two engines on the same random documents: the same ambiguous views and axes, the
/// same number of broken constraints, and the same frames for every view that is not
/// ambiguous, after the build and after random set-constants and changes.
final class EngineAgreementTests: XCTestCase {

    static let locations = ["left", "right", "centerX"], sizes = ["width", "height"], vertical = ["top", "bottom", "centerY"]

    func randomDocument(_ rng: inout LCG) -> (String, [String]) {
        let n = Int.random(in: 2...5, using: &rng)
        var views = [#"{"id":"root","frame":{"x":0,"y":0,"width":400,"height":300}}"#]
        for i in 0..<n {
            let intrinsic =
                Bool.random(using: &rng)
                ? #","intrinsicSize":{"width":\#(Int.random(in: 10...80, using: &rng)),"height":\#(Int.random(in: 10...40, using: &rng))}"# : ""
            views.append(#"{"id":"v\#(i)","parent":"root"\#(intrinsic)}"#)
        }
        var constraints: [String] = [], ids: [String] = []
        for k in 0..<Int.random(in: 2...(3 * n + 2), using: &rng) {
            let a = "v\(Int.random(in: 0..<n, using: &rng))"
            let b = Bool.random(using: &rng) ? "root" : "v\(Int.random(in: 0..<n, using: &rng))"
            let rel = ["==", "<=", ">="].randomElement(using: &rng)!
            let priority = [1000, 1000, 1000, 750, 500, 250].randomElement(using: &rng)!
            let c = Int.random(in: -20...60, using: &rng)
            let expr: String
            switch Int.random(in: 0..<3, using: &rng) {
            case 0:
                let attr = Self.locations.randomElement(using: &rng)!
                expr = "\(a).\(attr) \(rel) \(b).\(Self.locations.randomElement(using: &rng)!) + \(c)"
            case 1:
                let attr = Self.vertical.randomElement(using: &rng)!
                expr = "\(a).\(attr) \(rel) \(b).\(Self.vertical.randomElement(using: &rng)!) + \(c)"
            default:
                expr =
                    Bool.random(using: &rng)
                    ? "\(a).\(Self.sizes.randomElement(using: &rng)!) \(rel) \(abs(c) + 5)"
                    : "\(a).width \(rel) \(b).width + \(c)"
            }
            ids.append("k\(k)")
            constraints.append(#"{"id":"k\#(k)","expr":"\#(expr) @\#(priority)"}"#)
        }
        return (#"{"views":[\#(views.joined(separator: ","))],"constraints":[\#(constraints.joined(separator: ","))]}"#, ids)
    }

    struct Outcome: Equatable {
        var ambiguous: Set<String>
        var broken: Int
        var frames: [String: Rect]
    }

    static func outcome(_ s: LayoutSession, _ diagnostics: [Diagnostic]) -> Outcome {
        var ambiguous = Set<String>(), broken = 0
        for d in diagnostics {
            switch d {
            case .ambiguous(let view, let axis): ambiguous.insert("\(view).\(axis)")
            case .unsatisfiable: broken += 1
            default: break
            }
        }
        var frames: [String: Rect] = [:]
        // To a millionth of a point: the engines order their arithmetic differently, and shares
        // of a fitted size (not integral) can differ in the last bit.
        func r(_ x: Double) -> Double { (x * 1e6).rounded() / 1e6 }
        for f in s.allFrames where !ambiguous.contains("\(f.id).horizontal") && !ambiguous.contains("\(f.id).vertical") {
            frames[f.id] = Rect(x: r(f.frame.x), y: r(f.frame.y), width: r(f.frame.width), height: r(f.frame.height))
        }
        return Outcome(ambiguous: ambiguous, broken: broken, frames: frames)
    }

    func testEnginesAgreeOnRandomDocuments() throws {
        var rng = LCG(state: 2026)
        var compared = 0, disagreements: [String] = []
        for round in 0..<400 {
            let (doc, ids) = randomDocument(&rng)
            let json = try JSONParser.parse(doc)
            let solved = try LayoutSession(document: json, limits: SessionLimits(engine: .solved))
            let factored = try LayoutSession(document: json, limits: SessionLimits(engine: .factored))
            var a = Self.outcome(solved, solved.diagnostics()), b = Self.outcome(factored, factored.diagnostics())
            // With a broken constraint, which one breaks may differ, and so what follows from
            // it: compare only the count.
            if a.broken > 0 || b.broken > 0 { a.frames = [:]; b.frames = [:]; a.ambiguous = []; b.ambiguous = [] }
            if a != b { disagreements.append("round \(round) build: \(a) vs \(b)\n\(doc)") }
            compared += 1
            for _ in 0..<3 {
                let id = ids.randomElement(using: &rng)!
                let body = try JSONParser.parse(#"{"\#(id)": \#(Int.random(in: -30...90, using: &rng))}"#)
                let ra = try solved.setConstants(body), rb = try factored.setConstants(body)
                var a = Self.outcome(solved, ra.diagnostics), b = Self.outcome(factored, rb.diagnostics)
                if a.broken > 0 || b.broken > 0 { a.frames = [:]; b.frames = [:]; a.ambiguous = []; b.ambiguous = [] }
                if a != b { disagreements.append("round \(round) set-constant \(id): \(a) vs \(b)\n\(doc)") }
                compared += 1
            }
        }
        XCTAssertEqual(disagreements.count, 0, disagreements.prefix(3).joined(separator: "\n\n"))
        XCTAssertEqual(compared, 1600)
    }

    /// A session is compacted as the server keeps it, then answers its creation (frames and
    /// diagnostics): what the compaction dropped stays dropped (the diagnostics made after
    /// it made the engine's column lists again, 270 bytes a view of a 1,000-cell feed).
    func testACreatedSessionAnswersWithoutUndoingItsCompaction() throws {
        var rng = LCG(state: 907)
        for round in 0..<20 {
            let (doc, _) = randomDocument(&rng)
            let s = try LayoutSession.make(document: JSONParser.parse(doc), limits: SessionLimits(engine: .factored))
            s.compact()
            _ = (s.allFrames, s.diagnostics())
            let engine = try XCTUnwrap(s.solver as? FactoredSolver)
            XCTAssertFalse(engine.columnListsMade, "round \(round)")
        }
    }

    /// A kept session is compacted after its build (`compact`: packed levels, no L by row, no
    /// column lists until a change needs them): it answers every later change exactly as a
    /// session that was not, frames and diagnostics bit for bit.
    func testACompactedSessionAnswersExactlyAsOneThatWasNot() throws {
        var rng = LCG(state: 2511)
        var changes = 0
        for round in 0..<150 {
            let (doc, ids) = randomDocument(&rng)
            let json = try JSONParser.parse(doc)
            let kept = try LayoutSession(document: json, limits: SessionLimits(engine: .factored))
            let plain = try LayoutSession(document: json, limits: SessionLimits(engine: .factored))
            kept.compact()
            var live = ids
            for step in 0..<6 {
                let id = live.randomElement(using: &rng)!
                let body: String
                switch Int.random(in: 0..<4, using: &rng) {
                case 0 where live.count > 1:
                    body = #"{"ops":[{"op":"removeConstraints","ids":["\#(id)"]}]}"#
                    live.removeAll { $0 == id }
                case 1:
                    let extra = "x\(step)"
                    body =
                        #"{"ops":[{"op":"addConstraints","constraints":[{"id":"\#(extra)","expr":"v0.width >= \#(Int.random(in: 5...50, using: &rng)) @750"}]}]}"#
                    live.append(extra)
                default:
                    body = #"{"ops":[{"op":"setConstant","id":"\#(id)","constant":\#(Int.random(in: -30...90, using: &rng))}]}"#
                }
                let a = try kept.apply(changes: JSONParser.parse(body)), b = try plain.apply(changes: JSONParser.parse(body))
                XCTAssertEqual(a.frames.map(\.frame), b.frames.map(\.frame), "round \(round) step \(step): \(body)")
                XCTAssertEqual("\(a.diagnostics)", "\(b.diagnostics)", "round \(round) step \(step)")
                XCTAssertEqual(kept.allFrames.map(\.frame), plain.allFrames.map(\.frame), "round \(round) step \(step)")
                if step == 2 { kept.compact(); plain.compact() }  // compacted again after changes: still alike
                changes += 1
            }
        }
        XCTAssertEqual(changes, 900)
    }

    /// Exercising ambiguity finds another valid layout on either engine: Saturn and its ring
    /// move together, the ring still centred on Saturn, and nothing is kept. (The factored
    /// engine followed a free column both ways, which cancelled out: an empty answer.)
    func testExerciseAmbiguityMovesTheAmbiguousViewsOnBothEngines() throws {
        let doc =
            #"{"views":[{"id":"space","frame":{"x":0,"y":0,"width":320,"height":320}},{"id":"saturn","parent":"space"},{"id":"ring","parent":"space"}],"constraints":[{"expr":"saturn.width == 120"},{"expr":"saturn.height == saturn.width"},{"expr":"saturn.centerX == space.centerX"},{"expr":"ring.width == saturn.width + 80"},{"expr":"ring.height == 24"},{"expr":"ring.centerX == saturn.centerX"},{"expr":"ring.centerY == saturn.centerY"}]}"#
        for engine in EngineKind.allCases {
            let s = try LayoutSession(document: json(doc), limits: SessionLimits(engine: engine))
            let before = s.allFrames
            let other = Dictionary(uniqueKeysWithValues: s.exerciseAmbiguity().map { ($0.id, $0.frame) })
            XCTAssertEqual(Set(other.keys), ["saturn", "ring"], "\(engine)")
            guard let saturn = other["saturn"], let ring = other["ring"] else { continue }
            XCTAssertNotEqual(saturn.y, s.frame("saturn")!.y, "\(engine)")
            XCTAssertEqual(ring.y + ring.height / 2, saturn.y + saturn.height / 2, accuracy: 1e-9, "\(engine)")
            XCTAssertEqual(s.allFrames, before, "\(engine): nothing kept")
        }
    }

    /// `--engine auto`: the solved form for small documents, the factored basis from the threshold on.
    /// Cells that each ask priorities of their own (two optional widths a cell at distinct
    /// levels, the cells chained): 300 levels, past what keeps the factored engine's level
    /// vectors dense. The engines agree, after the build and after set-constants.
    func testEnginesAgreeWhenEveryCellHasLevelsOfItsOwn() throws {
        let n = 150
        var views = [#"{"id":"root","frame":{"x":0,"y":0,"width":375,"height":100000}}"#]
        var constraints: [String] = []
        for i in 0..<n {
            views.append(#"{"id":"c\#(i)","parent":"root"}"#)
            let top = i == 0 ? "root.top" : "c\(i - 1).bottom"
            constraints += [
                #"{"expr":"c\#(i).top == \#(top) + 4"}"#, #"{"expr":"c\#(i).leading == root.leading"}"#,
                #"{"expr":"c\#(i).height == 20"}"#,
                #"{"id":"low\#(i)","expr":"c\#(i).width >= \#(120 + i % 7) @\#(999 - i)"}"#,
                #"{"id":"high\#(i)","expr":"c\#(i).width <= \#(100 + i % 11) @\#(998 - i)"}"#,
                #"{"expr":"c\#(i).width == c\#(max(0, i - 1)).width @\#(700 - i)"}"#
            ]
        }
        let doc = json(#"{"views":[\#(views.joined(separator: ","))],"constraints":[\#(constraints.joined(separator: ","))]}"#)
        let solved = try LayoutSession(document: doc, limits: SessionLimits(engine: .solved))
        let factored = try LayoutSession(document: doc, limits: SessionLimits(engine: .factored))
        XCTAssertEqual(Self.outcome(solved, solved.diagnostics()), Self.outcome(factored, factored.diagnostics()))
        XCTAssertEqual(factored.allFrames.first { $0.id == "c5" }?.frame.width, 125)  // `>= 125 @994` over `<= 105 @993`
        var rng = LCG(state: 600)
        for _ in 0..<10 {
            let i = Int.random(in: 0..<n, using: &rng)
            let body = json(#"{"low\#(i)": \#(Int.random(in: 60...160, using: &rng))}"#)
            let ra = try solved.setConstants(body), rb = try factored.setConstants(body)
            XCTAssertEqual(Self.outcome(solved, ra.diagnostics), Self.outcome(factored, rb.diagnostics), "low\(i)")
        }
    }

    func testLargeDocumentsTakeTheFactoredBasis() throws {
        func doc(_ n: Int) -> JSON {
            let views = (0..<n).map { #"{"id":"v\#($0)","intrinsicSize":{"width":10,"height":10}}"# }.joined(separator: ",")
            return json(#"{"views":[\#(views)]}"#)
        }
        let auto = SessionLimits(engine: .solved, factoredFromViews: 128)
        XCTAssertEqual(try LayoutSession(document: doc(127), limits: auto).engineKind, .solved)
        XCTAssertEqual(try LayoutSession(document: doc(128), limits: auto).engineKind, .factored)
        XCTAssertEqual(try LayoutSession(document: doc(500), limits: SessionLimits(engine: .solved, factoredFromViews: nil)).engineKind, .solved)
        XCTAssertEqual(try LayoutSession(document: doc(5), limits: SessionLimits(engine: .factored, factoredFromViews: 128)).engineKind, .factored)
        // Few views and many constraints (here at odds, which the solved form explains one by
        // one): the factored basis from 8 constraints a threshold view.
        func odds(_ n: Int) -> JSON {
            let cs = (0..<n).map { #"{"expr":"v.width >= \#(41 + $0)"}"# }.joined(separator: ",")
            return json(#"{"views":[{"id":"v","frame":{"x":0,"y":0,"width":40,"height":10}}],"constraints":[\#(cs)]}"#)
        }
        XCTAssertEqual(try LayoutSession(document: odds(100), limits: auto).engineKind, .solved)
        XCTAssertEqual(try LayoutSession(document: odds(1_100), limits: auto).engineKind, .factored)
    }

    /// A session on the solved form that a change grows past `--engine auto`'s threshold is
    /// built again on the factored basis: its frames a new session's of the same document,
    /// every frame in the answer, and `frames?since=` whole for the revisions before.
    func testASessionGrownPastTheThresholdMovesToTheFactoredBasis() throws {
        let auto = SessionLimits(engine: .solved, factoredFromViews: 128)
        let s = try LayoutSession(
            document: json(#"{"views":[{"id":"root","frame":{"x":0,"y":0,"width":320,"height":10000}}],"constraints":[]}"#), limits: auto)
        XCTAssertEqual(s.engineKind, .solved)
        let views = (0..<200).map { #"{"id":"v\#($0)","parent":"root","intrinsicSize":{"width":\#(50 + $0 % 7),"height":20}}"# }
        let constraints = (0..<200).map { i in
            #"{"expr":"v\#(i).top == \#(i == 0 ? "root.top" : "v\(i - 1).bottom") + 2"},{"expr":"v\#(i).left == root.left"}"#
        }
        let change = json(
            #"{"ops":[{"op":"addViews","views":[\#(views.joined(separator: ","))]},"#
                + #"{"op":"addConstraints","constraints":[\#(constraints.joined(separator: ","))]}]}"#)
        let result = try s.apply(changes: change)
        XCTAssertEqual(s.engineKind, .factored)
        XCTAssertEqual(result.revision, 2)
        XCTAssertEqual(result.frames.count, 201, "every frame")
        XCTAssertEqual(result.added.count, 400)
        XCTAssertEqual(s.frame("v199")?.y, 199 * 22 + 2)
        let fresh = try LayoutSession(document: s.document.json, limits: auto)
        XCTAssertEqual(fresh.engineKind, .factored)
        XCTAssertEqual(s.allFrames, fresh.allFrames)
        XCTAssertTrue(try s.frames(since: 1).full)
        XCTAssertFalse(try s.frames(since: 2).full)
        // It goes on taking changes on its new engine.
        let moved = try s.apply(changes: json(#"{"ops":[{"op":"updateView","id":"v0","intrinsicSize":{"width":50,"height":30}}]}"#))
        XCTAssertEqual(moved.revision, 3)
        XCTAssertEqual(s.frame("v199")?.y, 199 * 22 + 12)
        XCTAssertEqual(moved.frames.count, 200, "v0 grew, the 199 below moved")
    }
}
