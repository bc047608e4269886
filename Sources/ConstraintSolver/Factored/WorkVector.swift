/// A sparse vector being computed, on dense storage: values by index, a bit that says which
/// entries are live, and the list of live indices. Reset clears only the live bits, so a solve
/// that reaches five entries costs five, with no allocation once it has grown. (A bit, not a
/// 32-bit stamp an index: the four work vectors were 327 bytes a view of a session.)
struct WorkVector {
    private(set) var values: [Double] = []
    private var live: [UInt64] = []
    /// The live indices, in the order they were reached.
    private(set) var pattern: [Int] = []

    mutating func reset(size: Int) {
        for i in pattern { live[i >> 6] &= ~(1 << UInt64(i & 63)) }
        pattern.removeAll(keepingCapacity: true)
        if values.count < size {
            values.append(contentsOf: repeatElement(0, count: size - values.count))
            live.append(contentsOf: repeatElement(0, count: (size + 63) / 64 - live.count))
        }
    }

    @inline(__always) func contains(_ i: Int) -> Bool { live[i >> 6] & (1 << UInt64(i & 63)) != 0 }
    @inline(__always) subscript(i: Int) -> Double { contains(i) ? values[i] : 0 }

    /// Adds v at i; true when i was not live before.
    @inline(__always) @discardableResult
    mutating func add(_ i: Int, _ v: Double) -> Bool {
        if contains(i) { values[i] += v; return false }
        live[i >> 6] |= 1 << UInt64(i & 63)
        values[i] = v
        pattern.append(i)
        return true
    }

    @inline(__always) mutating func set(_ i: Int, _ v: Double) {
        if !contains(i) { live[i >> 6] |= 1 << UInt64(i & 63); pattern.append(i) }
        values[i] = v
    }

    /// The live entries whose magnitude passes `drop`, as (index, value) pairs.
    func entries(dropping drop: Double = BasisFactor.drop) -> [(index: Int, value: Double)] {
        var out: [(index: Int, value: Double)] = []
        out.reserveCapacity(pattern.count)
        for i in pattern where abs(values[i]) > drop { out.append((i, values[i])) }
        return out
    }
}
