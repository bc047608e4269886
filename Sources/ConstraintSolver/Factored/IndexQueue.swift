import CheckedNumbers
/// A set of column ids that also yields its smallest member without a scan: the simplex's
/// entering candidates (Bland's rule) and infeasible basics (`min()` scanned thousands per
/// step after a large build's crash). A lazy heap: stale entries are skipped when they
/// surface, and dropped whenever the set empties (the end of every solve).
struct IndexQueue {
    /// Membership a bit an id (`IdSet`): a hashed set was 13 M instructions of the 1,000-cell
    /// stack's three builds, the crash asking every column.
    private var members = IdSet()
    private var heap = MinHeap()

    var isEmpty: Bool { members.isEmpty }
    var count: Int { members.count }
    func contains(_ j: Int) -> Bool { members.contains(j) }

    mutating func insert(_ j: Int) { if members.insert(j) { heap.push(j) } }

    mutating func remove(_ j: Int) {
        guard members.remove(j) else { return }
        if members.isEmpty { heap.removeAll() }
    }

    mutating func removeAll() {
        members.removeAll()
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

/// A set of small non-negative ids, a bit each, grown to the largest id inserted: the
/// queues' members, asked about every column where most are not members.
struct IdSet {
    private var words: [UInt64] = []
    private(set) var count = 0

    var isEmpty: Bool { count == 0 }

    @inline(__always) func contains(_ j: Int) -> Bool {
        let w = j >> 6
        return w < words.count && words[w] & 1 << UInt64(j & 63) != 0
    }

    /// True when j was not a member.
    @inline(__always) mutating func insert(_ j: Int) -> Bool {
        let w = j >> 6, bit: UInt64 = 1 << UInt64(j & 63)
        if w >= words.count { words.append(contentsOf: repeatElement(0, count: w + 1 - words.count)) }
        if words[w] & bit != 0 { return false }
        words[w] |= bit
        count += 1
        return true
    }

    /// True when j was a member.
    @inline(__always) mutating func remove(_ j: Int) -> Bool {
        guard count > 0 else { return false }
        let w = j >> 6, bit: UInt64 = 1 << UInt64(j & 63)
        guard w < words.count, words[w] & bit != 0 else { return false }
        words[w] &= ~bit
        count -= 1
        return true
    }

    /// Emptied, its room kept while small.
    mutating func removeAll() {
        guard count > 0 else { return }
        words.withUnsafeMutableBufferPointer { $0.update(repeating: 0) }
        count = 0
    }

    /// The members, ascending.
    var elements: [Int] {
        var out: [Int] = []
        out.reserveCapacity(count)
        for (w, word) in words.enumerated() {
            var rest = word
            while rest != 0 {
                out.append(w << 6 | rest.trailingZeroBitCount)
                rest &= rest - 1
            }
        }
        return out
    }
}
