import XCTest
import TestSupport
@testable import ConstraintSolver

/// Random small systems solved incrementally (adds, removes, set-constants in a random
/// order) and checked against the dense lexicographic reference: required constraints
/// hold and every priority level's error sum is the reference optimum.
final class DifferentialTests: XCTestCase {

    static func randomSystem(_ rng: inout LCG) -> SmallSystem {
        let n = Int.random(in: 2...5, using: &rng)
        let planted = (0..<n).map { _ in Double(Int.random(in: -20...20, using: &rng)) }
        var cs: [SmallSystem.C] = []
        for _ in 0..<Int.random(in: 2...9, using: &rng) {
            var terms: [(Int, Double)] = []
            for v in (0..<n).shuffled(using: &rng).prefix(Int.random(in: 1...min(3, n), using: &rng)) {
                terms.append((v, Double([-2, -1, 1, 1, 2, 3].randomElement(using: &rng)!)))
            }
            let rel = ["==", "<=", ">="].randomElement(using: &rng)!
            let prio = [1000.0, 1000, 750, 500, 250, 251].randomElement(using: &rng)!
            let atPlanted = terms.reduce(0.0) { $0 + $1.1 * planted[$1.0] }
            var k: Double
            if prio == 1000 {
                // Required: satisfied by the planted point, so the required part is feasible.
                k =
                    -atPlanted
                    + (rel == "==" ? 0 : (rel == "<=" ? -Double(Int.random(in: 0...5, using: &rng)) : Double(Int.random(in: 0...5, using: &rng))))
            } else {
                k = Double(Int.random(in: -30...30, using: &rng))
            }
            if k == -0 { k = 0 }
            cs.append(.init(terms: terms, constant: k, relation: rel, priority: prio))
        }
        return SmallSystem(variables: n, constraints: cs)
    }

    static func levels(of system: SmallSystem, values: [Double]) -> [Double] {
        let lv = Array(Set(system.constraints.filter { $0.priority < 1000 }.map(\.priority))).sorted(by: >)
        return lv.map { p in
            system.constraints.filter { $0.priority == p }.reduce(0.0) { acc, c in
                let e = c.terms.reduce(c.constant) { $0 + $1.1 * values[$1.0] }
                switch c.relation {
                case "==": return acc + abs(e)
                case "<=": return acc + max(0, e)
                default: return acc + max(0, -e)
                }
            }
        }
    }

    func definition(_ c: SmallSystem.C, _ vars: [Variable]) -> ConstraintDefinition {
        ConstraintDefinition(
            LinearExpression(c.terms.map { (vars[$0.0], $0.1) }, constant: c.constant),
            Relation(rawValue: c.relation)!, priority: c.priority)
    }

    func testRandomSystemsAgainstDenseReference() {
        var rng = LCG(state: 20261122)
        var checked = 0
        for round in 0..<400 {
            var system = Self.randomSystem(&rng)
            let s = Solver()
            let vars = (0..<system.variables).map { _ in s.addVariable() }
            var handles: [ConstraintHandle] = system.constraints.map { s.add(definition($0, vars)) }
            // Churn: remove some, re-add, move constants of optional ones.
            for _ in 0..<3 {
                let k = Int.random(in: 0..<handles.count, using: &rng)
                s.remove(handles[k])
                handles[k] = s.add(definition(system.constraints[k], vars))
                let j = Int.random(in: 0..<handles.count, using: &rng)
                if system.constraints[j].priority < 1000 {
                    system.constraints[j].constant += Double(Int.random(in: -10...10, using: &rng))
                    s.setConstant(handles[j], system.constraints[j].constant)
                }
            }
            // The O(1) counters agree with a scan of the tableau.
            XCTAssertEqual(s.stats.rows, s.basicOf.filter(\.isValid).count, "round \(round)")
            XCTAssertEqual(s.stats.columns, s.columns.filter { !$0.isEmpty }.count, "round \(round)")
            let values = vars.map { s.value($0) }
            XCTAssertTrue(s.brokenConstraints.isEmpty, "round \(round): required part is feasible by construction")
            for c in system.constraints where c.priority == 1000 {
                let e = c.terms.reduce(c.constant) { $0 + $1.1 * values[$1.0] }
                switch c.relation {
                case "==": XCTAssertEqual(e, 0, accuracy: 1e-6, "round \(round)")
                case "<=": XCTAssertLessThanOrEqual(e, 1e-6, "round \(round)")
                default: XCTAssertGreaterThanOrEqual(e, -1e-6, "round \(round)")
                }
            }
            guard let reference = system.referenceLevels() else { XCTFail("reference infeasible in round \(round)"); continue }
            let ours = Self.levels(of: system, values: values)
            XCTAssertEqual(ours.count, reference.count)
            for (a, b) in zip(ours, reference) { XCTAssertEqual(a, b, accuracy: 1e-6, "round \(round): \(ours) vs \(reference)") }
            // A fresh solver on the final system agrees with the incremental one.
            let fresh = Solver()
            let fv = (0..<system.variables).map { _ in fresh.addVariable() }
            for c in system.constraints { fresh.add(definition(c, fv)) }
            let freshLevels = Self.levels(of: system, values: fv.map { fresh.value($0) })
            for (a, b) in zip(ours, freshLevels) { XCTAssertEqual(a, b, accuracy: 1e-6, "round \(round)") }
            checked += 1
        }
        XCTAssertEqual(checked, 400)
    }

    func testRandomInfeasibleRequiredSystemsNeverCorrupt() {
        var rng = LCG(state: 7)
        for round in 0..<200 {
            let s = Solver()
            let vars = (0..<3).map { _ in s.addVariable() }
            var live: [(ConstraintHandle, ConstraintDefinition)] = []
            for _ in 0..<8 {
                let a = Int.random(in: 0..<3, using: &rng), b = (a + 1) % 3
                let d = ConstraintDefinition(
                    LinearExpression(
                        [(vars[a], 1), (vars[b], Double(Int.random(in: -1...1, using: &rng)))],
                        constant: Double(Int.random(in: -10...10, using: &rng))),
                    [Relation.equal, .lessOrEqual, .greaterOrEqual].randomElement(using: &rng)!)
                live.append((s.add(d), d))
                if Bool.random(using: &rng), !live.isEmpty {
                    let k = Int.random(in: 0..<live.count, using: &rng)
                    s.remove(live[k].0)
                    live.remove(at: k)
                }
            }
            // Every active or redundant required constraint holds.
            for (h, d) in live where s.state(h) == .active || s.state(h) == .redundant {
                let e = d.expression.terms.reduce(d.expression.constant) { $0 + $1.coefficient * s.value($1.variable) }
                switch d.relation {
                case .equal: XCTAssertEqual(e, 0, accuracy: 1e-6, "round \(round)")
                case .lessOrEqual: XCTAssertLessThanOrEqual(e, 1e-6, "round \(round)")
                case .greaterOrEqual: XCTAssertGreaterThanOrEqual(e, -1e-6, "round \(round)")
                }
            }
            // Each broken one is explained by a set that really is infeasible without it... and contains it.
            for (h, conflicts) in s.brokenConstraints { XCTAssertTrue(conflicts.contains(h)) }
        }
    }
}
