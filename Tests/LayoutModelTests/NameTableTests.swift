import XCTest
import TestSupport
@testable import LayoutModel

/// The ids table against a dictionary: random inserts, removals (tombstones) and lookups,
/// through growth and reuse of refs, with ids short and long, ASCII and not.
final class NameTableTests: XCTestCase {
    func testAgreesWithADictionaryThroughGrowthAndRemovals() {
        var rng = LCG(state: 7)
        var table = NameTable<ViewRef>()
        var names: [ViewRef: String] = [:]  // ref → name, the owner's side
        var byName: [String: ViewRef] = [:]
        var live: [String] = []  // byName's keys, for picking one at random
        var freeRefs: [ViewRef] = []
        var nextRef: ViewRef = 0
        let alphabet = Array("abcxyz019._-é漢")
        func randomName() -> String {
            let n = Int.random(in: 1...(Bool.random(using: &rng) ? 6 : 40), using: &rng)
            return String((0..<n).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &rng)] })
        }
        for step in 0..<20_000 {
            switch Int.random(in: 0..<10, using: &rng) {
            case 0..<5:
                let name = randomName()
                guard byName[name] == nil else { continue }
                var ref = nextRef
                if let reused = freeRefs.popLast() { ref = reused } else { nextRef = ViewRef(raw: nextRef.raw + 1) }
                table.insert(ref, named: name)
                names[ref] = name
                byName[name] = ref
                live.append(name)
            case 5..<7:
                guard !live.isEmpty else { continue }
                let k = Int.random(in: 0..<live.count, using: &rng)
                let name = live[k], ref = byName[name]!
                live.swapAt(k, live.count - 1)
                live.removeLast()
                table.remove(ref, named: name)
                names[ref] = nil
                byName[name] = nil
                freeRefs.append(ref)
            default:
                let name = Bool.random(using: &rng) && !live.isEmpty ? live[Int.random(in: 0..<live.count, using: &rng)] : randomName()
                XCTAssertEqual(table.find(name) { names[$0]! }, byName[name], "step \(step): \(name)")
                let byBytes = Array(name.utf8).withUnsafeBufferPointer { b in table.find(bytes: b) { names[$0]! } }
                XCTAssertEqual(byBytes, byName[name], "step \(step), by bytes: \(name)")
            }
            XCTAssertEqual(table.count, byName.count)
        }
        for (name, ref) in byName { XCTAssertEqual(table.find(name) { names[$0]! }, ref) }
    }

    /// A table reserved by a generous guess is brought to its names' size, every name found.
    func testATrimmedTableKeepsItsNamesAtTheirSize() {
        var table = NameTable<ViewRef>()
        table.reserveCapacity(10_000)
        let names = (0..<100).map { "entry\($0)" }
        for (k, n) in names.enumerated() { table.insert(ViewRef(k), named: n) }
        table.remove(7, named: names[7])
        XCTAssertGreaterThanOrEqual(table.capacity, 10_000)
        table.trim()
        XCTAssertLessThan(table.capacity, 200)
        XCTAssertGreaterThanOrEqual(table.capacity, 99)
        for (k, n) in names.enumerated() { XCTAssertEqual(table.find(n) { names[Int($0)] }, k == 7 ? nil : ViewRef(k), n) }
    }

    func testNumberedNamesMatchInterpolation() {
        for n in [0, 1, 9, 10, 99, 12_345, Int.max, -1, -907, Int.min] {
            XCTAssertEqual(LayoutDocument.numbered("c", n), "c\(n)")
            XCTAssertEqual(LayoutDocument.numbered("row-é.", n), "row-é.\(n)")
        }
    }
}
