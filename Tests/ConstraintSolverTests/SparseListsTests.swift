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
            // Packed now and then: trailing empty lists lose their spans, and must still grow.
            if step % 1_000 == 999 { lists.trim() }
            if step % 97 == 0 {
                let live = reference.reduce(0) { $0 + $1.count }
                // Holes are reclaimed once they outweigh the rest; a moved list has room to double.
                XCTAssertLessThanOrEqual(lists.entries.count, 4 * live + 256, "step \(step)")
                XCTAssertEqual(lists.liveCount, live)
            }
        }
        XCTAssertTrue(compactedOnce, "the run never reclaimed its holes")
        XCTAssertEqual(lists.listCount, reference.count)
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

    /// Empty lists at the end keep no span (U of a triangular basis is all empty), read as
    /// empty, and grow like any other; a transpose keeps its count of lists.
    func testTrailingEmptyListsKeepNoSpanAndStillGrow() {
        var lists = SparseLists<Entry>()
        lists.appendList([Entry(3, 1)])
        for _ in 0..<1_000 { lists.appendList() }
        lists.appendList(EmptyCollection())
        XCTAssertEqual(lists.listCount, 1_002)
        XCTAssertEqual(lists.spans.count, 1)
        XCTAssertTrue(lists[1_001].isEmpty)
        XCTAssertEqual(lists.count(500), 0)
        lists.clear(700)
        lists.removeAll(in: 800) { _ in true }
        lists.replace(900, with: EmptyCollection())
        XCTAssertEqual(lists.spans.count, 1)
        lists.append(Entry(5, 2), to: 600)
        lists.replace(601, with: [Entry(0, 4), Entry(7, 8)])
        XCTAssertEqual(lists.spans.count, 602)
        XCTAssertEqual(lists[600].map(\.index), [5])
        XCTAssertEqual(lists[601].map(\.value), [4, 8])
        XCTAssertEqual(lists[0].map(\.index), [3])
        XCTAssertTrue(lists[599].isEmpty)
        let t = lists.transposed(lists: 20)
        XCTAssertEqual(t.listCount, 20)
        XCTAssertEqual(t.spans.count, 8)  // lists 8…19 hold nothing
        XCTAssertEqual(t[7].map(\.index), [601])
        XCTAssertEqual(t[5].map(\.index), [600])
        lists.clear(600)
        lists.clear(601)
        lists.trim()
        XCTAssertEqual(lists.spans.count, 1)
        XCTAssertEqual(lists.listCount, 1_002)
        lists.append(Entry(9, 9), to: 1_001)
        XCTAssertEqual(lists[1_001].map(\.index), [9])
        XCTAssertEqual(lists.liveCount, 2)
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
