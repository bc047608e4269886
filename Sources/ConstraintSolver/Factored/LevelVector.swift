/// One level's duals (by row) or reduced costs (by column): sparse, each entry a default
/// where unset (0 for a dual, the column's cost for a reduced cost). On the 1,000-cell feed
/// the two levels hold 7,001 duals among 30,004 rows and 2,000 reduced costs that are not
/// their column's cost among 49,004 columns; dense, they were 304 bytes a view of a session.
/// Open addressing with linear probing, at most half full, no deletion (an entry written
/// back to its default keeps its slot).
struct LevelVector {
    private var keys: [Int32] = []  // −1: empty
    private var values: [Double] = []
    private var used = 0
    private var shift: UInt32 = 32

    @inline(__always) private func home(_ key: Int32) -> Int {
        // Fibonacci hashing: the product's high bits, so that consecutive ids spread.
        Int((UInt32(bitPattern: key) &* 0x9E37_79B1) >> shift)
    }

    /// The slot holding `key`, or the empty slot where it would go.
    @inline(__always) private func slot(_ key: Int32) -> Int {
        let mask = keys.count - 1
        var s = home(key)
        while keys[s] != key && keys[s] >= 0 { s = (s &+ 1) & mask }
        return s
    }

    subscript(i: Int) -> Double {
        get { self[i, default: 0] }
        set { self[i, default: 0] = newValue }
    }

    /// Entry i, `absent` where unset; writing `absent` to an unset entry stores nothing.
    subscript(i: Int, default absent: Double) -> Double {
        get {
            if keys.isEmpty { return absent }
            let s = slot(Int32(truncatingIfNeeded: i))
            return keys[s] < 0 ? absent : values[s]
        }
        set {
            let key = Int32(truncatingIfNeeded: i)
            if !keys.isEmpty {
                let s = slot(key)
                if keys[s] >= 0 { values[s] = newValue; return }
                if newValue == absent { return }
                if 2 * (used + 1) <= keys.count {
                    keys[s] = key
                    values[s] = newValue
                    used += 1
                    return
                }
            } else if newValue == absent {
                return
            }
            rebuild(adding: key, newValue)
        }
    }

    /// Rehashes the entries and the new one into a table at most a third full.
    private mutating func rebuild(adding key: Int32, _ value: Double) {
        var live: [(Int32, Double)] = [(key, value)]
        for (k, v) in zip(keys, values) where k >= 0 { live.append((k, v)) }
        var bits: UInt32 = 4
        while (1 << bits) < 3 * live.count { bits += 1 }
        keys = Array(repeating: -1, count: 1 << bits)
        values = Array(repeating: 0, count: 1 << bits)
        shift = 32 - bits
        for (k, v) in live {
            let s = slot(k)
            keys[s] = k
            values[s] = v
        }
        used = live.count
    }
}
