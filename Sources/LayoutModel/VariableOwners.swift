/// Which view (by its `ViewTable` slot) and axis each engine variable belongs to.
/// Variable ids are dense (the engine reuses freed ones), so an array indexed by id
/// replaces a hashed dictionary on the per-change path. An owner is 4 bytes, the slot above
/// the axis bit (an optional struct was 8: 16 bytes a view).
struct VariableOwners {
    struct Owner {
        var slot: Int32
        var axis: Axis
    }

    private var owners: [UInt32] = []
    private static let none = UInt32.max

    subscript(id: Int32) -> Owner? {
        get {
            guard Int(id) < owners.count, case let o = owners[Int(id)], o != Self.none else { return nil }
            return Owner(slot: Int32(o >> 1), axis: o & 1 == 0 ? .horizontal : .vertical)
        }
        set {
            let i = Int(id)
            if i >= owners.count {
                guard newValue != nil else { return }
                owners.grow(toInclude: i, with: Self.none)
            }
            owners[i] = newValue.map { UInt32($0.slot) << 1 | ($0.axis == .horizontal ? 0 : 1) } ?? Self.none
        }
    }

    mutating func reserveCapacity(_ n: Int) { owners.reserveCapacity(n) }
    var count: Int { owners.count }
}
