import CheckedNumbers
import ConstraintSolver

/// Which view (by its `ViewTable` slot) and axis each engine variable belongs to.
/// Variable ids are dense (the engine reuses freed ones), so an array indexed by id
/// replaces a hashed dictionary on the per-change path. An owner is 4 bytes, the slot above
/// the axis bit (an optional struct was 8: 16 bytes a view).
struct VariableOwners {
    struct Owner {
        var slot: ViewRef
        var axis: Axis
    }

    private var owners: [UInt32] = []
    private static let none = UInt32.max

    subscript(id: Int32) -> Owner? {
        get {
            guard Int(id) < owners.count, case let o = owners[Int(id)], o != Self.none else { return nil }
            return Owner(slot: ViewRef(raw: Int32(o >> 1)), axis: o & 1 == 0 ? .horizontal : .vertical)
        }
        set {
            let i = Int(id)
            if i >= owners.count {
                guard newValue != nil else { return }
                owners.grow(toInclude: i, with: Self.none)
            }
            owners[i] = newValue.map { UInt32($0.slot.raw) << 1 | ($0.axis == .horizontal ? 0 : 1) } ?? Self.none
        }
    }

    /// A view's four variables owned by its slot, at once (four subscripts, each with its own
    /// bounds and growth checks, were ~75 instructions a variable: 1.5 M in the 1,000-cell feed).
    mutating func own(_ vars: ViewVariables, by slot: ViewRef) {
        let top = Int(max(max(vars.x.id, vars.y.id), max(vars.width.id, vars.height.id)))
        if top >= owners.count { owners.grow(toInclude: top, with: Self.none) }
        let h = UInt32(slot.raw) << 1, v = h | 1
        owners.withUnsafeMutableBufferPointer { o in
            o[Int(vars.x.id)] = h
            o[Int(vars.width.id)] = h
            o[Int(vars.y.id)] = v
            o[Int(vars.height.id)] = v
        }
    }

    /// Entries (owned by none) for the ids below n, made at once: a build's new views then own
    /// their variables in place (grown a variable at a time, ~80 instructions a view).
    mutating func cover(upTo n: Int) {
        if n > owners.count { owners.append(contentsOf: repeatElement(Self.none, count: n - owners.count)) }
    }
    var count: Int { owners.count }
}
