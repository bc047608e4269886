import JSON
import TextLayout
import ConstraintSolver

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
    var viewNamed: [String: ViewRef] = [:]
    var atoms: [Atom] = []
    var entries: [Entry] = []
    var entryNamed: [String: EntryRef] = [:]
    /// A VFL group's `options` and `metrics` as sent, when it had any.
    var groupExtras: [EntryRef: (options: JSON?, metrics: JSON?)] = [:]
    var liveViews = 0, liveAtoms = 0
    /// Live views with text: when 0 (most documents) a change does no text work at all.
    var textViews = 0
    /// Stacks' spacer guides among the live views (not the client's: not counted as views).
    var guideViews = 0
    private var freeViews: [ViewRef] = [], freeAtoms: [AtomRef] = [], freeEntries: [EntryRef] = []
    private var freedViews: [ViewRef] = [], freedAtoms: [AtomRef] = [], freedEntries: [EntryRef] = []
    var nextAuto = 1
    var sequence = 0

    // What the ops in progress touched (read by the session, cleared by `settle`).
    var dirtyAtoms: [AtomRef] = []
    var dirtyViews: [ViewRef] = []
    var removedViews: [ViewRef] = []
    var churnRemoved: [(atom: AtomRef, shape: Atom.Shape)] = []
    var churnAdded: [(atom: AtomRef, shape: Atom.Shape)] = []
    private var restyledViews: [ViewRef] = []
    /// Stack views by ref: the constraints and guides each made; and those to make again.
    var stacks: [ViewRef: StackState] = [:]
    var dirtyStacks: [ViewRef] = []

    public var viewCount: Int { liveViews - guideViews }
    public var constraintCount: Int { liveAtoms }

    public init() {}

    func view(_ id: String) -> ViewRecord? { viewNamed[id].map { views[Int($0)] } }

    /// Room for a whole document's views and constraints, so the tables grow once.
    mutating func reserve(views n: Int, constraints m: Int) {
        views.reserveCapacity(views.count + n)
        viewNamed.reserveCapacity(viewNamed.count + n)
        entries.reserveCapacity(entries.count + m)
        entryNamed.reserveCapacity(entryNamed.count + m)
        atoms.reserveCapacity(atoms.count + m + 4 * n)   // intrinsic sizes add up to four per view
        dirtyAtoms.reserveCapacity(dirtyAtoms.count + m + 4 * n)
        dirtyViews.reserveCapacity(dirtyViews.count + n)
    }

    // MARK: Bookkeeping

    mutating func markDirty(atom a: AtomRef) {
        guard !atoms[Int(a)].dirty else { return }
        atoms[Int(a)].dirty = true
        dirtyAtoms.append(a)
    }

    mutating func markDirty(view v: ViewRef) {
        guard !views[Int(v)].dirty else { return }
        views[Int(v)].dirty = true
        dirtyViews.append(v)
    }

    mutating func newAtom(_ atom: Atom) -> AtomRef {
        liveAtoms += 1
        if let a = freeAtoms.popLast() { atoms[Int(a)] = atom; return a }
        atoms.append(atom)
        return AtomRef(atoms.count - 1)
    }

    mutating func freeAtom(_ a: AtomRef) {
        atoms[Int(a)].live = false
        liveAtoms -= 1
        freedAtoms.append(a)
    }

    mutating func newEntry(_ entry: Entry) -> EntryRef {
        let e: EntryRef
        if let r = freeEntries.popLast() { e = r; entries[Int(r)] = entry } else { entries.append(entry); e = EntryRef(entries.count - 1) }
        entryNamed[entry.id] = e
        return e
    }

    mutating func freeEntry(_ e: EntryRef) {
        entries[Int(e)].live = false
        if !groupExtras.isEmpty { groupExtras[e] = nil }
        entryNamed[entries[Int(e)].id] = nil
        freedEntries.append(e)
    }

    /// Before the session reads the change: atoms naming restyled views become dirty
    /// (one pass over the atoms, however many views an op restyled).
    mutating func prepare() {
        if !dirtyStacks.isEmpty { syncStacks() }
        guard !restyledViews.isEmpty else { return }
        for a in atoms.indices where atoms[a].live {
            let x = atoms[a]
            if views[Int(x.first)].restyled || (x.hasSecond && views[Int(x.second)].restyled) { markDirty(atom: AtomRef(a)) }
        }
        for v in restyledViews { views[Int(v)].restyled = false }
        restyledViews.removeAll()
    }

    /// After the session has taken the change: clears what it touched and releases the
    /// slots it freed for reuse.
    mutating func settle() {
        for a in dirtyAtoms { atoms[Int(a)].dirty = false }
        for v in dirtyViews { views[Int(v)].dirty = false }
        dirtyAtoms.removeAll(keepingCapacity: true)
        dirtyViews.removeAll(keepingCapacity: true)
        removedViews.removeAll()
        churnAdded.removeAll()
        churnRemoved.removeAll()
        freeViews += freedViews; freeAtoms += freedAtoms; freeEntries += freedEntries
        freedViews.removeAll(); freedAtoms.removeAll(); freedEntries.removeAll()
    }

    // MARK: Views

    /// Live views in document order.
    var viewOrder: [ViewRef] {
        var out: [ViewRef] = []
        out.reserveCapacity(liveViews)
        for v in views.indices where views[v].live { out.append(ViewRef(v)) }
        // Slots are reused, so slot order is insertion order only until the first removal.
        if liveViews != views.count { out.sort { views[Int($0)].sequence < views[Int($1)].sequence } }
        return out
    }

    /// Each live view's children, in document order.
    func childLists() -> [ViewRef: [ViewRef]] {
        var out: [ViewRef: [ViewRef]] = [:]
        for v in viewOrder where views[Int(v)].parent != noRef { out[views[Int(v)].parent, default: []].append(v) }
        return out
    }

    /// Adds views given in any order (a parent may come after its child in the list).
    mutating func addViews(_ specs: [(ViewSpec, Pointer)]) throws(LayoutError) {
        var batch: [String: Int] = [:]
        batch.reserveCapacity(specs.count)
        for (k, (v, p)) in specs.enumerated() {
            if viewNamed[v.id] != nil || batch[v.id] != nil { throw p("id").fail("a view '\(v.id)' exists already") }
            batch[v.id] = k
        }
        // Parents exist (in the session or the batch) and form no cycle.
        for (v, p) in specs {
            guard let parent = v.parent else { continue }
            guard viewNamed[parent] != nil || batch[parent] != nil else { throw p("parent").fail("unknown parent view '\(parent)'") }
            var seen: Set<String> = [v.id]
            var u: String? = parent
            while let cur = u, let k = batch[cur] {
                if !seen.insert(cur).inserted { throw p("parent").fail("the parent chain of '\(v.id)' loops") }
                u = specs[k].0.parent
            }
        }
        func insert(_ k: Int) {
            let v = specs[k].0
            if viewNamed[v.id] != nil { return }   // inserted already, as an earlier view's parent
            var parent = noRef
            if let p = v.parent {
                if let pk = batch[p] { insert(pk) }
                parent = viewNamed[p]!
            }
            sequence += 1
            let r = insertRecord(ViewRecord(spec: v, parent: parent, sequence: sequence))
            viewNamed[v.id] = r
            liveViews += 1
            if v.text != nil { textViews += 1 }
            markDirty(view: r)
            syncImplicit(r, isNew: true)
        }
        for k in specs.indices { insert(k) }
        // Stacks are checked once the whole batch is in (an arranged view may come after its stack).
        for (v, p) in specs {
            let r = viewNamed[v.id]!
            if let parent = v.parent, let s = viewNamed[parent], views[Int(s)].spec.stack?.arranged.contains(v.id) == true { markStackDirty(s) }
            guard v.stack != nil else { continue }
            try checkStack(r, at: p)
            markStackDirty(r)
        }
    }

    /// A record in a free slot or a new one.
    mutating func insertRecord(_ record: ViewRecord) -> ViewRef {
        if let free = freeViews.popLast() { views[Int(free)] = record; return free }
        views.append(record)
        return ViewRef(views.count - 1)
    }

    /// A removed view's slot, free for reuse once the session has taken the change.
    mutating func freeView(_ v: ViewRef) { freedViews.append(v) }

    mutating func removeViews(_ ids: [String], at p: Pointer) throws(LayoutError) {
        var roots: [ViewRef] = []
        for (k, id) in ids.enumerated() {
            guard let r = viewNamed[id] else { throw p(k).fail("unknown view '\(id)'") }
            roots.append(r)
        }
        // The views and all their descendants.
        var gone = [Bool](repeating: false, count: views.count)
        let children = childLists()
        var stack = roots
        while let v = stack.popLast() {
            if gone[Int(v)] { continue }
            gone[Int(v)] = true
            stack += children[v] ?? []
        }
        for a in atoms.indices where atoms[a].live {
            let x = atoms[a]
            if gone[Int(x.first)] || (x.hasSecond && gone[Int(x.second)]) { removeAtom(AtomRef(a)) }
        }
        // Stacks that lose arranged views rearrange; removed stacks drop their guides.
        for v in views.indices where gone[v] {
            let parent = views[v].parent
            if parent != noRef, !gone[Int(parent)], views[Int(parent)].spec.stack != nil {
                let id = views[v].spec.id
                views[Int(parent)].spec.stack!.arranged.removeAll { $0 == id }
                markStackDirty(parent)
            }
            if views[v].spec.stack != nil, !views[v].internalGuide { dropStack(ViewRef(v)) }
        }
        for v in views.indices where gone[v] && views[v].live {
            views[v].live = false
            viewNamed[views[v].spec.id] = nil
            liveViews -= 1
            if views[v].spec.text != nil { textViews -= 1 }
            if views[v].internalGuide { guideViews -= 1 }
            removedViews.append(ViewRef(v))
            freedViews.append(ViewRef(v))
        }
    }

    mutating func updateView(_ id: String, fields: [(key: String, value: JSON)], at p: Pointer) throws(LayoutError) {
        guard let r = viewNamed[id] else { throw p("id").fail("unknown view '\(id)'") }
        var v = views[Int(r)].spec
        let before = v
        for (k, value) in fields where k != "id" && k != "op" {
            if k == "parent" {
                guard value.string == v.parent || (value.isNull && v.parent == nil) else {
                    throw p(k).fail("parent cannot change: remove the view and add it again")
                }
                continue
            }
            try v.apply(field: k, value, at: p(k))
        }
        try v.checkText(at: p)
        try v.checkKind(at: p)
        if (v.text != nil) != (before.text != nil) { textViews += v.text != nil ? 1 : -1 }
        views[Int(r)].spec = v
        if v.stack != before.stack {
            try checkStack(r, at: p)
            if v.stack != nil { markStackDirty(r) } else { dropStack(r) }
        }
        if views[Int(r)].parent != noRef, views[Int(views[Int(r)].parent)].spec.stack?.arranged.contains(id) == true {
            markStackDirty(views[Int(r)].parent)
        }
        if v.hidden != before.hidden { markDirty(view: r) }
        if v.alignmentInsets != before.alignmentInsets || v.margins != before.margins
            || v.firstBaseline != before.firstBaseline || v.lastBaseline != before.lastBaseline || v.text != before.text, !views[Int(r)].restyled {
            views[Int(r)].restyled = true
            restyledViews.append(r)
        }
        syncImplicit(r)
    }

    /// Keeps the implicit constraints of a view (fixed frame, intrinsic size) in step with
    /// its fields. A new view has none yet: only those it needs are made.
    mutating func syncImplicit(_ r: ViewRef, isNew: Bool = false) {
        let v = views[Int(r)].spec
        if isNew && v.frame == nil && v.intrinsicWidth == nil && v.intrinsicHeight == nil && v.text == nil { return }
        measureText(r)
        let record = views[Int(r)]
        let frame = v.frame
        let parts: [(ImplicitKind, Attribute, Double?)] = [(.frameX, .left, frame?.x), (.frameY, .top, frame?.y),
                                                           (.frameWidth, .width, frame?.width), (.frameHeight, .height, frame?.height)]
        for (kind, attr, value) in parts where !(isNew && value == nil) {
            setImplicit(kind, of: r, value.map { (attr, Relation.equal, $0, Priority.required) })
        }
        let sizes: [(ImplicitKind, Attribute, Double?, Relation, Double)] = [
            (.huggingH, .width, record.intrinsicWidth, .lessOrEqual, v.hugging.h),
            (.huggingV, .height, record.intrinsicHeight, .lessOrEqual, v.hugging.v),
            (.compressionH, .width, record.intrinsicWidth, .greaterOrEqual, v.compression.h),
            (.compressionV, .height, record.intrinsicHeight, .greaterOrEqual, v.compression.v),
        ]
        for (kind, attr, size, relation, priority) in sizes where !(isNew && size == nil) {
            setImplicit(kind, of: r, size.map { (attr, relation, $0, priority) })
        }
    }

    /// A text view's measurements, made again when its text changed (a new text is first
    /// measured on its natural lines; the session wraps it to the width it gets).
    private mutating func measureText(_ r: ViewRef) {
        guard let t = views[Int(r)].spec.text else {
            views[Int(r)].natural = nil; views[Int(r)].measured = nil; views[Int(r)].wrapWidth = nil
            views[Int(r)].measuredText = nil
            return
        }
        guard views[Int(r)].measuredText != t else { return }
        let natural = t.measure(width: nil)
        views[Int(r)].natural = natural
        views[Int(r)].measured = natural
        views[Int(r)].wrapWidth = nil
        views[Int(r)].measuredText = t
    }

    /// Wraps a text view at `width` (nil: its natural lines) and keeps its intrinsic height
    /// in step. When its line count changes its last baseline moves: the constraints naming
    /// the view are translated again. Returns whether anything changed.
    mutating func wrapText(_ r: ViewRef, at width: Double?) -> Bool {
        guard let t = views[Int(r)].spec.text else { return false }
        let before = views[Int(r)].measured
        views[Int(r)].wrapWidth = width
        let m = width.map { t.measure(width: $0) } ?? views[Int(r)].natural!
        views[Int(r)].measured = m
        guard m != before else { return false }
        syncImplicit(r)
        if m.lines != before?.lines, views[Int(r)].spec.lastBaseline == nil, !views[Int(r)].restyled {
            views[Int(r)].restyled = true
            restyledViews.append(r)
        }
        return true
    }

    private mutating func setImplicit(_ kind: ImplicitKind, of v: ViewRef,
                                      _ wanted: (attribute: Attribute, relation: Relation, constant: Double, priority: Double)?) {
        let old = views[Int(v)].implicit[kind.rawValue]
        if let wanted {
            if old != noRef {
                let x = atoms[Int(old)]
                guard x.firstAttribute != wanted.attribute || x.relation != wanted.relation
                        || x.constant != wanted.constant || x.priority != wanted.priority else { return }
                atoms[Int(old)].firstAttribute = wanted.attribute
                atoms[Int(old)].relation = wanted.relation
                atoms[Int(old)].constant = wanted.constant
                atoms[Int(old)].priority = wanted.priority
                markDirty(atom: old)
                return
            }
            sequence += 1
            let a = newAtom(Atom(first: v, firstAttribute: wanted.attribute, relation: wanted.relation, origin: .implicit(v, kind),
                                 constant: wanted.constant, priority: wanted.priority, sequence: sequence))
            views[Int(v)].implicit[kind.rawValue] = a
            markDirty(atom: a)
        } else if old != noRef {
            views[Int(v)].implicit[kind.rawValue] = noRef
            freeAtom(old)
            markDirty(atom: old)
        }
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
                    for a in atoms.indices where atoms[a].live
                        && (atoms[a].firstAttribute.isDirectional || (atoms[a].hasSecond && atoms[a].secondAttribute.isDirectional)) {
                        markDirty(atom: AtomRef(a))
                    }
                }
            case "scale":
                if v.isNull { options.scale = nil; continue }
                // At least 0.001: a smaller (subnormal) scale makes 1/scale infinite and rounds every frame to 0.
                guard let n = v.number, n >= 0.001, n <= 16 else { throw p(k).fail("scale is a number from 0.001 to 16, or null") }
                options.scale = n
            default:
                throw p(k).fail("unknown option '\(k)'")
            }
        }
    }
}
