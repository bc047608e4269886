import CheckedNumbers
/// A set of small integers with deterministic iteration order (Swift's `Set` is
/// seeded per process and per instance, which would make degenerate pivots, and so
/// ambiguous layouts, differ between runs). Small sets are a plain array; large
/// ones switch to open addressing with a fixed hash.
struct IndexSet32 {
    private var slots: [Int32] = []
    private(set) var count = 0
    private var hashed = false
    private var occupied = 0  // live + tombstones, hashed mode only

    private static let empty: Int32 = -1
    private static let tombstone: Int32 = -2
    private static let linearLimit = 24

    var isEmpty: Bool { count == 0 }

    func contains(_ k: Int32) -> Bool {
        if !hashed { return slots.contains(k) }
        let mask = slots.count - 1
        var i = Self.hash(k) & mask
        while true {
            let s = slots[i]
            if s == k { return true }
            if s == Self.empty { return false }
            i = (i + 1) & mask
        }
    }

    mutating func insert(_ k: Int32) {
        if !hashed {
            if slots.contains(k) { return }
            if slots.count < Self.linearLimit { slots.append(k); count += 1; return }
            rehash(capacity: 64)
        }
        if (occupied + 1) * 4 > slots.count * 3 { rehash(capacity: count * 4 > slots.count ? slots.count * 2 : slots.count) }
        let mask = slots.count - 1
        var i = Self.hash(k) & mask
        var firstFree = -1
        while true {
            let s = slots[i]
            if s == k { return }
            if s == Self.tombstone && firstFree < 0 { firstFree = i }
            if s == Self.empty {
                if firstFree >= 0 { slots[firstFree] = k } else { slots[i] = k; occupied += 1 }
                count += 1
                return
            }
            i = (i + 1) & mask
        }
    }

    mutating func remove(_ k: Int32) {
        if !hashed {
            if let i = slots.firstIndex(of: k) { slots.remove(at: i); count -= 1 }
            return
        }
        let mask = slots.count - 1
        var i = Self.hash(k) & mask
        while true {
            let s = slots[i]
            if s == k { slots[i] = Self.tombstone; count -= 1; return }
            if s == Self.empty { return }
            i = (i + 1) & mask
        }
    }

    mutating func removeAll() { slots = []; count = 0; hashed = false; occupied = 0 }

    /// The elements, in a deterministic order. A copy, so callers may mutate the set while iterating.
    var elements: [Int32] {
        if !hashed { return slots }
        return slots.filter { $0 >= 0 }
    }

    private mutating func rehash(capacity: Int) {
        let live = hashed ? slots.filter { $0 >= 0 } : slots
        slots = Array(repeating: Self.empty, count: capacity)
        hashed = true
        occupied = 0
        count = 0
        for k in live { insert(k) }
    }

    private static func hash(_ k: Int32) -> Int {
        Int(truncatingIfNeeded: UInt64(UInt32(bitPattern: k)) &* 0x9E37_79B9_7F4A_7C15 >> 32)
    }
}

extension IndexSet32 {
    /// Visits the elements without copying; the body must not mutate this set.
    @inline(__always)
    func forEach(_ body: (Int32) -> Void) {
        for k in slots where k >= 0 { body(k) }
    }
}
