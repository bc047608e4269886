import CheckedNumbers
/// The session's views as the engine sees them, by the document's `ViewRef`: each view's
/// four variables and its last reported frame, stamped with the revision that changed it.
/// A moved variable names its view (`VariableOwners`), so a change finds and updates its
/// frames without hashing a view's name; `changed(since:)` reads the stamps.
struct ViewTable {
    /// 64 bytes: the reported frame's id is the view's (the document has it) and its flags
    /// are bits; as an optional `FrameEntry` in an optional slot, 80 (1,000-cell feed: 16
    /// bytes a view).
    struct Slot {
        let variables: ViewVariables
        var frame = Rect(x: 0, y: 0, width: 0, height: 0)
        var revision = 0
        /// `present`, `reported`, `hidden`.
        var flags: UInt8 = Self.present
        static let present: UInt8 = 1, reported: UInt8 = 2, hidden: UInt8 = 4

        init(variables: ViewVariables, flags: UInt8 = Self.present) { (self.variables, self.flags) = (variables, flags) }
        var isPresent: Bool { flags & Self.present != 0 }
        var isReported: Bool { flags & Self.reported != 0 }
        var isHidden: Bool { flags & Self.hidden != 0 }
    }

    /// By view; absent where no view is (a removed view's slot waits for the document to reuse it).
    private var slots: [Slot] = []
    private(set) var count = 0

    /// A view's variables (inlined: a call, twice an atom in the translation).
    @inline(__always) subscript(v: ViewRef) -> ViewVariables? { Int(v) < slots.count && slots[Int(v)].isPresent ? slots[Int(v)].variables : nil }

    /// The view's last reported frame and hidden flag.
    func reported(_ v: ViewRef) -> (frame: Rect, hidden: Bool)? {
        guard Int(v) < slots.count, case let s = slots[Int(v)], s.isReported else { return nil }
        return (s.frame, s.isHidden)
    }

    func variables(ofSlot s: ViewRef) -> ViewVariables { slots[Int(s)].variables }

    func isReported(_ s: ViewRef) -> Bool { slots[Int(s)].isReported }

    /// A reported view whose variables moved (its hidden flag is as reported): stamped with
    /// `revision`, its hidden flag the answer; nil if the frame is what was reported.
    mutating func move(_ s: ViewRef, to frame: Rect, at revision: Int) -> Bool? {
        Self.update(&slots[Int(s)]) { slot in
            guard slot.frame != frame else { return nil }
            slot.frame = frame
            slot.revision = revision
            return slot.isHidden
        }
    }

    /// Records the view's frame and hidden flag at `revision`; false if they are what was reported.
    mutating func report(_ s: ViewRef, _ frame: Rect, hidden: Bool, at revision: Int) -> Bool {
        Self.update(&slots[Int(s)]) { slot in
            guard !slot.isReported || slot.frame != frame || slot.isHidden != hidden else { return false }
            slot.frame = frame
            slot.flags = Slot.present | Slot.reported | (hidden ? Slot.hidden : 0)
            slot.revision = revision
            return true
        }
    }

    /// A view removed and added again in one change (another parent, another kind): the new
    /// slot starts as the old one was reported, so it is answered only if its frame changed.
    mutating func carry(_ old: ViewRef, to new: ViewRef) {
        let was = slots[Int(old)]
        Self.update(&slots[Int(new)]) { slot in
            (slot.frame, slot.revision, slot.flags) = (was.frame, was.revision, was.flags)
        }
    }

    /// One in-place access to a slot, however many fields change.
    private static func update<T>(_ slot: inout Slot, _ body: (inout Slot) -> T) -> T { body(&slot) }

    /// The reported views stamped after `revision`, in no particular order.
    func changed(since revision: Int) -> [ViewRef] {
        slots.indices.filter { slots[$0].isReported && slots[$0].revision > revision }.map { ViewRef($0) }
    }

    mutating func reserveCapacity(_ n: Int) { slots.reserveCapacity(n) }

    mutating func add(_ v: ViewRef, _ variables: ViewVariables) {
        count += 1
        // The next slot (a build's views come in order): appended, not grown then written.
        if Int(v) == slots.count { return slots.append(Slot(variables: variables)) }
        // Absent slots hold any variables (never read): these.
        slots.grow(toInclude: Int(v), with: Slot(variables: variables, flags: 0))
        slots[Int(v)] = Slot(variables: variables)
    }

    /// Forgets a view; its variables, for the engine to drop.
    mutating func remove(_ v: ViewRef) -> ViewVariables? {
        guard let vars = self[v] else { return nil }
        slots[Int(v)].flags = 0
        count -= 1
        return vars
    }
}
