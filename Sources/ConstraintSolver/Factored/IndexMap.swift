import CheckedNumbers
/// A dense map of ids to ids (step ↔ row, step ↔ column) stored as 32-bit integers: half the
/// bytes of `[Int]`, read and written as `Int`. -1 is "none".
struct IndexMap: RandomAccessCollection {
    private var raw: [Int32] = []

    init() {}
    init(_ ids: some Sequence<Int>) { raw = ids.map { Int32(truncatingIfNeeded: $0) } }

    var startIndex: Int { 0 }
    var endIndex: Int { raw.count }

    @inline(__always) subscript(i: Int) -> Int {
        get { Int(raw[i]) }
        set { raw[i] = Int32(truncatingIfNeeded: newValue) }
    }

    mutating func append(_ id: Int) { raw.append(Int32(truncatingIfNeeded: id)) }

    mutating func reserveCapacity(_ n: Int) { raw.reserveCapacity(n) }

    /// Grows to n entries, the new ones -1.
    mutating func grow(to n: Int) {
        // One append at a time: a new column grows it by one, where appending a repeated
        // element cost ~85 instructions.
        while raw.count < n { raw.append(-1) }
    }
}
