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

    /// Hugging and compression resistance are kept as floats; a priority that is not a float
    /// exactly keeps all four exact beside them, until every one is a float again.
    func testViewPrioritiesReadBackExactly() {
        var v = ViewSpec(id: "a")
        XCTAssertTrue(v.hugging == (250, 250) && v.compression == (750, 750))
        v.hugging.h = 250.1
        XCTAssertTrue(v.hugging == (250.1, 250) && v.compression == (750, 750))
        v.compression = (999.5, 0.1)
        XCTAssertTrue(v.hugging == (250.1, 250) && v.compression == (999.5, 0.1))
        v.hugging.h = 251
        XCTAssertTrue(v.hugging == (251, 250) && v.compression == (999.5, 0.1))
        v.compression.v = 1
        XCTAssertTrue(v.hugging == (251, 250) && v.compression == (999.5, 1))
        XCTAssertEqual(
            v,
            {
                var w = ViewSpec(id: "a"); w.hugging = (251, 250); w.compression = (999.5, 1); return w
            }())
        v.hugging = (250, 250)
        v.compression = (750, 750)
        XCTAssertEqual(v, ViewSpec(id: "a"), "back to the defaults")
        XCTAssertEqual(MemoryLayout<ViewSpec>.stride, 80)
        var r = ImplicitAtoms()
        for k in 0..<8 { XCTAssertEqual(r[k], .noRef); r[k] = AtomRef(10 + k) }
        XCTAssertEqual((0..<8).map { r[$0] }, (10..<18).map { AtomRef($0) })
    }
}
