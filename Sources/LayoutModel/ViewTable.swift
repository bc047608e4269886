/// The session's views as the engine sees them, in slots: each view's four variables and
/// its last reported frame, stamped with the revision that changed it. A moved variable
/// names its view's slot (`VariableOwners`), so a change finds and updates its frames
/// without hashing a view's name; `frames(since:)` reads the stamps.
struct ViewTable {
    struct Slot {
        let id: String
        let variables: ViewVariables
        var reported: FrameEntry?
        var revision = 0
    }

    /// By slot; nil where a removed view's slot waits in `free`.
    private var slots: [Slot?] = []
    private var free: [Int32] = []
    private var slotOf: [String: Int32] = [:]

    var count: Int { slotOf.count }

    subscript(id: String) -> ViewVariables? { slotOf[id].map { slots[Int($0)]!.variables } }

    func slot(of id: String) -> Int32? { slotOf[id] }

    func reported(_ id: String) -> FrameEntry? { slotOf[id].flatMap { slots[Int($0)]!.reported } }

    func id(ofSlot s: Int32) -> String { slots[Int(s)]!.id }

    func variables(ofSlot s: Int32) -> ViewVariables { slots[Int(s)]!.variables }

    func isReported(_ s: Int32) -> Bool { slots[Int(s)]!.reported != nil }

    /// A reported view whose variables moved (its hidden flag is as reported): the new
    /// entry, stamped with `revision`, or nil if the frame is what was reported.
    mutating func move(_ s: Int32, to frame: Rect, at revision: Int) -> FrameEntry? {
        Self.update(&slots[Int(s)]!) { slot in
            guard slot.reported!.frame != frame else { return nil }
            slot.reported!.frame = frame
            slot.revision = revision
            return slot.reported
        }
    }

    /// Records `entry` as the view's frame at `revision`; false if it is what was reported.
    mutating func report(_ s: Int32, _ entry: FrameEntry, at revision: Int) -> Bool {
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

    mutating func reserveCapacity(_ n: Int) {
        slotOf.reserveCapacity(n)
        slots.reserveCapacity(n)
    }

    mutating func add(_ id: String, _ variables: ViewVariables) -> Int32 {
        let slot = Slot(id: id, variables: variables)
        let s: Int32
        if let reused = free.popLast() { s = reused; slots[Int(s)] = slot } else { s = Int32(slots.count); slots.append(slot) }
        slotOf[id] = s
        return s
    }

    /// Forgets a view; its variables, for the engine to drop.
    mutating func remove(_ id: String) -> ViewVariables? {
        guard let s = slotOf.removeValue(forKey: id) else { return nil }
        let vars = slots[Int(s)]!.variables
        slots[Int(s)] = nil
        free.append(s)
        return vars
    }
}
