import CheckedNumbers

/// Constraint records by handle: a dense array, handles of removed constraints reused (a
/// hashed table cost a probe per set-constant, and handles that only grow would grow the
/// table with a long session's churn).
struct HandleTable {
    private var slots: [FactoredSolver.Record] = []
    private var free: [Int32] = []
    /// Broken constraints (required, demoted to the `broken` level to go on), each with the
    /// others of its conflict.
    var conflicts: [Int32: [ConstraintHandle]] = [:]

    func isBroken(_ h: Int32) -> Bool { conflicts[h] != nil }

    mutating func insert(_ r: FactoredSolver.Record) -> Int32 {
        if let h = free.popLast() { slots[Int(h)] = r; return h }
        slots.append(r)
        return Int32(slots.count - 1)
    }

    subscript(h: Int32) -> FactoredSolver.Record? {
        guard h >= 0 && Int(h) < slots.count, case let r = slots[Int(h)], r != .none else { return nil }
        return r
    }

    @discardableResult
    mutating func removeValue(forKey h: Int32) -> FactoredSolver.Record? {
        guard let r = self[h] else { return nil }
        slots[Int(h)] = .none
        free.append(h)
        conflicts[h] = nil
        return r
    }

    /// Moves a record to another handle (free until now), freeing the first.
    mutating func move(_ from: Int32, to: Int32) {
        guard from != to else { return }
        free.removeAll { $0 == to }
        slots[Int(to)] = slots[Int(from)]
        slots[Int(from)] = .none
        free.append(from)
        conflicts[to] = conflicts.removeValue(forKey: from)
    }

    var count: Int { slots.count - free.count }

    mutating func reserveCapacity(_ n: Int) { slots.reserveCapacity(n) }
}
