import CheckedNumbers
/// Flags by column or row, a bit each, where a `[Bool]` spent a byte: a 1,000-cell session's
/// user-column and live-row flags, 13 bytes a view. Not the per-change `touched` flags: a
/// bit's shift and mask on every value a drag writes cost 1.7 M instructions of `drag_n1000`.
struct BitVector {
    private var words: [UInt64] = []
    private(set) var count = 0

    @inline(__always) subscript(i: Int) -> Bool {
        get { words[i >> 6] & 1 << UInt64(i & 63) != 0 }
        set {
            if newValue { words[i >> 6] |= 1 << UInt64(i & 63) } else { words[i >> 6] &= ~(1 << UInt64(i & 63)) }
        }
    }

    /// Inlined, one word written (through the subscript, a column's two flags were 4.2 M
    /// instructions of the `drag_n1000` workload's build).
    @inline(__always) mutating func append(_ b: Bool) {
        let bit: UInt64 = b ? 1 << UInt64(count & 63) : 0
        if count & 63 == 0 { words.append(bit) } else if b { words[words.count - 1] |= bit }
        count += 1
    }

    /// n flags b at the end, whole words at a time (a batch's new rows and columns at once).
    mutating func append(_ b: Bool, count n: Int) {
        var left = n
        while left > 0 && count & 63 != 0 { append(b); left -= 1 }
        let full = left >> 6
        words.append(contentsOf: repeatElement(b ? ~0 : 0, count: full))
        count += full << 6
        left -= full << 6
        while left > 0 { append(b); left -= 1 }
    }

    /// How many are set.
    var trueCount: Int { words.reduce(0) { $0 + $1.nonzeroBitCount } }

    mutating func reserveCapacity(_ n: Int) { words.reserveCapacity((n + 63) >> 6) }
}
