import XCTest
import TestSupport
@testable import ConstraintSolver

/// The incremental ambiguity verdicts (recomputed only for variables a change touched)
/// against a recomputation of every variable, after every add, remove and set-constant.
/// Before restricted rows' changes were followed (`limitMoved`), 21 of these checks failed.
extension DifferentialTests {
    func testIncrementalAmbiguityMatchesAFullRecomputation() {
        var rng = LCG(state: 424242)
        var checks = 0
        for round in 0..<6000 {
            var system = Self.randomSystem(&rng)
            // Fewer constraints than usual, so that some variables stay free.
            system.constraints = Array(system.constraints.prefix(Int.random(in: 1...max(1, system.constraints.count), using: &rng)))
            let s = Solver()
            let vars = (0..<system.variables).map { _ in s.addVariable() }
            var handles: [ConstraintHandle?] = []
            func check(_ what: String) {
                let incremental = Set(s.ambiguousVariables())
                for v in vars { s.markAmbiguity(v.symbol) }
                let full = Set(s.ambiguousVariables())
                checks += 1
                if incremental != full {
                    XCTFail("round \(round) after \(what): incremental \(incremental.map(\.id).sorted()) vs full \(full.map(\.id).sorted())")
                }
            }
            for c in system.constraints { handles.append(s.add(definition(c, vars))); check("add") }
            for _ in 0..<20 {
                let k = Int.random(in: 0..<handles.count, using: &rng)
                switch Int.random(in: 0..<3, using: &rng) {
                case 0:
                    if let h = handles[k] { s.remove(h); handles[k] = nil; check("remove") }
                case 1:
                    if handles[k] == nil { handles[k] = s.add(definition(system.constraints[k], vars)); check("re-add") }
                default:
                    if let h = handles[k] {
                        system.constraints[k].constant += Double(Int.random(in: -10...10, using: &rng))
                        s.setConstant(h, system.constraints[k].constant)
                        check("set-constant")
                    }
                }
            }
        }
        XCTAssertGreaterThan(checks, 80_000)
    }
}
