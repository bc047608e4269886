import XCTest

@testable import ConstraintSolver

/// The flat batch keeps each constraint as written: its terms (same variable merged, those
/// that cancel dropped), constant, relation and priority, whichever way it was filled.
final class ConstraintBatchTests: XCTestCase {
    func testTermsMergeAndCancelWithinAConstraintOnly() {
        let s = Solver()
        let x = s.addVariable(), y = s.addVariable(), z = s.addVariable()
        var batch = ConstraintBatch()
        batch.add(x, 1)
        batch.add(y, 2)
        batch.add(x, 0.5)
        batch.close(constant: -3, relation: .equal, priority: 1000)
        batch.add(x, 1)  // x again, in a new constraint: not merged with the first's
        batch.add(z, 4)
        batch.add(z, -4)  // cancels: dropped
        batch.close(constant: 7, relation: .lessOrEqual, priority: 250)
        batch.close(constant: 1, relation: .greaterOrEqual, priority: 750)  // no terms at all
        XCTAssertEqual(batch.count, 3)
        XCTAssertEqual(batch.terms(0).map(\.variable), [x, y])
        XCTAssertEqual(batch.terms(0).map(\.coefficient), [1.5, 2])
        XCTAssertEqual(batch.terms(1).map(\.variable), [x])
        XCTAssertTrue(batch.terms(2).isEmpty)
        XCTAssertEqual([batch.constant(0), batch.constant(1), batch.constant(2)], [-3, 7, 1])
        XCTAssertEqual([batch.relation(0), batch.relation(1), batch.relation(2)], [.equal, .lessOrEqual, .greaterOrEqual])
        XCTAssertEqual([batch.priority(0), batch.priority(1), batch.priority(2)], [1000, 250, 750])
        XCTAssertEqual(batch[1].expression.terms.map(\.coefficient), [1])
        XCTAssertEqual(batch[1].priority, 250)
    }

    func testABatchOfDefinitionsGivesThemBackAsTheyWere() {
        let s = Solver()
        let vars = (0..<6).map { _ in s.addVariable() }
        var rng = SystemRandomNumberGenerator()
        let relations: [Relation] = [.equal, .lessOrEqual, .greaterOrEqual]
        let definitions = (0..<200).map { _ in
            ConstraintDefinition(
                LinearExpression(
                    (0..<Int.random(in: 0...4, using: &rng)).map { _ in
                        (vars.randomElement(using: &rng)!, Double(Int.random(in: -5...5, using: &rng)))
                    },
                    constant: Double(Int.random(in: -100...100, using: &rng))),
                relations.randomElement(using: &rng)!, priority: [1000, 750, 250].randomElement(using: &rng)!)
        }
        let batch = ConstraintBatch(definitions)
        XCTAssertEqual(batch.count, definitions.count)
        for (i, d) in definitions.enumerated() {
            XCTAssertEqual(batch[i].expression.terms.map(\.variable), d.expression.terms.map(\.variable))
            XCTAssertEqual(batch[i].expression.terms.map(\.coefficient), d.expression.terms.map(\.coefficient))
            XCTAssertEqual(batch[i].expression.constant, d.expression.constant)
            XCTAssertEqual(batch[i].relation, d.relation)
            XCTAssertEqual(batch[i].priority, d.priority)
        }
    }
}
