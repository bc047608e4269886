import CheckedNumbers
/// Constraint records by handle: a dense array with a free list (handles are reused after
/// removal), read with dictionary-style subscripts. A hashed table of 260k records cost
/// cache misses on every add.
struct RecordTable {
    private var slots: [Solver.Record?] = []
    private var free: [Int32] = []
    private(set) var count = 0

    /// The handle the next `insert` will use.
    mutating func insert(_ r: Solver.Record) -> Int32 {
        count += 1
        if let h = free.popLast() { slots[Int(h)] = r; return h }
        slots.append(r)
        return Int32(slots.count - 1)
    }

    subscript(h: Int32) -> Solver.Record? {
        get { h >= 0 && Int(h) < slots.count ? slots[Int(h)] : nil }
        set {
            guard h >= 0 && Int(h) < slots.count else { return }
            let had = slots[Int(h)] != nil
            slots[Int(h)] = newValue
            if had && newValue == nil { count -= 1; free.append(h) }
            if !had && newValue != nil { count += 1; free.removeAll { $0 == h } }
        }
    }

    /// Changes a live record in place (no copy of its expression out and back).
    @discardableResult
    mutating func update<T>(_ h: Int32, _ body: (inout Solver.Record) -> T) -> T? {
        guard h >= 0 && Int(h) < slots.count, slots[Int(h)] != nil else { return nil }
        return body(&slots[Int(h)]!)
    }

    mutating func removeValue(forKey h: Int32) -> Solver.Record? {
        let r = self[h]
        if r != nil { self[h] = nil }
        return r
    }
}
