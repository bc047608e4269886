/// Flags by column or row, a bit each: a `[Bool]` was a byte (two flags, 50,000 columns of a
/// 1,000-cell session: 17 bytes a view).
struct BitVector {
    private var words: [UInt64] = []
    private(set) var count = 0

    @inline(__always) subscript(i: Int) -> Bool {
        get { words[i >> 6] & 1 << UInt64(i & 63) != 0 }
        set {
            if newValue { words[i >> 6] |= 1 << UInt64(i & 63) } else { words[i >> 6] &= ~(1 << UInt64(i & 63)) }
        }
    }

    mutating func append(_ b: Bool) {
        if count & 63 == 0 { words.append(0) }
        count += 1
        self[count - 1] = b
    }

    mutating func reserveCapacity(_ n: Int) { words.reserveCapacity((n + 63) >> 6) }
}
