import ConstraintSolver
import XCTest

@testable import LayoutModel

/// An atom keeps its relation and its three flags in one byte: each reads back what was
/// written, whatever the others hold, and the atom stays 48 bytes.
final class AtomLayoutTests: XCTestCase {
    func testRelationAndFlagsAreIndependent() {
        XCTAssertEqual(MemoryLayout<Atom>.stride, 48)
        let relations: [Relation] = [.equal, .lessOrEqual, .greaterOrEqual]
        for relation in relations {
            for active in [false, true] {
                var x = Atom(first: 0, firstAttribute: .top, relation: relation, active: active, origin: .entry(0))
                XCTAssertEqual(x.relation, relation)
                XCTAssertEqual(x.active, active)
                XCTAssertTrue(x.live)
                XCTAssertFalse(x.dirty)
                for (live, dirty) in [(false, true), (true, true), (false, false)] {
                    x.live = live
                    x.dirty = dirty
                    XCTAssertEqual(x.relation, relation)
                    XCTAssertEqual(x.active, active)
                    XCTAssertEqual(x.live, live)
                    XCTAssertEqual(x.dirty, dirty)
                }
                for other in relations {
                    x.relation = other
                    XCTAssertEqual(x.relation, other)
                    XCTAssertEqual(x.active, active)
                    XCTAssertEqual(x.live, false)
                    XCTAssertEqual(x.dirty, false)
                }
            }
        }
    }
}
