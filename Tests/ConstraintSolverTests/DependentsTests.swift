import XCTest
import TestSupport
@testable import ConstraintSolver

/// Systems shaped like feeds of cells, where the positions a chain defines are dependents
/// (`FactoredSolver+Dependents`): checked against the dense lexicographic reference after a
/// batch build and after every random operation (set-constants on dependent and basis rows,
/// removals that leave a position defined by nothing, adds and priority changes that name a
/// dependent), values, changed sets and ambiguity alike.
final class DependentsTests: XCTestCase {

    /// k cells: a chain of positions yᵢ = yᵢ₋₁ + hᵢ₋₁ + gap (y₀ = top; a link now and then `@750`), each cell's height
    /// over its contents' c and d in one of the forms real cells take: compressed onto them
    /// at 50 or 250 (self-sizing), pinned at 750, a stack's `h == 0 @25` over containment, or
    /// nothing (ambiguous). Variables: y, h, c, d a cell.
    static func feedSystem(_ rng: inout LCG) -> (SmallSystem, chainRows: [Int]) {
        let k = Int.random(in: 1...3, using: &rng)
        var cs: [SmallSystem.C] = [], chain: [Int] = []
        func y(_ i: Int) -> Int { 4 * i }
        func h(_ i: Int) -> Int { 4 * i + 1 }
        func c(_ i: Int) -> Int { 4 * i + 2 }
        func d(_ i: Int) -> Int { 4 * i + 3 }
        for i in 0..<k {
            chain.append(cs.count)
            let gap = Double(Int.random(in: 0...8, using: &rng))
            if i == 0 {
                cs.append(.init(terms: [(y(0), 1)], constant: -gap, relation: "==", priority: 1000))
            } else {
                // Required, or `@750` (an optional chain peels too: its errors stay 0).
                let priority: Double = Int.random(in: 0..<3, using: &rng) == 0 ? 750 : 1000
                cs.append(.init(terms: [(y(i), 1), (y(i - 1), -1), (h(i - 1), -1)], constant: -gap, relation: "==", priority: priority))
            }
            // Contents: intrinsic heights held at 750 (compression) and 250 (hugging), or fixed.
            for v in [c(i), d(i)] {
                let size = Double(Int.random(in: 10...40, using: &rng))
                if Bool.random(using: &rng) {
                    cs.append(.init(terms: [(v, 1)], constant: -size, relation: ">=", priority: 750))
                    cs.append(.init(terms: [(v, 1)], constant: -size, relation: "<=", priority: 250))
                } else {
                    cs.append(.init(terms: [(v, 1)], constant: -size, relation: "==", priority: 1000))
                }
            }
            let pad = Double(Int.random(in: 0...12, using: &rng))
            let contain: [SmallSystem.C] = [
                .init(terms: [(h(i), 1), (c(i), -1)], constant: -pad, relation: ">=", priority: 1000),
                .init(terms: [(h(i), 1), (d(i), -1)], constant: -pad, relation: ">=", priority: 1000)
            ]
            switch Int.random(in: 0..<5, using: &rng) {
            case 0: cs += contain + [.init(terms: [(h(i), 1)], constant: 0, relation: "==", priority: 50)]
            case 1: cs += contain + [.init(terms: [(h(i), 1)], constant: 0, relation: "==", priority: 250)]
            case 2: cs += contain + [.init(terms: [(h(i), 1), (d(i), -1)], constant: -pad, relation: "==", priority: 750)]
            case 3: cs += contain + [.init(terms: [(h(i), 1)], constant: 0, relation: "==", priority: 25)]
            default: break  // nothing sizes the cell: its height and what hangs below it are ambiguous
            }
        }
        // Now and then a bound on a position: the chain above it stays in the basis.
        if Int.random(in: 0..<4, using: &rng) == 0 {
            let i = Int.random(in: 0..<k, using: &rng)
            cs.append(.init(terms: [(y(i), 1)], constant: -Double(Int.random(in: 0...200, using: &rng)), relation: "<=", priority: 500))
        }
        return (SmallSystem(variables: 4 * k, constraints: cs), chain)
    }

    func definition(_ c: SmallSystem.C, _ vars: [Variable]) -> ConstraintDefinition {
        ConstraintDefinition(
            LinearExpression(c.terms.map { (vars[$0.0], $0.1) }, constant: c.constant),
            Relation(rawValue: c.relation)!, priority: c.priority)
    }

    /// The ambiguous variables are those whose range over the optimal face is not a point.
    func checkAmbiguity(_ s: FactoredSolver, _ vars: [Variable], _ system: SmallSystem, _ label: String) -> Int {
        guard let ranges = system.referenceRanges() else { return 0 }
        let ours = Set(s.ambiguousVariables().map(\.id))
        var ambiguous = 0
        for (i, r) in ranges.enumerated() {
            if let (lo, hi) = r, hi - lo > 1e-5 && hi - lo < 1e-3 { continue }
            let reference = r.map { $0.1 - $0.0 > 1e-5 } ?? true
            XCTAssertEqual(ours.contains(vars[i].id), reference, "\(label) variable \(i): range \(String(describing: r))")
            if reference { ambiguous += 1 }
        }
        return ambiguous
    }

    func testFeedsAgainstTheDenseReference() throws {
        var rng = LCG(state: 5050)
        var peeled = 0, states = 0, ambiguousSeen = 0, restored = 0, orphaned = 0
        for round in 0..<100 {
            let (base, chain) = Self.feedSystem(&rng)
            let s = FactoredSolver()
            s.refactorMinimum = [0, 4, 2000].randomElement(using: &rng)!
            s.verdictSolvesDirections = [nil, false, true][round % 3]
            let vars = (0..<base.variables).map { _ in s.addVariable() }
            let handles = s.add(batch: base.constraints.map { definition($0, vars) })
            var live = Array(zip(handles, base.constraints))
            var chainHandles = Set(chain.map { handles[$0] })
            if s.dependents.count > 0 { peeled += 1 }
            FactoredSolverTests.check(base, vars.map { s.value($0) }, "round \(round) build")
            ambiguousSeen += checkAmbiguity(s, vars, base, "round \(round) build")
            _ = s.takeChanges()
            for step in 0..<4 {
                let old = vars.map { s.value($0) }
                if Int.random(in: 0..<3, using: &rng) == 0 { s.compact() }
                let wasDependent = s.dependents.count
                let chainIndices = live.indices.filter { chainHandles.contains(live[$0].0) }
                let optional = live.indices.filter { live[$0].1.priority < 1000 }
                switch Int.random(in: 0..<5, using: &rng) {
                case 0 where !chainIndices.isEmpty, 1 where !optional.isEmpty:
                    // A chain's gap (a dependent's row, while peeled) or an optional constant.
                    let k = (chainIndices.isEmpty || (!optional.isEmpty && Bool.random(using: &rng)) ? optional : chainIndices).randomElement(
                        using: &rng)!
                    live[k].1.constant += Double(Int.random(in: -10...10, using: &rng))
                    s.setConstant(live[k].0, live[k].1.constant)
                case 2 where !chainIndices.isEmpty:
                    // A position's definition removed: it and what hangs below it go free.
                    let k = chainIndices.randomElement(using: &rng)!
                    s.remove(live[k].0)
                    chainHandles.remove(live[k].0)
                    live.remove(at: k)
                    if s.dependents.count < wasDependent { orphaned += 1 }
                case 4 where !optional.isEmpty:
                    let k = optional.randomElement(using: &rng)!
                    live[k].1.priority = [750.0, 500, 250, 251, 50].randomElement(using: &rng)!
                    s.setPriority(live[k].0, live[k].1.priority)
                default:
                    // A new row naming a position: it and what it is computed from go back in the basis.
                    let cell = Int.random(in: 0..<(base.variables / 4), using: &rng)
                    let c = SmallSystem.C(
                        terms: [(4 * cell, 1)], constant: -Double(Int.random(in: 0...300, using: &rng)), relation: "<=",
                        priority: [750.0, 500, 250].randomElement(using: &rng)!)
                    live.append((s.add(definition(c, vars)), c))
                    if s.dependents.count < wasDependent { restored += 1 }
                }
                let system = SmallSystem(variables: base.variables, constraints: live.map(\.1))
                FactoredSolverTests.checkStep(s, vars, system, before: old, "round \(round) step \(step)")
                ambiguousSeen += checkAmbiguity(s, vars, system, "round \(round) step \(step)")
                states += 1
            }
        }
        print("dependents: peeled \(peeled) states \(states) ambiguous \(ambiguousSeen) restored \(restored) orphaned \(orphaned)")
        // The stream exercises what it names.
        XCTAssertGreaterThan(peeled, 80)
        XCTAssertEqual(states, 400)
        XCTAssertGreaterThan(ambiguousSeen, 100)
        XCTAssertGreaterThan(restored, 20)
        XCTAssertGreaterThan(orphaned, 20)
    }

    /// A dependent computed from columns in no row, with signs that cancel in pairs and
    /// weights that golden-ratio steps made cancel (w₁ + w₄ = w₂ + w₃): still ambiguous, and
    /// another layout moves it.
    func testADependentOfFreeColumnsWithMixedSignsIsAmbiguous() {
        let s = FactoredSolver()
        let (a, b, c, e, d) = (s.addVariable(), s.addVariable(), s.addVariable(), s.addVariable(), s.addVariable())
        _ = s.add(batch: [ConstraintDefinition(LinearExpression([(d, 1), (a, -1), (e, -1), (b, 1), (c, 1)]), .equal)])
        XCTAssertEqual(s.dependents.count, 1)
        XCTAssertEqual(Set(s.ambiguousVariables()), Set([a, b, c, e, d]))
        let other = s.alternativeValues(for: [d], maxStep: 10)
        XCTAssertNotEqual(other[d] ?? s.value(d), s.value(d), accuracy: 1e-9)
        // Many such columns at once: every dependent reported.
        let t = FactoredSolver()
        let free = (0..<64).map { _ in t.addVariable() }
        let sums = (0..<32).map { _ in t.addVariable() }
        _ = t.add(
            batch: (0..<32).map { i in
                ConstraintDefinition(LinearExpression([(sums[i], 1), (free[2 * i], -1), (free[2 * i + 1], 1)]), .equal)
            })
        XCTAssertEqual(Set(t.ambiguousVariables()), Set(free + sums))
    }

    /// What moves a dependent is its row's constant and what moves its inputs, and another
    /// optimal layout moves it with them.
    func testConstraintsAffectingAndAlternativesReachDependents() throws {
        let s = FactoredSolver()
        let (y0, h0, y1, h1, y2) = (s.addVariable(), s.addVariable(), s.addVariable(), s.addVariable(), s.addVariable())
        let top = s.add(ConstraintDefinition(LinearExpression([(y0, 1)], constant: -5), .equal))
        let hs = s.add(batch: [
            ConstraintDefinition(LinearExpression([(h0, 1)], constant: -20), .equal, priority: 750),
            ConstraintDefinition(LinearExpression([(y1, 1), (y0, -1), (h0, -1)], constant: -8), .equal),
            ConstraintDefinition(LinearExpression([(y2, 1), (y1, -1), (h1, -1)]), .equal)
        ])
        // The batch rebuilt the basis with `top` in it: y₀ … y₂ are dependents, h₁ free, and h₀
        // too once y₁ is out: its optional pin is the one row left naming it (its errors stay 0).
        XCTAssertEqual(s.dependents.count, 4)
        XCTAssertEqual(s.value(y1), 33, accuracy: 1e-9)
        XCTAssertEqual(Set(s.constraintsAffecting(y2)), Set([top, hs[0], hs[1], hs[2]]))
        XCTAssertEqual(Set(s.ambiguousVariables()), Set([h1, y2]))
        let other = s.alternativeValues(for: [y2], maxStep: 10)
        XCTAssertEqual(try XCTUnwrap(other[y2]) - s.value(y2), try XCTUnwrap(other[h1]) - s.value(h1), accuracy: 1e-9)
        XCTAssertNil(other[y1], "y₁ does not depend on h₁")
        // The gap's set-constant moves y₁ and y₂ only.
        _ = s.takeChanges()
        s.setConstant(hs[1], -10)
        XCTAssertEqual(Set(s.takeChanges()), Set([y1, y2]))
        XCTAssertEqual(s.value(y2), 35, accuracy: 1e-9)
    }
}
