import XCTest

@testable import ConstraintSolver

/// The pooled lists against arrays of arrays under random appends, replacements, removals
/// and clears: same contents, and storage within a small factor of what is live.
final class SparseListsTests: XCTestCase {
    func testRandomEditsMatchArraysAndStorageStaysBounded() {
        var rng = SystemRandomNumberGenerator()
        var lists = SparseLists<Entry>()
        var reference: [[Entry]] = []
        var compactedOnce = false
        for step in 0..<20_000 {
            let before = lists.entries.count
            defer { if lists.entries.count < before { compactedOnce = true } }
            let op = Int.random(in: 0..<100, using: &rng)
            if reference.isEmpty || op < 5 {
                let cells = (0..<Int.random(in: 0...4)).map { Entry($0, Double(step)) }
                XCTAssertEqual(lists.appendList(cells), reference.count)
                reference.append(cells)
                continue
            }
            let l = Int.random(in: 0..<reference.count, using: &rng)
            switch op {
            case 5..<45:
                lists.append(Entry(step, Double(l)), to: l)
                reference[l].append(Entry(step, Double(l)))
            case 45..<60:
                let cells = (0..<Int.random(in: 0...6)).map { Entry($0, -Double(step)) }
                lists.replace(l, with: cells)
                reference[l] = cells
            case 60..<80:
                lists.removeAll(in: l) { $0.index % 3 == 0 }
                reference[l].removeAll { $0.index % 3 == 0 }
            default:
                lists.clear(l)
                reference[l] = []
            }
            if step % 97 == 0 {
                let live = reference.reduce(0) { $0 + $1.count }
                // Holes are reclaimed once they outweigh the rest; a moved list has room to double.
                XCTAssertLessThanOrEqual(lists.entries.count, 4 * live + 256, "step \(step)")
                XCTAssertEqual(lists.liveCount, live)
            }
        }
        XCTAssertTrue(compactedOnce, "the run never reclaimed its holes")
        for l in reference.indices {
            XCTAssertEqual(lists[l].map(\.index), reference[l].map(\.index), "list \(l)")
            XCTAssertEqual(lists[l].map(\.value), reference[l].map(\.value), "list \(l)")
        }
        let t = lists.transposed(lists: 20_000)
        for (l, cells) in reference.enumerated() {
            for e in cells { XCTAssertTrue(t[e.index].contains { $0.index == l && $0.value == e.value }) }
        }
        XCTAssertEqual(t.liveCount, lists.liveCount)
    }

    /// An entry keeps every index a list can hold and every value bit for bit (the value
    /// is stored as two halves), in 12 bytes.
    func testEntryKeepsIndexAndValueExactlyInTwelveBytes() {
        XCTAssertEqual(MemoryLayout<Entry>.stride, 12)
        var rng = SystemRandomNumberGenerator()
        let specials: [Double] = [0, -0.0, 1, -1, .pi, .greatestFiniteMagnitude, -.leastNonzeroMagnitude, .infinity, 1e-300]
        let values = specials + (0..<1000).map { _ in Double(bitPattern: rng.next()) }
        for (n, v) in values.enumerated() where !v.isNaN {
            let i = n % 2 == 0 ? Int(Int32.max) - n : n
            var e = Entry(i, v)
            XCTAssertEqual(e.index, i)
            XCTAssertEqual(e.value.bitPattern, v.bitPattern)
            e.value = -v
            e.index = n
            XCTAssertEqual(e.index, n)
            XCTAssertEqual(e.value.bitPattern, (-v).bitPattern)
        }
    }
}
