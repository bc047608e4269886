import CheckedNumbers
/// One level's duals (by row) or reduced costs (by column), each entry a default where
/// unset (0 for a dual, the column's cost for a reduced cost): dense, grown on write, NaN
/// marking an unset entry. Hashed instead, the two levels of the 1,000-cell feed took 49
/// bytes a view of a session rather than 304, but the pivots of `cells_n1000`'s resizes
/// ran 15–20% slower (`layoutd-bench`, alternated; with a bit an id in front, too).
///
/// So a vector is dense while the simplex writes it, and `pack` keeps a quiet one as a
/// bitmap of its set ids with their values in id order (a read is a bit test and a
/// popcount); the first write unpacks it. A built session's vectors stay packed through
/// set-constants that cross no limit, a drag's: level 250 of the 1,000-cell feed sets 7,001
/// duals of 30,001 rows and 2,000 reduced costs of 43,998 columns.
///
/// Among many levels, a vector whose ids lie far apart (a level of one cell's few errors among
/// every column, where each cell has levels of its own) is hashed instead: dense, a document of
/// 4,000 cells with two priorities a cell kept 111 KB a view of levels while building
/// (2.3 GB), and 20,000 views asked for more memory than a server has.
struct LevelVector {
    private var values: [Double] = []
    /// Entries of `values` set (NaN no longer): growing past 64 a set entry (and 1,024 spare)
    /// turns the vector sparse.
    private var denseSet = 0
    /// Sparse: the set entries hashed, with the range of their ids (a read outside it is
    /// answered without hashing).
    private var sparse: [Int: Double] = [:]
    private var isSparse = false
    private var sparseRange = (low: Int.max, high: -1)
    /// Whether this vector may turn sparse: only among many levels (hashed reads cost a
    /// stacked feed's build, with its few levels, 10% more instructions).
    private var mayHash = false

    init(mayHash: Bool = false) { self.mayHash = mayHash }
    /// Packed: a bit per id (set or not), how many are set before each 64-id word, and the
    /// set values in id order; `packedCount` ids in all. Empty while dense.
    private var setBits: [UInt64] = []
    private var setBefore: [UInt32] = []
    private var setValues: [Double] = []
    private var packedCount = 0
    /// Only a vector with ids is packed, so it has a word of bits.
    private var isPacked: Bool { !setBits.isEmpty }

    subscript(i: Int) -> Double {
        get { self[i, default: 0] }
        set { self[i, default: 0] = newValue }
    }

    /// Entry i, `absent` where unset; writing `absent` to an unset entry stores nothing.
    /// Packed, `values` is empty: the packed form is looked at only past its end, so a dense
    /// vector pays no branch for it (one in front cost the drag workload's pricing and pivots
    /// 0.8 M instructions, 2.6% of its drag phase).
    subscript(i: Int, default absent: Double) -> Double {
        @inline(__always) get {
            guard i < values.count else { return isPacked || isSparse ? outsideValue(i, default: absent) : absent }
            let v = values[i]
            return v.isNaN ? absent : v
        }
        @inline(__always) set {
            if i >= values.count {
                if isPacked && writeUnpacking(i, newValue, default: absent) { return }
                if isSparse || (mayHash && i + 1 > 64 * (denseSet + 1) + 1024) {
                    if newValue != absent || isSparse { writeSparse(i, newValue, default: absent) }
                    return
                }
                if newValue == absent { return }
                values.append(contentsOf: repeatElement(.nan, count: i + 1 - values.count))
            }
            if values[i].isNaN {
                if newValue == absent { return }
                denseSet += 1
            }
            values[i] = newValue
        }
    }

    /// Storage for ids below n, none of them set: a vector filled in no order of ids grows
    /// its dense storage once instead of at each write past its end (the crash's duals and
    /// reduced costs, 42,000 growths of a 1,000-cell nested screen's build). Not for a
    /// vector that may hash, whose ids may lie too far apart to keep dense.
    mutating func reserveCapacity(_ n: Int) {
        guard !mayHash, !isPacked, !isSparse else { return }
        values.reserveCapacity(n)
    }

    /// Every set entry, (id, value), dense or packed in id order, hashed in none.
    func forEachSet(_ body: (Int, Double) -> Void) {
        if isSparse {
            for (i, v) in sparse { body(i, v) }
        } else if isPacked {
            var k = 0
            for (w, word) in setBits.enumerated() {
                var rest = word
                while rest != 0 {
                    body(w * 64 + rest.trailingZeroBitCount, setValues[k])
                    k += 1
                    rest &= rest - 1
                }
            }
        } else {
            values.withUnsafeBufferPointer { values in
                for (i, v) in values.enumerated() where !v.isNaN { body(i, v) }
            }
        }
    }

    /// Adds `delta` to entry i (`absent` where unset).
    mutating func add(_ i: Int, _ delta: Double, default absent: Double = 0) {
        self[i, default: absent] += delta
    }

    /// Packs the vector when fewer than seven in eight of its ids are set (packed, an id
    /// costs 3/16 of a byte beside its value where dense it is 8 bytes).
    mutating func pack() {
        guard !isPacked, !isSparse, !values.isEmpty else { return }
        let set = values.reduce(0) { $1.isNaN ? $0 : $0 + 1 }
        guard set * 8 < values.count * 7 else { return }
        let words = (values.count + 63) / 64
        var bits = [UInt64](repeating: 0, count: words), before = [UInt32](repeating: 0, count: words)
        var kept = [Double](repeating: 0, count: set)
        values.withUnsafeBufferPointer { values in
            var k = 0
            for (i, v) in values.enumerated() {
                if i & 63 == 0 { before[i >> 6] = UInt32(k) }
                guard !v.isNaN else { continue }
                bits[i >> 6] |= 1 << UInt64(i & 63)
                kept[k] = v
                k += 1
            }
        }
        (setBits, setBefore, setValues, packedCount) = (bits, before, kept, values.count)
        values = []
    }

    /// A write to a packed vector: true when done (nothing to store, or stored once unpacked).
    @inline(never) private mutating func writeUnpacking(_ i: Int, _ newValue: Double, default absent: Double) -> Bool {
        if newValue == absent && packedValue(i, default: .nan).isNaN { return true }
        unpack()
        if isSparse {
            writeSparse(i, newValue, default: absent)
            return true
        }
        guard i < values.count else { return false }
        if values[i].isNaN { denseSet += 1 }
        values[i] = newValue
        return true
    }

    /// Read past the dense part: from the packed form or the hashed one.
    @inline(never) private func outsideValue(_ i: Int, default absent: Double) -> Double {
        if isPacked { return packedValue(i, default: absent) }
        guard i >= sparseRange.low && i <= sparseRange.high else { return absent }
        return sparse[i] ?? absent
    }

    /// A write to the hashed form (made here from the dense one if need be); back to dense once
    /// a quarter of the ids up to the highest are set.
    @inline(never) private mutating func writeSparse(_ i: Int, _ newValue: Double, default absent: Double) {
        if !isSparse {
            for (k, v) in values.enumerated() where !v.isNaN { sparse[k] = v }
            sparseRange = sparse.isEmpty ? (Int.max, -1) : (sparse.keys.min()!, sparse.keys.max()!)
            (values, denseSet, isSparse) = ([], 0, true)
        }
        if sparse[i] == nil && newValue == absent { return }
        sparse[i] = newValue
        sparseRange = (min(sparseRange.low, i), max(sparseRange.high, i))
        if 4 * sparse.count >= sparseRange.high + 1 {
            var dense = [Double](repeating: .nan, count: sparseRange.high + 1)
            for (k, v) in sparse { dense[k] = v }
            (values, denseSet, sparse, isSparse, sparseRange) = (dense, sparse.count, [:], false, (Int.max, -1))
        }
    }

    @inline(never) private func packedValue(_ i: Int, default absent: Double) -> Double {
        let w = i >> 6
        guard w < setBits.count else { return absent }
        let word = setBits[w], bit = UInt64(1) << UInt64(i & 63)
        guard word & bit != 0 else { return absent }
        return setValues[Int(setBefore[w]) + (word & (bit - 1)).nonzeroBitCount]
    }

    /// To the dense form, or the hashed one when few of its ids are set.
    private mutating func unpack() {
        let goesSparse = mayHash && setValues.count * 64 + 1024 < packedCount
        var dense = goesSparse ? [] : [Double](repeating: .nan, count: packedCount)
        var hashed: [Int: Double] = [:]
        forEachSet { i, v in if goesSparse { hashed[i] = v } else { dense[i] = v } }
        if goesSparse {
            sparseRange = hashed.isEmpty ? (Int.max, -1) : (hashed.keys.min()!, hashed.keys.max()!)
            (sparse, isSparse) = (hashed, true)
        }
        (values, denseSet) = (dense, goesSparse ? 0 : setValues.count)
        (setBits, setBefore, setValues, packedCount) = ([], [], [], 0)
    }
}
