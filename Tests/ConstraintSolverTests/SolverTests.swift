import XCTest
@testable import ConstraintSolver

/// x·a + y·b + … + k, built tersely for tests.
func expr(_ terms: [(Variable, Double)], _ k: Double = 0) -> LinearExpression { LinearExpression(terms, constant: k) }

final class SolverTests: XCTestCase {
    func testEqualitiesAndInequalities() {
        let s = Solver()
        let x = s.addVariable(), y = s.addVariable()
        s.add(ConstraintDefinition(expr([(x, 1)], -10), .equal))  // x == 10
        s.add(ConstraintDefinition(expr([(y, 1), (x, -1)], -5), .greaterOrEqual))  // y >= x + 5
        s.add(ConstraintDefinition(expr([(y, 1)], 0), .equal, priority: 250))  // y == 0 weakly
        XCTAssertEqual(s.value(x), 10, accuracy: 1e-9)
        XCTAssertEqual(s.value(y), 15, accuracy: 1e-9)
    }

    func testStrictPrioritiesOne751BeatsThousand750() {
        let s = Solver()
        let x = s.addVariable()
        s.add(ConstraintDefinition(expr([(x, 1)], -100), .equal, priority: 751))
        for _ in 0..<1000 { s.add(ConstraintDefinition(expr([(x, 1)], 0), .equal, priority: 750)) }
        XCTAssertEqual(s.value(x), 100, accuracy: 1e-9)
        // A weighted sum (751 vs 1000·750) would have moved x to 0.
    }

    func testSetConstantIsTargetedAndReportsOnlyDependents() {
        let s = Solver()
        // Two independent blocks: a chain a0→a1→a2 and a separate b.
        let a = (0..<3).map { _ in s.addVariable() }
        let b = s.addVariable()
        let lead = s.add(ConstraintDefinition(expr([(a[0], 1)], -10), .equal))
        s.add(ConstraintDefinition(expr([(a[1], 1), (a[0], -1)], -8), .equal))
        s.add(ConstraintDefinition(expr([(a[2], 1), (a[1], -1)], -8), .equal))
        s.add(ConstraintDefinition(expr([(b, 1)], -50), .equal))
        _ = s.takeChanges()
        _ = s.resetTouchedRows()
        s.setConstant(lead, -20)
        XCTAssertEqual(s.takeChanges(), a)
        XCTAssertEqual(s.value(a[2]), 36, accuracy: 1e-9)
        XCTAssertLessThanOrEqual(s.resetTouchedRows(), 3, "only the rows of the dragged block are written")
        XCTAssertEqual(s.stats.pivots, s.stats.pivots)
        s.setConstant(lead, -20)
        XCTAssertEqual(s.takeChanges(), [], "an unchanged constant moves nothing")
    }

    func testIndependentBlocksStayIndependent() {
        let s = Solver()
        var leads: [ConstraintHandle] = []
        for _ in 0..<200 {
            let x = s.addVariable(), w = s.addVariable()
            leads.append(s.add(ConstraintDefinition(expr([(x, 1)], -16), .equal)))
            s.add(ConstraintDefinition(expr([(w, 1), (x, 1)], -100), .lessOrEqual))
            s.add(ConstraintDefinition(expr([(w, 1)], -80), .equal, priority: 250))
        }
        _ = s.takeChanges()
        _ = s.resetTouchedRows()
        s.setConstant(leads[7], -40)  // forces w below 80: a dual pivot inside block 7
        let changed = s.takeChanges()
        XCTAssertEqual(changed.count, 2)
        XCTAssertLessThan(s.resetTouchedRows(), 10)
    }

    func testUnsatisfiableIsBrokenExplainedAndRecovers() {
        let s = Solver()
        let w = s.addVariable(), x = s.addVariable()
        let c50 = s.add(ConstraintDefinition(expr([(w, 1)], -50), .equal))
        s.add(ConstraintDefinition(expr([(x, 1)], -3), .equal))  // unrelated
        let c200 = s.add(ConstraintDefinition(expr([(w, 1)], -200), .equal))
        XCTAssertEqual(s.state(c50), .active)
        XCTAssertEqual(s.state(c200), .broken(conflicts: [c50, c200]))
        XCTAssertEqual(s.value(w), 50, accuracy: 1e-9)
        // The engine goes on.
        let c2 = s.add(ConstraintDefinition(expr([(x, 1), (w, -1)], 0), .lessOrEqual, priority: 500))
        XCTAssertEqual(s.value(x), 3, accuracy: 1e-9)
        s.remove(c2)
        // Removing the conflicting one lets the broken one be enforced.
        s.remove(c50)
        XCTAssertEqual(s.state(c200), .active)
        XCTAssertEqual(s.value(w), 200, accuracy: 1e-9)
        XCTAssertTrue(s.brokenConstraints.isEmpty)
    }

    func testMinimalExplanationAmongManyRelatedConstraints() {
        let s = Solver()
        let v = (0..<6).map { _ in s.addVariable() }
        var hs: [ConstraintHandle] = []
        hs.append(s.add(ConstraintDefinition(expr([(v[0], 1)], 0), .equal)))  // v0 == 0
        for i in 1..<6 { hs.append(s.add(ConstraintDefinition(expr([(v[i], 1), (v[i - 1], -1)], -10), .equal))) }  // v_i = v_{i-1} + 10
        hs.append(s.add(ConstraintDefinition(expr([(v[5], 1)], -100), .lessOrEqual)))  // v5 <= 100 (slack, fine)
        let bad = s.add(ConstraintDefinition(expr([(v[3], 1)], -5), .lessOrEqual))  // v3 <= 5 conflicts with v0..v3
        guard case .broken(let conflicts)? = s.state(bad) else { return XCTFail("not broken") }
        XCTAssertEqual(conflicts, [hs[0], hs[1], hs[2], hs[3], bad])
    }

    func testFailedAddLeavesSolverConsistentKiwiJSRegression() {
        // kiwi.js issue class: after a failed add, removing and re-adding a constraint corrupted the solver.
        let s = Solver()
        let x = s.addVariable(), y = s.addVariable()
        let c1 = s.add(ConstraintDefinition(expr([(x, 1), (y, -1)], 0), .greaterOrEqual))  // x >= y
        let c2 = s.add(ConstraintDefinition(expr([(y, 1)], -10), .greaterOrEqual))  // y >= 10
        let bad = s.add(ConstraintDefinition(expr([(x, 1)], -5), .lessOrEqual))  // x <= 5: infeasible
        XCTAssertEqual(s.state(bad), .broken(conflicts: [c1, c2, bad]))
        let dump = s.dumpTableau()
        s.remove(c1)
        XCTAssertEqual(s.state(bad), .active, "no conflict left once c1 is gone")
        XCTAssertLessThanOrEqual(s.value(x), 5 + 1e-9)
        let again = s.add(ConstraintDefinition(expr([(x, 1), (y, -1)], 0), .greaterOrEqual))
        XCTAssertNotEqual(s.state(again), .active)
        s.remove(bad)
        XCTAssertEqual(s.state(again), .active)
        XCTAssertGreaterThanOrEqual(s.value(x), s.value(y) - 1e-9)
        XCTAssertGreaterThanOrEqual(s.value(y), 10 - 1e-9)
        XCTAssertFalse(dump.isEmpty)
    }

    func testSetConstantIntoConflictBreaksAndRestores() {
        let s = Solver()
        let x = s.addVariable()
        let cap = s.add(ConstraintDefinition(expr([(x, 1)], -100), .lessOrEqual))
        let pos = s.add(ConstraintDefinition(expr([(x, 1)], -40), .equal))
        s.setConstant(pos, -140)
        guard case .broken(let c)? = s.state(pos) else { return XCTFail("expected broken") }
        XCTAssertEqual(c, [cap, pos] as [ConstraintHandle])
        XCTAssertEqual(s.state(cap), .active)
        s.setConstant(cap, -200)
        XCTAssertEqual(s.state(pos), .active)
        XCTAssertEqual(s.value(x), 140, accuracy: 1e-9)
    }

    /// n constraints at odds on one variable: each new one breaks against the one in force,
    /// its explanation that one alone (the broken ones are kept apart and never looked at),
    /// and once that one goes they all hold.
    func testConstraintsAtOddsAreExplainedByTheOneInForce() {
        let s = Solver()
        let x = s.addVariable()
        let first = s.add(ConstraintDefinition(expr([(x, 1)], -40), .equal))
        let odds = (0..<300).map { k in s.add(ConstraintDefinition(expr([(x, 1)], -Double(41 + k)), .greaterOrEqual)) }
        XCTAssertEqual(s.value(x), 40, accuracy: 1e-9)
        for h in odds {
            guard case .broken(let c)? = s.state(h) else { return XCTFail("\(h) should be broken") }
            XCTAssertEqual(c, [first, h])
        }
        s.remove(first)
        XCTAssertEqual(s.value(x), 340, accuracy: 1e-9)
        XCTAssertTrue(odds.allSatisfy { s.state($0) == .active })
    }

    func testRedundantConstraintTakesOverWhenTwinRemoved() {
        let s = Solver()
        let x = s.addVariable()
        let a = s.add(ConstraintDefinition(expr([(x, 1)], -10), .equal))
        let b = s.add(ConstraintDefinition(expr([(x, 1)], -10), .equal))
        XCTAssertEqual(s.state(b), .redundant)
        s.remove(a)
        XCTAssertEqual(s.state(b), .active)
        XCTAssertFalse(s.isAmbiguous(x))
        s.setConstant(b, -30)
        XCTAssertEqual(s.value(x), 30, accuracy: 1e-9)
    }

    func testSetPriorityBetweenRequiredAndOptional() {
        let s = Solver()
        let x = s.addVariable()
        let a = s.add(ConstraintDefinition(expr([(x, 1)], -10), .equal, priority: 500))
        let b = s.add(ConstraintDefinition(expr([(x, 1)], -20), .equal, priority: 400))
        XCTAssertEqual(s.value(x), 10, accuracy: 1e-9)
        s.setPriority(b, 600)
        XCTAssertEqual(s.value(x), 20, accuracy: 1e-9)
        s.setPriority(a, 1000)
        XCTAssertEqual(s.value(x), 10, accuracy: 1e-9)
        s.setPriority(b, 1000)
        guard case .broken? = s.state(b) else { return XCTFail("two required equalities conflict") }
        s.setPriority(a, 1)
        XCTAssertEqual(s.state(b), .active)
        XCTAssertEqual(s.value(x), 20, accuracy: 1e-9)
    }

    func testAmbiguityAndAlternativeSolution() {
        let s = Solver()
        let x = s.addVariable(), w = s.addVariable(), y = s.addVariable()
        s.add(ConstraintDefinition(expr([(w, 1)], -100), .greaterOrEqual))  // w >= 100, nothing else
        s.add(ConstraintDefinition(expr([(y, 1)], -5), .equal))
        XCTAssertEqual(Set(s.ambiguousVariables()), [x, w], "x is unconstrained, w only bounded below")
        XCTAssertFalse(s.isAmbiguous(y))
        let alt = s.alternativeValues(for: [w])
        XCTAssertNotNil(alt[w])
        XCTAssertGreaterThan(alt[w]!, 100)
        XCTAssertNil(alt[y])
        // Two equal-priority pulls in opposite directions: dual degenerate.
        let h = s.add(ConstraintDefinition(expr([(w, 1)], -150), .lessOrEqual, priority: 300))
        let l = s.add(ConstraintDefinition(expr([(w, 1)], -120), .greaterOrEqual, priority: 300))
        XCTAssertTrue(s.isAmbiguous(w), "any w in 120…150 is optimal")
        s.remove(h); s.remove(l)
        s.add(ConstraintDefinition(expr([(w, 1)], -120), .equal, priority: 300))
        XCTAssertFalse(s.isAmbiguous(w))
        s.add(ConstraintDefinition(expr([(x, 1), (w, -1)], 0), .equal))
        XCTAssertFalse(s.isAmbiguous(x))
    }

    func testConstraintsAffecting() {
        let s = Solver()
        let a = s.addVariable(), b = s.addVariable(), c = s.addVariable()
        let ca = s.add(ConstraintDefinition(expr([(a, 1)], -10), .equal))
        let cb = s.add(ConstraintDefinition(expr([(b, 1), (a, -1)], -5), .equal))
        let cc = s.add(ConstraintDefinition(expr([(c, 1)], -1), .equal))
        XCTAssertEqual(s.constraintsAffecting(b), [ca, cb])
        XCTAssertEqual(s.constraintsAffecting(c), [cc])
        XCTAssertEqual(s.stats.constraints, 3)
        XCTAssertEqual(s.stats.rows, 3)
    }

    func testNoDriftAfter100kSetConstants() {
        let s = Solver()
        var lead: [ConstraintHandle] = []
        var defs: [ConstraintDefinition] = []
        var vars: [Variable] = []
        for _ in 0..<5 {
            let x = s.addVariable(), w = s.addVariable(), t = s.addVariable()
            vars += [x, w, t]
            let d1 = ConstraintDefinition(expr([(x, 1)], -16), .equal)
            let d2 = ConstraintDefinition(expr([(t, 1), (x, -1), (w, -1)], -8), .equal)
            let d3 = ConstraintDefinition(expr([(t, 1), (w, 1)], -300), .lessOrEqual)
            let d4 = ConstraintDefinition(expr([(w, 1)], -150), .equal, priority: 250)
            lead.append(s.add(d1)); s.add(d2); s.add(d3); s.add(d4)
            defs += [d1, d2, d3]
        }
        var rng = SystemRandomNumberGenerator()
        var last = [Double](repeating: -16, count: 5)
        for i in 0..<100_000 {
            let k = i % 5
            last[k] = -Double(Int.random(in: 0...2000, using: &rng)) / 10
            s.setConstant(lead[k], last[k])
            _ = s.takeChanges()
        }
        for (k, d) in defs.enumerated() {
            var v = d.expression.constant
            if k % 3 == 0 { v = last[k / 3] }
            for (x, c) in d.expression.terms { v += c * s.value(x) }
            switch d.relation {
            case .equal: XCTAssertEqual(v, 0, accuracy: 1e-6)
            case .lessOrEqual: XCTAssertLessThanOrEqual(v, 1e-6)
            case .greaterOrEqual: XCTAssertGreaterThanOrEqual(v, -1e-6)
            }
        }
        _ = vars
    }
}
