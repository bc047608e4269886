/// The session's views as the engine sees them, by the document's `ViewRef`: each view's
/// four variables and its last reported frame, stamped with the revision that changed it.
/// A moved variable names its view (`VariableOwners`), so a change finds and updates its
/// frames without hashing a view's name; `frames(since:)` reads the stamps.
struct ViewTable {
    struct Slot {
        let variables: ViewVariables
        var reported: FrameEntry?
        var revision = 0
    }

    /// By view; nil where no view is (a removed view's slot waits for the document to reuse it).
    private var slots: [Slot?] = []
    private(set) var count = 0

    subscript(v: ViewRef) -> ViewVariables? { Int(v) < slots.count ? slots[Int(v)]?.variables : nil }

    func reported(_ v: ViewRef) -> FrameEntry? { Int(v) < slots.count ? slots[Int(v)]?.reported : nil }

    func variables(ofSlot s: ViewRef) -> ViewVariables { slots[Int(s)]!.variables }

    func isReported(_ s: ViewRef) -> Bool { slots[Int(s)]!.reported != nil }

    /// A reported view whose variables moved (its hidden flag is as reported): the new
    /// entry, stamped with `revision`, or nil if the frame is what was reported.
    mutating func move(_ s: ViewRef, to frame: Rect, at revision: Int) -> FrameEntry? {
        Self.update(&slots[Int(s)]!) { slot in
            guard slot.reported!.frame != frame else { return nil }
            slot.reported!.frame = frame
            slot.revision = revision
            return slot.reported
        }
    }

    /// Records `entry` as the view's frame at `revision`; false if it is what was reported.
    mutating func report(_ s: ViewRef, _ entry: FrameEntry, at revision: Int) -> Bool {
        Self.update(&slots[Int(s)]!) { slot in
            guard slot.reported != entry else { return false }
            slot.reported = entry
            slot.revision = revision
            return true
        }
    }

    /// One in-place access to a slot, however many fields change.
    private static func update<T>(_ slot: inout Slot, _ body: (inout Slot) -> T) -> T { body(&slot) }

    /// Every view's slot, in no particular order.
    var all: some Sequence<Slot> { slots.lazy.compactMap { $0 } }

    mutating func reserveCapacity(_ n: Int) { slots.reserveCapacity(n) }

    mutating func add(_ v: ViewRef, _ variables: ViewVariables) {
        if Int(v) >= slots.count { slots.append(contentsOf: repeatElement(nil, count: Int(v) + 1 - slots.count)) }
        slots[Int(v)] = Slot(variables: variables)
        count += 1
    }

    /// Forgets a view; its variables, for the engine to drop.
    mutating func remove(_ v: ViewRef) -> ViewVariables? {
        guard let vars = self[v] else { return nil }
        slots[Int(v)] = nil
        count -= 1
        return vars
    }
}
