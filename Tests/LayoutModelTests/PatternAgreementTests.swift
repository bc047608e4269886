import XCTest
import TestSupport
import JSON
@testable import ConstraintSolver
@testable import LayoutModel

/// The engines on small feeds written the ways real screens write them (`Benchmarks/growth/
/// families.py`): self-sizing cells compressed at 50 or 250, cells pinned at 750, cells
/// nothing sizes, rows of stacks of every alignment and distribution, all chained top to
/// bottom. After the build and after each random change: the two engines agree (ambiguous
/// views, broken count, every other frame), and the factored session agrees with a fresh
/// factored build of the document it now holds.
final class PatternAgreementTests: XCTestCase {
    static let alignments = ["fill", "top", "center", "bottom", "firstBaseline", "lastBaseline"]
    static let distributions = ["fill", "fillEqually", "fillProportionally", "equalSpacing", "equalCentering"]

    /// A feed of 1 to 4 cells, and the ids of the constraints a change may touch.
    static func feed(_ rng: inout LCG) -> (views: [String], constraints: [String], cells: Int) {
        let n = Int.random(in: 1...4, using: &rng)
        var views = [#"{"id":"root","frame":{"x":0,"y":0,"width":320,"height":2000}}"#], cons: [String] = []
        func size(_ w: ClosedRange<Int>, _ h: ClosedRange<Int>) -> String {
            #""intrinsicSize":{"width":\#(Int.random(in: w, using: &rng)),"height":\#(Int.random(in: h, using: &rng))}"#
        }
        for i in 0..<n {
            let c = "cell\(i)"
            let top = i == 0 ? "root.top" : "cell\(i - 1).bottom"
            cons.append(#"{"id":"\#(c).top","expr":"\#(c).top == \#(top) + \#(Int.random(in: 0...8, using: &rng))"}"#)
            cons.append(#"{"expr":"\#(c).leading == root.leading"}"#)
            cons.append(#"{"expr":"\#(c).width == root.width"}"#)
            if Int.random(in: 0..<2, using: &rng) == 0 {
                // A stack row: the avatar and a column of two labels.
                let align = alignments.randomElement(using: &rng)!, dist = distributions.randomElement(using: &rng)!
                views.append(
                    #"{"id":"\#(c)","parent":"root","kind":"stack","stack":{"axis":"horizontal","alignment":"\#(align)","distribution":"\#(dist)","spacing":\#(Int.random(in: 0...12, using: &rng)),"arrangedSubviews":["a\#(i)","col\#(i)"]}}"#
                )
                views.append(#"{"id":"a\#(i)","parent":"\#(c)",\#(size(20...50, 20...50)),"baseline":{"first":20,"last":24}}"#)
                views.append(
                    #"{"id":"col\#(i)","parent":"\#(c)","kind":"stack","stack":{"axis":"vertical","spacing":4,"alignment":"\#(["leading", "fill", "center"].randomElement(using: &rng)!)","arrangedSubviews":["t\#(i)","s\#(i)"]}}"#
                )
                views.append(#"{"id":"t\#(i)","parent":"col\#(i)",\#(size(40...200, 10...30))}"#)
                views.append(#"{"id":"s\#(i)","parent":"col\#(i)",\#(size(40...200, 10...30))}"#)
                continue
            }
            views.append(#"{"id":"\#(c)","parent":"root"}"#)
            views.append(#"{"id":"a\#(i)","parent":"\#(c)"}"#)
            views.append(#"{"id":"t\#(i)","parent":"\#(c)",\#(size(40...200, 10...30))}"#)
            views.append(#"{"id":"s\#(i)","parent":"\#(c)",\#(size(40...200, 10...30))}"#)
            for e in [
                "a\(i).leading == \(c).leading + 12", "a\(i).top == \(c).top + 12", "a\(i).width == 40", "a\(i).height == 40",
                "t\(i).leading == a\(i).trailing + 12", "t\(i).top == \(c).top + 12", "t\(i).trailing <= \(c).trailing - 12",
                "s\(i).leading == t\(i).leading", "s\(i).top == t\(i).bottom + 4", "s\(i).trailing <= \(c).trailing - 12"
            ] {
                cons.append(#"{"expr":"\#(e)"}"#)
            }
            let fits = [#"{"expr":"\#(c).bottom >= a\#(i).bottom + 12"}"#, #"{"expr":"\#(c).bottom >= s\#(i).bottom + 12"}"#]
            switch Int.random(in: 0..<4, using: &rng) {
            case 0: cons += fits + [#"{"id":"\#(c).fit","expr":"\#(c).height == 0 @50"}"#]
            case 1: cons += fits + [#"{"id":"\#(c).fit","expr":"\#(c).height == 0 @250"}"#]
            case 2: cons += fits + [#"{"id":"\#(c).fit","expr":"\#(c).bottom == s\#(i).bottom + 12 @750"}"#]
            default: break  // nothing sizes it: ambiguous, and everything below it
            }
        }
        return (views, cons, n)
    }

    func outcome(_ s: LayoutSession, _ diagnostics: [Diagnostic]) -> EngineAgreementTests.Outcome {
        EngineAgreementTests.outcome(s, diagnostics)
    }

    func testEnginesAgreeOnFeedsOfEveryPattern() throws {
        var rng = LCG(state: 4711)
        var compared = 0, peeled = 0, disagreements: [String] = []
        for round in 0..<150 {
            let (views, cons, n) = Self.feed(&rng)
            let doc = #"{"views":[\#(views.joined(separator: ","))],"constraints":[\#(cons.joined(separator: ","))]}"#
            let solved = try LayoutSession(document: JSONParser.parse(doc), limits: SessionLimits(engine: .solved))
            let factored = try LayoutSession(document: JSONParser.parse(doc), limits: SessionLimits(engine: .factored))
            if let f = factored.solver as? FactoredSolver, f.dependents.count > 0 { peeled += 1 }
            func compare(_ a: EngineAgreementTests.Outcome, _ b: EngineAgreementTests.Outcome, _ what: String) {
                var (a, b) = (a, b)
                if a.broken > 0 || b.broken > 0 { (a.frames, b.frames, a.ambiguous, b.ambiguous) = ([:], [:], [], []) }
                if a != b { disagreements.append("round \(round) \(what): \(a) vs \(b)\n\(doc)") }
                compared += 1
            }
            compare(outcome(solved, solved.diagnostics()), outcome(factored, factored.diagnostics()), "build")
            var rev = 1
            for step in 0..<4 {
                let i = Int.random(in: 0..<n, using: &rng)
                let body: String
                switch Int.random(in: 0..<4, using: &rng) {
                case 0:
                    let k = Int.random(in: 0...30, using: &rng)
                    body = #"{"baseRevision":\#(rev),"ops":[{"op":"setConstant","id":"cell\#(i).top","constant":\#(k)}]}"#
                case 1:
                    body =
                        #"{"baseRevision":\#(rev),"ops":[{"op":"updateView","id":"s\#(i)","intrinsicSize":{"width":\#(Int.random(in: 40...200, using: &rng)),"height":\#(Int.random(in: 10...60, using: &rng))}}]}"#
                case 2:
                    // A bound on a position: what it hangs from goes back in the basis.
                    body =
                        #"{"baseRevision":\#(rev),"ops":[{"op":"addConstraints","constraints":[{"id":"b\#(step)","expr":"cell\#(i).top <= root.top + \#(Int.random(in: 0...300, using: &rng)) @500"}]}]}"#
                default:
                    body = #"{"baseRevision":\#(rev),"ops":[{"op":"updateView","id":"a\#(i)","hidden":\#(Bool.random(using: &rng))}]}"#
                }
                let ra = try solved.apply(changes: JSONParser.parse(body)), rb = try factored.apply(changes: JSONParser.parse(body))
                rev += 1
                compare(outcome(solved, ra.diagnostics), outcome(factored, rb.diagnostics), "step \(step) \(body)")
                // The session as changed equals a session built from the document it holds.
                let fresh = try LayoutSession(document: factored.document.json, limits: SessionLimits(engine: .factored))
                compare(outcome(factored, factored.diagnostics()), outcome(fresh, fresh.diagnostics()), "step \(step) against a fresh build")
            }
        }
        XCTAssertEqual(disagreements.count, 0, disagreements.prefix(3).joined(separator: "\n\n"))
        XCTAssertEqual(compared, 150 * 9)
        XCTAssertGreaterThan(peeled, 120, "the feeds' positions are dependents")
    }
}
