/// A set of column ids that also yields its smallest member without a scan: the simplex's
/// entering candidates (Bland's rule) and infeasible basics (`min()` scanned thousands per
/// step after a large build's crash). A lazy heap: stale entries are skipped when they
/// surface, and dropped whenever the set empties (the end of every solve).
struct IndexQueue {
    private(set) var members: Set<Int> = []
    private var heap = MinHeap()

    var isEmpty: Bool { members.isEmpty }
    var count: Int { members.count }
    func contains(_ j: Int) -> Bool { members.contains(j) }

    mutating func insert(_ j: Int) { if members.insert(j).inserted { heap.push(j) } }

    mutating func remove(_ j: Int) {
        guard members.remove(j) != nil else { return }
        if members.isEmpty { heap.removeAll() }
    }

    mutating func removeAll() {
        members.removeAll(keepingCapacity: true)
        heap.removeAll()
    }

    mutating func min() -> Int? {
        while !heap.isEmpty {
            let j = heap.pop()
            if members.contains(j) { heap.push(j); return j }
        }
        return nil
    }
}
