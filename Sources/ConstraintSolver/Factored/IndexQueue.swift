/// A set of column ids that also yields its smallest member without a scan: the simplex's
/// entering candidates (Bland's rule) and infeasible basics (`min()` scanned thousands per
/// step after a large build's crash). A lazy heap: stale entries are skipped when they
/// surface, and dropped whenever the set empties (the end of every solve).
struct IndexQueue {
    /// Membership by id, not a `Set`: a crash asks it of every column, mostly ones not in it,
    /// and hashing each was 2.4% of the 1,000-cell stack feed's build.
    private var isMember: [Bool] = []
    private(set) var count = 0
    private var heap = MinHeap()

    var isEmpty: Bool { count == 0 }
    func contains(_ j: Int) -> Bool { j < isMember.count && isMember[j] }

    mutating func insert(_ j: Int) {
        if j >= isMember.count { isMember.append(contentsOf: repeatElement(false, count: max(j + 1, 2 * isMember.count) - isMember.count)) }
        guard !isMember[j] else { return }
        isMember[j] = true
        count += 1
        heap.push(j)
    }

    mutating func remove(_ j: Int) {
        guard contains(j) else { return }
        isMember[j] = false
        count -= 1
        if count == 0 { heap.removeAll() }
    }

    /// Every member is in the heap (with stale entries): cleared through it, not every id.
    mutating func removeAll() {
        heap.forEach { isMember[$0] = false }
        count = 0
        heap.removeAll()
    }

    /// Up to k smallest members, smallest first (left in the set).
    mutating func smallest(_ k: Int) -> [Int] {
        var out: [Int] = []
        while out.count < k, !heap.isEmpty {
            let j = heap.pop()
            if contains(j) && out.last != j { out.append(j) }
        }
        for j in out { heap.push(j) }
        return out
    }

    mutating func min() -> Int? {
        while !heap.isEmpty {
            let j = heap.pop()
            if contains(j) { heap.push(j); return j }
        }
        return nil
    }
}
