import CheckedNumbers
import Glibc

/// Every table's hash seed, one per process (a generic type cannot hold a static).
private let nameTableSeed = UInt64.random(in: 1...UInt64.max)

/// Ids to refs for the document's views and entries, the ids kept once, by their owner.
/// An open-addressing table (linear probing) of one word a slot, the id's 32-bit hash above
/// its ref; a lookup compares the id only where the hashes agree, asking the owner through
/// `name`. A `[String: Int32]` held a second copy of every id and hashed it with SipHash:
/// ~400 instructions a lookup, 56 M of the 1,000-cell feed's build, 97 bytes a view.
///
/// The hash is seeded per process (ids come from clients: a fixed hash would let one
/// document make every id collide).
struct NameTable<Ref: RecordRef> {
    /// 0: empty, 1: deleted, else hash << 32 | (ref + 2).
    private var slots: [UInt64] = []
    private(set) var count = 0
    /// How many names fit before the table grows.
    var capacity: Int { slots.count * 3 / 4 }
    private var deleted = 0

    /// The process's seed, held by the table: read from the static, it was a `swift_once`
    /// a hash (49,000 in the 1,000-cell feed, ~0.5 M instructions).
    private let seed = nameTableSeed

    func hash(_ name: String) -> UInt32 {
        var name = name
        return name.withUTF8 { NameHash.of(bytes: $0, seed: seed) }
    }

    private var mask: Int { slots.count - 1 }

    @inline(__always) func find(_ name: String, name nameOf: (Ref) -> String) -> Ref? {
        guard count > 0 else { return nil }
        return probe(hash(name)) { nameOf($0) == name }
    }

    /// The ref held under the name these UTF-8 bytes spell (one lookup; a parse lends a
    /// `Lookup` for all of its names).
    func find(bytes: UnsafeBufferPointer<UInt8>, name nameOf: (Ref) -> String) -> Ref? {
        withLookup { $0.find(bytes: bytes, name: nameOf) }
    }

    /// The table's slots lent to `body` as a `Lookup`, which holds no reference: a parse that
    /// looks up every name it reads (a lookup through the table retained its slots, and the
    /// parser holding a copy of the table was destroyed an expression, ~100 instructions).
    func withLookup<R>(_ body: (Lookup) -> R) -> R { slots.withUnsafeBufferPointer { body(Lookup(slots: $0, count: count, seed: seed)) } }

    /// Lookups into a table's slots, valid inside `withLookup`.
    struct Lookup {
        let slots: UnsafeBufferPointer<UInt64>
        let count: Int
        let seed: UInt64

        /// The ref held under the name these UTF-8 bytes spell (an `expr`'s view, read in place).
        @inline(__always) func find(bytes: UnsafeBufferPointer<UInt8>, name nameOf: (Ref) -> String) -> Ref? {
            guard count > 0 else { return nil }
            return NameTable.probe(slots, NameHash.of(bytes: bytes, seed: seed)) { nameOf($0).isSpelled(by: bytes) }
        }
    }

    @inline(__always) private func probe(_ h: UInt32, matches: (Ref) -> Bool) -> Ref? {
        slots.withUnsafeBufferPointer { Self.probe($0, h, matches: matches) }
    }

    /// The ref under hash h whose name `matches`, asked only where the hashes agree.
    @inline(__always) private static func probe(_ slots: UnsafeBufferPointer<UInt64>, _ h: UInt32, matches: (Ref) -> Bool) -> Ref? {
        let mask = slots.count - 1
        var i = Int(h) & mask
        while true {
            let s = slots[i]
            if s == 0 { return nil }
            if s != 1 && UInt32(truncatingIfNeeded: s >> 32) == h {
                let ref = Ref(raw: Int32(truncatingIfNeeded: s & 0xFFFF_FFFF) - 2)
                if matches(ref) { return ref }
            }
            i = (i + 1) & mask
        }
    }

    /// Adds `ref` under `name`, which the table must not hold already.
    mutating func insert(_ ref: Ref, named name: String) { add(ref, hash: hash(name)) }

    /// Adds `ref` under `name` unless the table holds that name already: then the ref it
    /// holds, and nothing is added (a find then an insert hashed the name twice).
    mutating func insert(_ ref: Ref, ifAbsent name: String, name nameOf: (Ref) -> String) -> Ref? {
        let h = hash(name)
        if count > 0, let held = probe(h, matches: { nameOf($0) == name }) { return held }
        add(ref, hash: h)
        return nil
    }

    private mutating func add(_ ref: Ref, hash h: UInt32) {
        if (count + deleted + 1) * 4 > slots.count * 3 { rehash(to: count + 1) }
        place(UInt64(h) << 32 | UInt64(ref.raw + 2))
        count += 1
    }

    /// Forgets `ref`, held under `name`.
    mutating func remove(_ ref: Ref, named name: String) {
        guard count > 0 else { return }
        let h = hash(name)
        let word = UInt64(h) << 32 | UInt64(ref.raw + 2)
        var i = Int(h) & mask
        while slots[i] != 0 {
            if slots[i] == word {
                slots[i] = 1
                count -= 1
                deleted += 1
                return
            }
            i = (i + 1) & mask
        }
    }

    mutating func reserveCapacity(_ n: Int) {
        if n * 4 > slots.count * 3 { rehash(to: n) }
    }

    /// At the size its names need, for a table kept after a build that reserved by estimate.
    mutating func trim() {
        var size = 8
        while size * 3 < count * 4 { size *= 2 }
        if slots.count > size { rehash(to: count) }
    }

    private mutating func place(_ word: UInt64) {
        var i = Int(word >> 32) & mask
        while slots[i] > 1 { i = (i + 1) & mask }
        if slots[i] == 1 { deleted -= 1 }
        slots[i] = word
    }

    /// Room for n at most three quarters full; deleted slots are dropped. The stored hashes
    /// place every entry again without asking for its name.
    private mutating func rehash(to n: Int) {
        var size = 8
        while size * 3 < max(n, count) * 4 { size *= 2 }
        let old = slots
        slots = Array(repeating: 0, count: size)
        deleted = 0
        for w in old where w > 1 { place(w) }
    }
}

extension String {
    /// Whether these UTF-8 bytes are this string's, compared in place (`elementsEqual` on the
    /// UTF-8 view walked its indices).
    @inline(__always) func isSpelled(by bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard utf8.count == bytes.count else { return false }
        // The string's own bytes where it has them (a copy of it for `withUTF8` was a retain
        // and a release of its storage, ~60 instructions a lookup).
        if let equal = utf8.withContiguousStorageIfAvailable({ n in n.count == 0 || memcmp(n.baseAddress!, bytes.baseAddress!, n.count) == 0 }) {
            return equal
        }
        return utf8.elementsEqual(bytes)
    }
}

/// Names' hashes, outside the generic table: specialized once per ref type, the hash was
/// ~11 instructions a name slower.
enum NameHash {
    /// A name's hash from its UTF-8 bytes.
    static func of(bytes b: UnsafeBufferPointer<UInt8>, seed: UInt64) -> UInt32 {
        // Eight bytes a step, multiplied and folded (wyhash's mix), then avalanched. The last
        // 1…8 bytes are read as one word, overlapping the one before (as wyhash reads a short
        // key): byte by byte, a name's tail was ~50 of its ~140 instructions.
        var h = seed ^ UInt64(b.count) &* 0x9E37_79B9_7F4A_7C15
        let raw = UnsafeRawBufferPointer(b), n = b.count
        func word(_ at: Int) -> UInt64 { raw.loadUnaligned(fromByteOffset: at, as: UInt64.self) }
        func half(_ at: Int) -> UInt64 { UInt64(raw.loadUnaligned(fromByteOffset: at, as: UInt32.self)) }
        var i = 0
        while i + 8 < n {
            h = mix(h ^ word(i))
            i += 8
        }
        if n >= 8 {
            h = mix(h ^ word(n - 8))
        } else if n >= 4 {
            h = mix(h ^ (half(0) << 32 | half(n - 4)))
        } else if n > 0 {
            h = mix(h ^ (UInt64(b[0]) << 16 | UInt64(b[n >> 1]) << 8 | UInt64(b[n - 1])))
        }
        h ^= h >> 33
        h &*= 0xFF51_AFD7_ED55_8CCD
        h ^= h >> 33
        return UInt32(truncatingIfNeeded: h)
    }

    @inline(__always) private static func mix(_ x: UInt64) -> UInt64 {
        let m = x.multipliedFullWidth(by: 0xA076_1D64_78BD_642F)
        return m.high ^ m.low
    }
}
