import XCTest
import TestSupport
@testable import ConstraintSolver

/// Deep trees of required ties written as stars (`TieStars`), against the same engine with every
/// row as written: random chains and chain-like trees of ties with bounds
/// on each member, through set-constants on ties and bounds, ties removed, required bounds added
/// (in conflict or not) and removed.
final class TieStarTests: XCTestCase {
    /// Members x₀…x_{L−1} tied in a chain or a tree close to one (`a·xᵢ − a·x_p + k == 0`), each
    /// with a partner wᵢ under a required `xᵢ + wᵢ <= C`, and optional sizes asked of both.
    static func system(_ rng: inout LCG) -> (SmallSystem, ties: [Int]) {
        let n = Int.random(in: 18...26, using: &rng)
        var planted = [Double(Int.random(in: 20...40, using: &rng))]
        var cs: [SmallSystem.C] = [], ties: [Int] = []
        for i in 1..<n {
            let p = Bool.random(using: &rng) ? i - 1 : max(0, i - 2)
            let d = Double(Int.random(in: -3...3, using: &rng)), a = [1.0, 2, -1].randomElement(using: &rng)!
            planted.append(planted[p] + d)
            ties.append(cs.count)
            cs.append(.init(terms: [(i, a), (p, -a)], constant: -a * d, relation: "==", priority: 1000))
        }
        for i in 0..<n {
            let w = Double(Int.random(in: 5...20, using: &rng))
            cs.append(
                .init(
                    terms: [(i, 1), (n + i, 1)], constant: -(planted[i] + w + Double(Int.random(in: 0...5, using: &rng))), relation: "<=",
                    priority: 1000))
            cs.append(.init(terms: [(i, 1)], constant: -Double(Int.random(in: 15...60, using: &rng)), relation: ">=", priority: 750))
            let j = Double(Int.random(in: 4...24, using: &rng))
            cs.append(.init(terms: [(n + i, 1)], constant: -j, relation: ">=", priority: [740.0, 500].randomElement(using: &rng)!))
            cs.append(.init(terms: [(n + i, 1)], constant: -j, relation: "<=", priority: 250))
        }
        return (SmallSystem(variables: 2 * n, constraints: cs), ties)
    }

    /// Optimal alike (every level's errors), what moved reported exactly, and where the required
    /// part has no solution, the same constraint broken with the same conflict.
    func testStarsAgreeWithTheRowsAsWritten() throws {
        var rng = LCG(state: 20261201)
        var starred = 0, conflicts = 0, steps = 0, withStars = 0, conflictsWithStars = 0
        for round in 0..<80 {
            var (system, ties) = Self.system(&rng)
            let engines = [FactoredSolver(), FactoredSolver()]
            engines[1].writesTieStars = false
            let vars = engines.map { s in (0..<system.variables).map { _ in s.addVariable() } }
            func definition(_ c: SmallSystem.C, _ k: Int) -> ConstraintDefinition {
                ConstraintDefinition(
                    LinearExpression(c.terms.map { (vars[k][$0.0], $0.1) }, constant: c.constant), Relation(rawValue: c.relation)!,
                    priority: c.priority)
            }
            var handles = engines.indices.map { k in engines[k].add(batch: ConstraintBatch(system.constraints.map { definition($0, k) })) }
            var live = Array(system.constraints.indices)
            if !engines[0].tieStars.isEmpty { starred += 1 }
            XCTAssertTrue(engines[1].tieStars.isEmpty)
            for step in 0..<8 {
                let label = "round \(round) step \(step)"
                let before = vars[0].map { engines[0].value($0) }
                _ = engines[0].takeChanges()
                switch Int.random(in: 0..<7, using: &rng) {
                case 0, 1, 2, 3:  // a tie's or a bound's constant
                    let c = (Bool.random(using: &rng) ? ties.filter(live.contains) : live).randomElement(using: &rng)!
                    system.constraints[c].constant += Double(Int.random(in: -4...4, using: &rng))
                    for k in engines.indices { engines[k].setConstant(handles[k][c], system.constraints[c].constant) }
                case 4:  // a tie removed
                    guard let c = ties.filter(live.contains).randomElement(using: &rng) else { continue }
                    live.removeAll { $0 == c }
                    for k in engines.indices { engines[k].remove(handles[k][c]) }
                case 5:  // a required bound on a member, in conflict with the others or not
                    let i = Int.random(in: 0..<system.variables / 2, using: &rng)
                    let c = SmallSystem.C(
                        terms: [(i, 1)], constant: -Double(Int.random(in: 10...50, using: &rng)), relation: Bool.random(using: &rng) ? ">=" : "<=",
                        priority: 1000)
                    system.constraints.append(c)
                    live.append(system.constraints.count - 1)
                    for k in engines.indices { handles[k].append(engines[k].add(definition(c, k))) }
                default:  // a required bound removed
                    guard
                        let c = live.filter({
                            $0 >= handles[0].count - 8 && !ties.contains($0) && system.constraints[$0].terms.count == 1
                                && system.constraints[$0].priority == 1000
                        }).randomElement(using: &rng)
                    else { continue }
                    live.removeAll { $0 == c }
                    for k in engines.indices { engines[k].remove(handles[k][c]) }
                }
                steps += 1
                if !engines[0].tieStars.isEmpty { withStars += 1 }
                var current = system
                current.constraints = live.map { system.constraints[$0] }
                XCTAssertEqual(engines[0].brokenConstraints.isEmpty, engines[1].brokenConstraints.isEmpty, label)
                XCTAssertEqual(engines[0].recoveries, 0, label)
                if engines[0].brokenConstraints.isEmpty {
                    // Both optimal: the required constraints hold, every level's errors the same.
                    let values = vars.indices.map { k in vars[k].map { engines[k].value($0) } }
                    for c in current.constraints where c.priority == 1000 {
                        let e = c.terms.reduce(c.constant) { $0 + $1.1 * values[0][$1.0] }
                        switch c.relation {
                        case "==": XCTAssertEqual(e, 0, accuracy: 1e-6, label)
                        case "<=": XCTAssertLessThanOrEqual(e, 1e-6, label)
                        default: XCTAssertGreaterThanOrEqual(e, -1e-6, label)
                        }
                    }
                    let levels = values.map { DifferentialTests.levels(of: current, values: $0) }
                    for (a, b) in zip(levels[0], levels[1]) { XCTAssertEqual(a, b, accuracy: 1e-6, "\(label): \(levels)") }
                    let moved = Set(engines[0].takeChanges().map(\.id))
                    XCTAssertEqual(
                        moved, Set(vars[0].indices.filter { abs(values[0][$0] - before[$0]) > 1e-9 }.map { vars[0][$0].id }), "\(label): what moved")
                    continue
                }
                // Where a required bound conflicts through the chain, the same one is broken,
                // its conflict named by the ties as written.
                conflicts += 1
                if !engines[0].tieStars.isEmpty { conflictsWithStars += 1 }
                let named = engines.indices.map { k in engines[k].brokenConstraints.map { b in (b.constraint, Set(b.conflicts)) } }
                XCTAssertEqual(named[0].map(\.0), named[1].map(\.0), "\(label): the same broken")
                XCTAssertEqual(named[0].map(\.1), named[1].map(\.1), "\(label): the same conflicts")
            }
        }
        // 563 steps, 249 on a star, 25 in conflict (14 on a star).
        XCTAssertGreaterThanOrEqual(starred, 70)
        XCTAssertGreaterThanOrEqual(steps, 500)
        XCTAssertGreaterThanOrEqual(withStars, 200, "steps taken on a star (a tie removed writes it back)")
        XCTAssertGreaterThanOrEqual(conflicts, 20)
        XCTAssertGreaterThanOrEqual(conflictsWithStars, 10)
    }
}
