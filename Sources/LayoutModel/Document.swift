import CheckedNumbers
import ConstraintSolver
import JSON
import TextLayout

public struct LayoutOptions: Equatable, Sendable {
    public var layoutDirection: LayoutDirection = .ltr
    /// Frames are rounded to multiples of 1/scale when set.
    public var scale: Double? = nil
    public init() {}
}

/// The layout document: views, constraints and options, with every rule of the contract
/// checked as it changes. A value type: a change works on a copy, so a failing op leaves
/// the session's document exactly as it was.
///
/// Records live in arrays named by `ViewRef`, `AtomRef` and `EntryRef`; ids are hashed only
/// where they come in or go out. A record freed by a change keeps its slot until the
/// session has taken the change (`settle`), so within a change a ref names one thing.
public struct LayoutDocument {
    public internal(set) var options = LayoutOptions()
    var views: [ViewRecord] = []
    /// View ids to views (the ids are the views' own: `viewRef`).
    var viewNamed = NameTable<ViewRef>()
    var atoms: [Atom] = []
    var entries: [Entry] = []
    /// Every VFL group's members, a slice a group (`Entry.membersAt`), and how many of them
    /// belong to freed groups (repacked once they outnumber the rest).
    var groupMembers: [AtomRef] = []
    var deadMembers = 0
    /// Constraint entry ids to entries (`entryRef`): the ids clients gave, in a table; the
    /// server's own (`c7`), made while no client id looks like one, by their number. Hashing
    /// and placing 10,000 `c` ids was 2 M instructions of the 1,000-cell feed's build, and the
    /// table 21 bytes a view more.
    var entryNamed = NameTable<EntryRef>()
    var autoEntries: [EntryRef] = []
    /// The entries' `expr` and `visual` texts (an `expr` that renders as sent is not kept:
    /// `keep(expr:of:)`).
    var texts = StringPool()
    var exprScratch: [UInt8] = []
    /// The room each VFL format is read into (`VisualShape.read`).
    var formatScratch = VisualShape()
    /// False for a one-shot layout's document, which is never given back: it keeps no text
    /// as sent (an `expr`'s, a VFL format) and no VFL group's `options` and `metrics`.
    var keepsSentText = true
    /// False for a document read only to be compared (`diff(to:)`): its labels are not
    /// measured, which is most of a build's text work.
    var measuresText = true
    /// A VFL group's `options` and `metrics` as sent, when it had any.
    var groupExtras = GroupExtras()
    var liveViews = 0, liveAtoms = 0
    /// Live views with text: when 0 (most documents) a change does no text work at all.
    var textViews = 0
    /// Stacks' spacer guides among the live views (not the client's: not counted as views).
    var guideViews = 0
    var freeViews: [ViewRef] = [], freeAtoms: [AtomRef] = [], freeEntries: [EntryRef] = []
    var nextAuto = 1
    /// Server-shaped ids (`c7`, by number) that the change being read sends further on: an
    /// unnamed constraint before them is given another (a document read back and edited).
    var reservedAuto: Set<Int> = []
    /// Whether slot order is document order (nothing placed, no slot reused): then the live
    /// views are walked in place, no list sorted.
    var viewsInSlotOrder = true
    /// True once a constraint was given an id shaped like a server-given one (`autoID`), or
    /// like a VFL group's member (`row.0`): until then neither kind of name can be taken, and
    /// none is looked up.
    var autoShapedIDs = false, memberShapedIDs = false
    /// Creation numbers: views', and entries' and atoms' (kept in 32 bits: `newAtom`,
    /// `newEntrySequence`).
    var sequence = 0
    var atomSequence: Int32 = 0
    var entrySequence: Int32 = 0

    /// What the ops in progress touched: read by the session, reset by `settle`.
    var changes = ChangeLog()
    /// False while the document is built from a body, until the session has translated it:
    /// every atom is new (none is listed dirty: the build translates them all) and nothing
    /// is removed (no churn is noted). Listing and noting each atom was ~2.5 M
    /// instructions of the 1,000-cell feed's build.
    var isBuilt = false
    /// Stack views by ref: the constraints and guides each made; and those to make again.
    var stacks: [ViewRef: StackState] = [:]
    /// Whether some stack shares proportionally (what a nested view's change may resize).
    var proportionalStacks = false
    /// Whether a document's constraint has related an arranged view to its stack (now or
    /// once): only then does remaking a stack after the build look for such pins.
    var stacksPinned = false

    public var viewCount: Int { liveViews - guideViews }
    public var constraintCount: Int { liveAtoms }

    public init() {}

    func viewRef(_ id: String) -> ViewRef? { viewNamed.find(id) { views[Int($0)].spec.id } }
    /// The table first: a set-constant names its constraint by the client's id, and pays
    /// nothing for the server's ids.
    func entryRef(_ id: String) -> EntryRef? {
        if let e = entryNamed.find(id, name: { entries[Int($0)].id }) { return e }
        guard !autoEntries.isEmpty, let n = Self.autoNumber(id), n < autoEntries.count, autoEntries[n] != .noRef else { return nil }
        return autoEntries[n]
    }

    /// The server's id numbered n (`c7`).
    static func serverID(_ n: Int) -> String { numbered("c", n) }

    /// n, for an id written as `serverID(n)` (no sign, no leading zero, nine digits at most).
    static func autoNumber(_ id: String) -> Int? {
        var id = id
        return id.withUTF8 { b in
            guard b.count >= 2, b.count <= 10, b[0] == UInt8(ascii: "c"), b[1] != UInt8(ascii: "0") || b.count == 2 else { return nil }
            var n = 0
            for c in b[1...] {
                guard c &- 48 < 10 else { return nil }
                n = n * 10 + Int(c &- 48)
            }
            return n
        }
    }

    func view(_ id: String) -> ViewRecord? { viewRef(id).map { views[Int($0)] } }

    /// Room for a whole document's views and constraints, so the tables grow once.
    mutating func reserve(views n: Int, constraints m: Int) {
        views.reserveCapacity(views.count + n)
        // A first batch's table of ids becomes the document's (`addViews`): none made here.
        if viewNamed.count > 0 { viewNamed.reserveCapacity(viewNamed.count + n) }
        entries.reserveCapacity(entries.count + m)
        entryNamed.reserveCapacity(entryNamed.count + m)
        atoms.reserveCapacity(atoms.count + m + 4 * n)  // intrinsic sizes add up to four per view
        changes.dirtyViews.reserveCapacity(changes.dirtyViews.count + n)
    }

    /// The record arrays and name tables at their size, for a document kept after its build:
    /// the build reserves room by an estimate (four implicit atoms a view; a body read in
    /// place guesses its entries from its bytes), which a kept session held unused (1,000-cell
    /// feed: 2,000 atoms, 19 bytes a view; entry names, 26).
    mutating func trim() {
        Self.trim(&views)
        Self.trim(&atoms)
        Self.trim(&entries)
        Self.trim(&groupMembers)
        viewNamed.trim()
        entryNamed.trim()
        Self.trim(&autoEntries)
    }

    /// Copied through a buffer: `Array(a)` would keep a's storage.
    private static func trim<T>(_ a: inout [T]) {
        if a.capacity > a.count + a.count / 32 + 16 { a = a.withUnsafeBufferPointer { Array($0) } }
    }

    // MARK: Bookkeeping

    mutating func markDirty(atom a: AtomRef) {
        guard isBuilt, !atoms[Int(a)].dirty else { return }
        atoms[Int(a)].dirty = true
        changes.dirtyAtoms.append(a)
    }

    mutating func markDirty(view v: ViewRef) {
        guard !views[Int(v)].dirty else { return }
        views[Int(v)].dirty = true
        changes.dirtyViews.append(v)
    }

    mutating func newAtom(_ atom: Atom) -> AtomRef {
        var atom = atom
        if atomSequence == .max { renumberAtoms() }
        atomSequence += 1
        atom.sequence = atomSequence
        liveAtoms += 1
        if let a = freeAtoms.takeLast() { atoms[Int(a)] = atom; return a }
        atoms.append(atom)
        return AtomRef(atoms.count - 1)
    }

    /// The live atoms numbered again from 1, in their order: what 32-bit creation numbers
    /// cost, once in two billion atoms made.
    mutating func renumberAtoms() {
        let order = atoms.indices.filter { atoms[$0].live }.sorted { atoms[$0].sequence < atoms[$1].sequence }
        for (n, a) in order.enumerated() { atoms[a].sequence = Int32(n + 1) }
        atomSequence = Int32(order.count)
    }

    /// The next entry's creation number; the live entries are numbered again from 1, in
    /// their order, once in two billion.
    mutating func newEntrySequence() -> Int32 {
        if entrySequence == .max {
            let order = entries.indices.filter { entries[$0].live }.sorted { entries[$0].sequence < entries[$1].sequence }
            for (n, e) in order.enumerated() { entries[e].sequence = Int32(n + 1) }
            entrySequence = Int32(order.count)
        }
        entrySequence += 1
        return entrySequence
    }

    /// Entries just added, to be listed just before `anchor` (`addConstraints` with
    /// `before`): placed in `prepare`, once for the whole change.
    mutating func place(_ moved: [EntryRef], before anchor: EntryRef) {
        if !moved.isEmpty { changes.placements.append((moved, anchor)) }
    }

    /// Views just added, or moved, to be listed just before `anchor` (noRef: last; `addViews`
    /// and `updateView` with `before`): placed in `prepare`, with the entries.
    mutating func place(views moved: [ViewRef], before anchor: ViewRef) {
        if !moved.isEmpty { changes.viewPlacements.append((moved, anchor)) }
    }

    /// `order` (slots in their order) with each placement's slots moved, in turn, just
    /// before its anchor (-1: to the end), through a linked list: one pass for the whole
    /// change (a pass each was quadratic in a PUT that inserts in many places). A slot placed
    /// or named as an anchor is in `order` even if removed since: it holds its place for
    /// what was placed around it.
    static func placed(_ order: [Int], slots: Int, _ placements: [(moved: [Int], anchor: Int)]) -> [Int] {
        var next = [Int](repeating: -1, count: slots), prev = next
        for (a, b) in zip(order, order.dropFirst()) { (next[a], prev[b]) = (b, a) }
        var (head, tail) = (order.first ?? -1, order.last ?? -1)
        for (moved, at) in placements {
            for e in moved where e != at {
                if prev[e] >= 0 { next[prev[e]] = next[e] } else { head = next[e] }
                if next[e] >= 0 { prev[next[e]] = prev[e] } else { tail = prev[e] }
                let before = at >= 0 ? prev[at] : tail
                (prev[e], next[e]) = (before, at)
                if before >= 0 { next[before] = e } else { head = e }
                if at >= 0 { prev[at] = e } else { tail = e }
            }
        }
        var out: [Int] = []
        out.reserveCapacity(order.count)
        var e = head
        while e >= 0 { out.append(e); e = next[e] }
        return out
    }

    /// The change's constraint placements: entries numbered again in their new order, then
    /// atoms. An entry's atoms follow it; the others (content sizes, stacks) keep their
    /// places among all atoms, so what stays keeps its relative order and nothing in the
    /// engine changes.
    private mutating func settlePlacements() {
        defer { changes.placements.removeAll() }
        let placed = Set(changes.placements.flatMap { $0.moved + [$0.anchor] })
        let order = entries.indices.filter { entries[$0].live || placed.contains(EntryRef($0)) }
            .sorted { entries[$0].sequence < entries[$1].sequence }
        let moves = changes.placements.map { (moved: $0.moved.map { Int($0) }, anchor: Int($0.anchor)) }
        var n: Int32 = 0
        for e in Self.placed(order, slots: entries.count, moves) where entries[e].live {
            n += 1
            entries[e].sequence = n
        }
        entrySequence = n
        let slots = atoms.indices.filter { atoms[$0].live }.sorted { atoms[$0].sequence < atoms[$1].sequence }
        func entry(_ a: Int) -> EntryRef? {
            switch atoms[a].origin {
            case .entry(let e), .member(let e, _): return e
            case .implicit, .stack: return nil
            }
        }
        // Stable: a group's members keep their order.
        var theirs = slots.filter { entry($0) != nil }
        theirs = theirs.enumerated().sorted {
            (entries[Int(entry($0.element)!)].sequence, $0.offset) < (entries[Int(entry($1.element)!)].sequence, $1.offset)
        }
        .map(\.element)
        var k = 0
        for (i, a) in slots.enumerated() {
            var x = a
            if entry(a) != nil { (x, k) = (theirs[k], k + 1) }
            atoms[x].sequence = Int32(i + 1)
        }
        atomSequence = Int32(slots.count)
    }

    /// The change's view placements: views numbered again in their new order (what a
    /// content size ranks by in a conflict, and GET's order), each after its parent, as a new
    /// session of the document lists them (its views are inserted parents first).
    private mutating func settleViewPlacements() {
        defer { changes.viewPlacements.removeAll() }
        let placed = Set(changes.viewPlacements.flatMap { $0.moved + [$0.anchor] })
        let order = views.indices.filter { views[$0].live || placed.contains(ViewRef($0)) }.sorted { views[$0].sequence < views[$1].sequence }
        let moves = changes.viewPlacements.map { (moved: $0.moved.map { Int($0) }, anchor: Int($0.anchor)) }
        var n = 0, inSlots = true, last = -1, done = [Bool](repeating: false, count: views.count), chain: [Int] = []
        for v in Self.placed(order, slots: views.count, moves) where views[v].live {
            // The view, after those of its ancestors not listed yet.
            var u = v
            while u >= 0 && !done[u] {
                chain.append(u)
                u = Int(views[u].parent)
            }
            while let w = chain.popLast() {
                done[w] = true
                n += 1
                views[w].sequence = n
                if w < last { inSlots = false }
                last = w
            }
        }
        sequence = n
        viewsInSlotOrder = inSlots
        changes.ranksMoved = true
    }

    mutating func freeAtom(_ a: AtomRef) {
        atoms[Int(a)].live = false
        liveAtoms -= 1
        changes.freedAtoms.append(a)
    }

    /// An entry with a server number is found by it, any other by its name.
    /// Taken, not copied (a copy and the caller's destroy were ~130 instructions an entry;
    /// `__owned`: `consuming` crashed this compiler, signal 11).
    mutating func newEntry(_ entry: __owned Entry) -> EntryRef {
        let free = freeEntries.takeLast()
        let e = free ?? EntryRef(entries.count)
        if let n = entry.autoNumber {
            autoEntries.grow(toInclude: n, with: .noRef)
            autoEntries[n] = e
        } else {
            entryNamed.insert(e, named: entry.id)
        }
        if free != nil { entries[Int(e)] = entry } else { entries.append(entry) }
        return e
    }

    /// A VFL group's members by position, removed ones included (`noRef`).
    func members(of e: EntryRef) -> ArraySlice<AtomRef> {
        let at = Int(entries[Int(e)].membersAt)
        return groupMembers[at..<at + Int(entries[Int(e)].memberCount)]
    }

    /// Where member k of group e is in `groupMembers`.
    func memberIndex(_ k: Int, of e: EntryRef) -> Int { Int(entries[Int(e)].membersAt) + k }

    /// An entry's live atoms: its group's members, or its one atom.
    func liveMembers(of e: EntryRef) -> [AtomRef] {
        entries[Int(e)].form == .visual ? members(of: e).filter { $0 != .noRef } : [entries[Int(e)].atom]
    }

    /// The members appended last, from `first` on, as entry e's group.
    mutating func setMembers(from first: Int, of e: EntryRef) {
        precondition(groupMembers.count < Int(UInt32.max), "a document's groups hold less than 4 G members")
        entries[Int(e)].membersAt = UInt32(first)
        entries[Int(e)].memberCount = UInt32(groupMembers.count - first)
    }

    mutating func freeEntry(_ e: EntryRef) {
        entries[Int(e)].live = false
        // A freed group's members are a hole until there are more holes than members.
        deadMembers += Int(entries[Int(e)].memberCount)
        entries[Int(e)].memberCount = 0
        if deadMembers > 4096 && deadMembers > groupMembers.count / 2 { repackMembers() }
        if !groupExtras.isEmpty { groupExtras[e] = nil }
        if let n = entries[Int(e)].autoNumber, n < autoEntries.count, autoEntries[n] == e {
            autoEntries[n] = .noRef
        } else {
            entryNamed.remove(e, named: entries[Int(e)].id)
        }
        texts.remove(entries[Int(e)].text)
        entries[Int(e)].text = .empty
        changes.freedEntries.append(e)
        if texts.wantsRepacking {
            var packed = StringPool()
            for k in entries.indices { entries[k].text = texts.copy(entries[k].text, into: &packed) }
            texts = packed
        }
    }

    /// The live groups' members copied into a new list, holes left out.
    private mutating func repackMembers() {
        var packed: [AtomRef] = []
        packed.reserveCapacity(groupMembers.count - deadMembers)
        for k in entries.indices where entries[k].memberCount > 0 {
            packed.append(contentsOf: members(of: EntryRef(k)))
            entries[k].membersAt = UInt32(packed.count) - entries[k].memberCount
        }
        (groupMembers, deadMembers) = (packed, 0)
    }

    /// Before the session reads the change: atoms naming restyled views become dirty
    /// (one pass over the atoms, however many views an op restyled).
    mutating func prepare() {
        if !changes.placements.isEmpty { settlePlacements() }
        if !changes.viewPlacements.isEmpty { settleViewPlacements() }
        if !changes.dirtyStacks.isEmpty { syncStacks() }
        guard !changes.restyledViews.isEmpty else { return }
        for a in atoms.indices where atoms[a].live {
            let x = atoms[a]
            if views[Int(x.first)].restyled || (x.hasSecond && views[Int(x.second)].restyled) { markDirty(atom: AtomRef(a)) }
        }
        for v in changes.restyledViews { views[Int(v)].restyled = false }
        changes.restyledViews.removeAll()
    }

    /// After the session has taken the change: clears what it touched and releases the
    /// slots it freed for reuse.
    mutating func settle() {
        assert(
            changes.placements.isEmpty && changes.viewPlacements.isEmpty && changes.restyledViews.isEmpty && changes.dirtyStacks.isEmpty,
            "prepare consumed these")
        for a in changes.dirtyAtoms { atoms[Int(a)].dirty = false }
        for v in changes.dirtyViews { views[Int(v)].dirty = false }
        freeViews += changes.freedViews; freeAtoms += changes.freedAtoms; freeEntries += changes.freedEntries
        changes.reset()
    }

    // MARK: Options

    mutating func setOptions(_ json: JSON, at p: Pointer) throws(LayoutError) {
        guard let members = json.members else { throw p.fail("options must be an object") }
        for (k, v) in members {
            switch k {
            case "layoutDirection":
                guard let s = v.string, let d = LayoutDirection(rawValue: s) else { throw p(k).fail("layoutDirection is \"ltr\" or \"rtl\"") }
                if d != options.layoutDirection {
                    options.layoutDirection = d
                    for a in atoms.indices
                    where atoms[a].live
                        && (atoms[a].firstAttribute.isDirectional || (atoms[a].hasSecond && atoms[a].secondAttribute.isDirectional))
                    {
                        markDirty(atom: AtomRef(a))
                    }
                }
            case "scale":
                var scale: Double? = nil
                if !v.isNull {
                    // At least 0.001: a smaller (subnormal) scale makes 1/scale infinite and rounds every frame to 0.
                    guard let n = v.number, n >= 0.001, n <= 16 else { throw p(k).fail("scale is a number from 0.001 to 16, or null") }
                    scale = n
                }
                // Every frame is rounded anew: each view is reported again (no variable moves).
                if scale != options.scale, isBuilt { for v in views.indices where views[v].live { markDirty(view: ViewRef(v)) } }
                options.scale = scale
            default:
                throw p(k).fail("unknown option '\(k)'")
            }
        }
    }
}
