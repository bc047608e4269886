import JSON

public struct LayoutOptions: Equatable, Sendable {
    public var layoutDirection: LayoutDirection = .ltr
    /// Frames are rounded to multiples of 1/scale when set.
    public var scale: Double? = nil
    public init() {}
}

/// One engine-level constraint of the document, explicit or implicit.
struct AtomRecord: Equatable {
    var atom: AtomicConstraint
    var active = true
    /// The entry (document-level constraint) it belongs to.
    var entry: String?
    /// For implicit constraints (`V.frame.x`, `V.hugging.h`…): the view they come from.
    var implicitView: String?
    /// 0…3 for x, y, width, height of a fixed frame: these act on the frame, not the alignment rect.
    var frameComponent: Int?
    /// Creation order, so engine adds happen in document order.
    var sequence: Int
}

/// A document-level constraint as the client sent it.
struct EntryRecord {
    var id: String
    var json: JSON
    var members: [String]
    var isVisual: Bool
    /// A VFL group that lost or changed members is listed as its remaining constraints.
    var edited = false
    /// An explicit or expr entry whose atom changed since `json` was written.
    var stale = false
}

/// The layout document: views, constraints and options, with every rule of the contract
/// checked as it changes. A value type: a change works on a copy, so a failing op leaves
/// the session's document exactly as it was.
public struct LayoutDocument {
    public internal(set) var options = LayoutOptions()
    var views: [String: ViewSpec] = [:]
    /// Each view's JSON as sent, with `updateView` fields merged in.
    var viewSource: [String: JSON] = [:]
    var viewOrder: [String] = []
    var children: [String: [String]] = [:]
    var entries: [String: EntryRecord] = [:]
    var entryOrder: [String] = []
    var atoms: [String: AtomRecord] = [:]
    var atomsOfView: [String: Set<String>] = [:]
    var nextAuto = 1
    var sequence = 0

    // What the ops in progress touched (read and cleared by the session).
    var dirtyAtoms: Set<String> = []
    var dirtyViews: Set<String> = []
    var removedViews: Set<String> = []
    var churnRemoved: [(id: String, atom: AtomicConstraint)] = []
    var churnAdded: [(id: String, atom: AtomicConstraint)] = []

    public var viewCount: Int { views.count }
    public var constraintCount: Int { atoms.count }

    public init() {}

    func view(_ id: String) -> ViewSpec? { views[id] }

    // MARK: Views

    /// Room for a whole document's views and constraints, so the tables grow once instead
    /// of doubling (and moving every record) again and again: that rehashing was 10% of
    /// building a 1,000-cell session.
    mutating func reserve(views n: Int, constraints m: Int) {
        views.reserveCapacity(views.count + n)
        viewSource.reserveCapacity(viewSource.count + n)
        viewOrder.reserveCapacity(viewOrder.count + n)
        atomsOfView.reserveCapacity(atomsOfView.count + n)
        entries.reserveCapacity(entries.count + m)
        entryOrder.reserveCapacity(entryOrder.count + m)
        atoms.reserveCapacity(atoms.count + m + 2 * n)  // intrinsic sizes add up to two per view
        dirtyAtoms.reserveCapacity(dirtyAtoms.count + m + 2 * n)
        dirtyViews.reserveCapacity(dirtyViews.count + n)
    }

    /// Adds views given in any order (a parent may come after its child in the list).
    mutating func addViews(_ specs: [(ViewSpec, JSON, Pointer)]) throws(LayoutError) {
        var batch: [String: Int] = [:]
        for (k, (v, _, p)) in specs.enumerated() {
            if views[v.id] != nil || batch[v.id] != nil { throw p("id").fail("a view '\(v.id)' exists already") }
            batch[v.id] = k
        }
        // Parents exist (in the session or the batch) and form no cycle.
        for (v, _, p) in specs {
            guard let parent = v.parent else { continue }
            guard views[parent] != nil || batch[parent] != nil else { throw p("parent").fail("unknown parent view '\(parent)'") }
            var seen: Set<String> = [v.id]
            var u: String? = parent
            while let cur = u, let k = batch[cur] {
                if !seen.insert(cur).inserted { throw p("parent").fail("the parent chain of '\(v.id)' loops") }
                u = specs[k].0.parent
            }
        }
        func insert(_ k: Int) {
            let v = specs[k].0
            if views[v.id] != nil { return }   // inserted already, as an earlier view's parent
            if let parent = v.parent, let pk = batch[parent] { insert(pk) }
            views[v.id] = v
            viewSource[v.id] = specs[k].1
            viewOrder.append(v.id)
            if let parent = v.parent { children[parent, default: []].append(v.id) }
            dirtyViews.insert(v.id)
            if !removedViews.isEmpty { removedViews.remove(v.id) }
            syncImplicit(v.id, isNew: true)
        }
        for k in specs.indices { insert(k) }
    }

    /// The view and all its descendants, parents first.
    func subtree(_ id: String) -> [String] {
        var out = [id]
        var k = 0
        while k < out.count { out.append(contentsOf: children[out[k]] ?? []); k += 1 }
        return out
    }

    mutating func removeViews(_ ids: [String], at p: Pointer) throws(LayoutError) {
        for (k, id) in ids.enumerated() where views[id] == nil { throw p(k).fail("unknown view '\(id)'") }
        var gone: Set<String> = []
        for id in ids { gone.formUnion(subtree(id)) }
        for v in gone.sorted() {
            for a in atomsOfView[v] ?? [] { removeAtom(a) }
            atomsOfView[v] = nil
        }
        for v in gone {
            if let parent = views[v]?.parent, !gone.contains(parent) { children[parent]?.removeAll { $0 == v } }
            views[v] = nil
            viewSource[v] = nil
            children[v] = nil
            dirtyViews.remove(v)
            removedViews.insert(v)
        }
        viewOrder.removeAll { gone.contains($0) }
    }

    mutating func updateView(_ id: String, fields: [(key: String, value: JSON)], at p: Pointer) throws(LayoutError) {
        guard var v = views[id] else { throw p("id").fail("unknown view '\(id)'") }
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
        views[id] = v
        if var m = viewSource[id]?.members {
            for (k, value) in fields where k != "id" && k != "op" && k != "parent" {
                if let i = m.firstIndex(where: { $0.key == k }) { m[i].value = value } else { m.append((k, value)) }
            }
            viewSource[id] = .object(m)
        }
        if v.hidden != before.hidden { dirtyViews.insert(id) }
        if v.alignmentInsets != before.alignmentInsets || v.margins != before.margins
            || v.firstBaseline != before.firstBaseline || v.lastBaseline != before.lastBaseline {
            dirtyAtoms.formUnion(atomsOfView[id] ?? [])
        }
        syncImplicit(id)
    }

    /// Keeps the implicit constraints of a view (fixed frame, intrinsic size) in step with its fields.
    /// A new view has no implicit constraints yet: only those it needs are named and looked
    /// up (building and hashing eight ids per view was 5% of a 1,000-cell session).
    mutating func syncImplicit(_ id: String, isNew: Bool = false) {
        guard let v = views[id] else { return }
        if isNew && v.frame == nil && v.intrinsicWidth == nil && v.intrinsicHeight == nil { return }
        let frame = v.frame
        let parts: [(String, Double?)] = [("x", frame?.x), ("y", frame?.y), ("width", frame?.width), ("height", frame?.height)]
        let attrs: [Attribute] = [.left, .top, .width, .height]
        for (k, (name, value)) in parts.enumerated() where !(isNew && value == nil) {
            setImplicit("\(id).frame.\(name)", view: id, value.map {
                AtomicConstraint(first: Anchor(view: id, attribute: attrs[k]), relation: .equal, second: nil, constant: $0)
            }, frameComponent: k)
        }
        func intrinsic(_ suffix: String, _ attr: Attribute, _ size: Double?, _ relation: Relation, _ priority: Double) {
            if isNew && size == nil { return }
            setImplicit("\(id).\(suffix)", view: id, size.map {
                AtomicConstraint(first: Anchor(view: id, attribute: attr), relation: relation, second: nil, constant: $0, priority: priority)
            }, frameComponent: nil)
        }
        intrinsic("hugging.h", .width, v.intrinsicWidth, .lessOrEqual, v.hugging.h)
        intrinsic("hugging.v", .height, v.intrinsicHeight, .lessOrEqual, v.hugging.v)
        intrinsic("compression.h", .width, v.intrinsicWidth, .greaterOrEqual, v.compression.h)
        intrinsic("compression.v", .height, v.intrinsicHeight, .greaterOrEqual, v.compression.v)
    }

    private mutating func setImplicit(_ atomID: String, view: String, _ atom: AtomicConstraint?, frameComponent: Int?) {
        let old = atoms[atomID]
        guard old?.atom != atom else { return }
        if let atom {
            sequence += 1
            atoms[atomID] = AtomRecord(atom: atom, entry: nil, implicitView: view, frameComponent: frameComponent,
                                       sequence: old?.sequence ?? sequence)
            atomsOfView[view, default: []].insert(atomID)
        } else {
            atoms[atomID] = nil
            atomsOfView[view]?.remove(atomID)
        }
        dirtyAtoms.insert(atomID)
    }

    // MARK: Constraints

    /// A fresh server-given id (`c1`, `c2`…), never reused.
    mutating func autoID() -> String {
        while true {
            let id = "c\(nextAuto)"
            nextAuto += 1
            if entries[id] == nil && atoms[id] == nil { return id }
        }
    }

    /// The fields a constraint may have: a switch of short literals, where a Set hashed every
    /// member's key of every constraint of a document.
    static func isEntryField(_ k: String) -> Bool {
        switch k {
        case "id", "first", "relation", "second", "multiplier", "constant", "priority", "active",
             "expr", "visual", "options", "metrics": return true
        default: return false
        }
    }

    mutating func addConstraint(_ json: JSON, at p: Pointer) throws(LayoutError) -> String {
        guard let members = json.members else { throw p.fail("a constraint must be an object") }
        for (k, _) in members where !Self.isEntryField(k) { throw p(k).fail("unknown constraint field '\(k)'") }
        var id: String
        if let idv = json["id"], !idv.isNull {
            guard let s = idv.string, !s.isEmpty, s.utf8.count <= 160 else { throw p("id").fail("a constraint id is a non-empty string") }
            guard entries[s] == nil && atoms[s] == nil else { throw p("id").fail("a constraint '\(s)' exists already") }
            id = s
        } else {
            id = autoID()
        }
        var active = true
        if let a = json["active"] {
            guard let b = a.bool else { throw p("active").fail("active must be true or false") }
            active = b
        }
        let forms = ["first", "expr", "visual"].filter { json[$0] != nil }
        guard forms.count == 1 else { throw p.fail("a constraint has exactly one of first, expr or visual") }
        var made: [(String, AtomicConstraint, Pointer)] = []
        var stored = json
        if json["id"] == nil || json["id"]!.isNull {
            stored = .object([("id", .string(id))] + members.filter { $0.key != "id" })
        }
        switch forms[0] {
        case "first":
            for k in ["expr", "visual", "options", "metrics"] where json[k] != nil { throw p(k).fail("'\(k)' does not go with 'first'") }
            made = [(id, try Self.explicit(json, at: p), p)]
        case "expr":
            for k in ["first", "relation", "second", "multiplier", "constant", "priority", "options", "metrics"] where json[k] != nil {
                throw p(k).fail("'\(k)' does not go with 'expr': write it into the expression")
            }
            guard let text = json["expr"]?.string else { throw p("expr").fail("expr must be a string") }
            do { made = [(id, try ExpressionSyntax.parse(text), p("expr"))] }
            catch { throw p("expr").fail("\(error.message) at position \(error.position) of the expression") }
        default:
            for k in ["first", "relation", "second", "multiplier", "constant", "priority"] where json[k] != nil {
                throw p(k).fail("'\(k)' does not go with 'visual'")
            }
            made = try visual(json, id: id, at: p).map { ($0.0, $0.1, p("visual")) }
        }
        for (atomID, atom, ap) in made {
            try checkAtom(atom, at: ap)
            guard atoms[atomID] == nil && (atomID == id || entries[atomID] == nil) else { throw ap.fail("a constraint '\(atomID)' exists already") }
        }
        entries[id] = EntryRecord(id: id, json: stored, members: made.map(\.0), isVisual: forms[0] == "visual")
        entryOrder.append(id)
        for (atomID, atom, _) in made {
            sequence += 1
            atoms[atomID] = AtomRecord(atom: atom, active: active, entry: id, sequence: sequence)
            atomsOfView[atom.first.view, default: []].insert(atomID)
            if let s = atom.second { atomsOfView[s.view, default: []].insert(atomID) }
            dirtyAtoms.insert(atomID)
            if active { churnAdded.append((atomID, atom)) }
        }
        return id
    }

    private static func explicit(_ json: JSON, at p: Pointer) throws(LayoutError) -> AtomicConstraint {
        guard let f = json["first"]?.string else { throw p("first").fail("first must be \"view.attribute\"") }
        let first: Anchor
        switch Anchor.parse(f) { case .success(let a): first = a; case .failure(let m): throw p("first").fail(m.message) }
        var relation = Relation.equal
        if let r = json["relation"] {
            guard let s = r.string, let rel = Relation(rawValue: s) else { throw p("relation").fail("relation is ==, <= or >=") }
            relation = rel
        }
        var second: Anchor? = nil
        if let s = json["second"], !s.isNull {
            guard let str = s.string else { throw p("second").fail("second must be \"view.attribute\" or null") }
            switch Anchor.parse(str) { case .success(let a): second = a; case .failure(let m): throw p("second").fail(m.message) }
        }
        let multiplier = try json["multiplier"].map { (v) throws(LayoutError) in try ViewSpec.number(v, at: p("multiplier"), limit: ViewSpec.maxMultiplier) } ?? 1
        let constant = try json["constant"].map { (v) throws(LayoutError) in try ViewSpec.number(v, at: p("constant")) } ?? 0
        let priority = try json["priority"].map { (v) throws(LayoutError) in try ViewSpec.priority(v, at: p("priority")) } ?? 1000
        return AtomicConstraint(first: first, relation: relation, second: second, multiplier: multiplier, constant: constant, priority: priority)
    }

    private func visual(_ json: JSON, id: String, at p: Pointer) throws(LayoutError) -> [(String, AtomicConstraint)] {
        guard let format = json["visual"]?.string else { throw p("visual").fail("visual must be a string") }
        var options: [String] = []
        if let o = json["options"], !o.isNull {
            guard let arr = o.array else { throw p("options").fail("options must be an array of strings") }
            for (k, x) in arr.enumerated() {
                guard let s = x.string else { throw p("options")(k).fail("an option is a string") }
                options.append(s)
            }
        }
        var metrics: [String: Double] = [:]
        if let m = json["metrics"], !m.isNull {
            guard let members = m.members else { throw p("metrics").fail("metrics must be an object of numbers") }
            for (k, v) in members {
                guard let n = v.number else { throw p("metrics")(k).fail("a metric is a number") }
                metrics[k] = n
            }
        }
        let parsed: VisualFormat.Parsed
        do { parsed = try VisualFormat.parse(format, options: options, metrics: metrics, superview: VisualFormat.superviewToken) }
        catch { throw p("visual").fail("\(error.message) at position \(error.position) of the format") }
        // The views share one parent, which `|` stands for.
        var parent: String?? = .none
        for name in parsed.views {
            guard let v = views[name] else { throw p("visual").fail("unknown view '\(name)' in the format") }
            if case .some(let existing) = parent, existing != v.parent {
                throw p("visual").fail("the views of a format must share one parent ('\(name)' does not)")
            }
            parent = .some(v.parent)
        }
        let sv: String?
        if case .some(let x) = parent { sv = x } else { sv = nil }
        if parsed.usesSuperview && sv == nil { throw p("visual").fail("'|' stands for the views' parent, but they have none") }
        return parsed.constraints.enumerated().map { k, a in
            var a = a
            if a.first.view == VisualFormat.superviewToken { a.first.view = sv! }
            if a.second?.view == VisualFormat.superviewToken { a.second!.view = sv! }
            return ("\(id).\(k)", a)
        }
    }

    private func checkAtom(_ atom: AtomicConstraint, at p: Pointer) throws(LayoutError) {
        guard views[atom.first.view] != nil else { throw p.fail("unknown view '\(atom.first.view)'") }
        if let s = atom.second, views[s.view] == nil { throw p.fail("unknown view '\(s.view)'") }
        if let why = atom.anchorRuleViolation() { throw p.fail(why) }
        guard abs(atom.constant) <= ViewSpec.maxMagnitude else { throw p.fail("the constant \(atom.constant) is outside ±\(fmt(ViewSpec.maxMagnitude))") }
        guard abs(atom.multiplier) <= ViewSpec.maxMultiplier else { throw p.fail("the multiplier \(atom.multiplier) is outside ±\(fmt(ViewSpec.maxMultiplier))") }
        guard atom.priority >= 1 && atom.priority <= 1000 else { throw p.fail("a priority is from 1 to 1000") }
    }

    private mutating func removeAtom(_ atomID: String) {
        guard let rec = atoms.removeValue(forKey: atomID) else { return }
        atomsOfView[rec.atom.first.view]?.remove(atomID)
        if let s = rec.atom.second { atomsOfView[s.view]?.remove(atomID) }
        dirtyAtoms.insert(atomID)
        if rec.active { churnRemoved.append((atomID, rec.atom)) }
        if let e = rec.entry, var entry = entries[e] {
            entry.members.removeAll { $0 == atomID }
            entry.edited = true
            if entry.members.isEmpty {
                entries[e] = nil
                entryOrder.removeAll { $0 == e }
            } else {
                entries[e] = entry
            }
        }
    }

    /// Atom ids an op names: an entry (all its members) or a single member.
    private func resolve(_ id: String, at p: Pointer, allowImplicit: Bool = false) throws(LayoutError) -> [String] {
        if let e = entries[id] { return e.members }
        return [try atomID(id, at: p, allowImplicit: allowImplicit)]
    }

    /// `id` itself when it names an atom (an implicit one only when allowed).
    private func atomID(_ id: String, at p: Pointer, allowImplicit: Bool = false) throws(LayoutError) -> String {
        guard let a = atoms.index(forKey: id) else { throw p.fail("unknown constraint '\(id)'") }
        if atoms.values[a].implicitView != nil && !allowImplicit {
            throw p.fail("'\(id)' is implicit: change the view's frame or intrinsicSize instead")
        }
        return id
    }

    mutating func removeConstraints(_ ids: [String], at p: Pointer) throws(LayoutError) {
        for (k, id) in ids.enumerated() {
            for a in try resolve(id, at: p(k)) { removeAtom(a) }
            if let e = entries[id] { entries[id] = nil; entryOrder.removeAll { $0 == e.id } }
        }
    }

    /// The single atom an op changes (a group id is refused: name a member). The set-constant
    /// hot path: index lookups only, nothing allocated.
    func single(_ id: String, at p: Pointer) throws(LayoutError) -> String {
        guard let e = entries.index(forKey: id) else { return try atomID(id, at: p) }
        let members = entries.values[e].members
        guard members.count == 1, atoms.index(forKey: members[0]) != nil else {
            throw p.fail("'\(id)' is a group of \(members.count) constraints: name one of them (\(members.first ?? id))")
        }
        return members[0]
    }

    mutating func setConstant(_ id: String, _ value: Double, at p: Pointer) throws(LayoutError) {
        guard abs(value) <= ViewSpec.maxMagnitude else { throw p.fail("the constant \(value) is outside ±\(fmt(ViewSpec.maxMagnitude))") }
        try set(\.constant, named: "constant", of: id, to: value, at: p)
    }

    /// The body of a set-constant (`{"id": constant, ...}`): every id and number is checked
    /// before anything changes, then the constants are set and `moved` hears of each atom
    /// whose constant changed. Mutating, so the document is changed in place, never copied.
    mutating func setConstants(_ members: [(key: String, value: JSON)], at p: Pointer,
                               moved: (_ atom: String, _ value: Double) -> Void) throws(LayoutError) {
        if members.count == 1 {   // a drag: no list needed
            let found = try resolveConstant(members[0].key, members[0].value, at: p)
            apply(found, moved)
            return
        }
        var resolved: [ResolvedConstant] = []
        resolved.reserveCapacity(members.count)
        for (id, v) in members { resolved.append(try resolveConstant(id, v, at: p)) }
        for found in resolved { apply(found, moved) }
    }

    /// A set-constant member, checked. Dictionary indices stay valid: nothing is inserted
    /// or removed until every member has been checked.
    private typealias ResolvedConstant = (atom: String, value: Double, atomAt: Dictionary<String, AtomRecord>.Index,
                                          entryAt: Dictionary<String, EntryRecord>.Index?)

    private mutating func resolveConstant(_ id: String, _ v: JSON, at p: Pointer) throws(LayoutError) -> ResolvedConstant {
        // The usual case (a number, a named single constraint) builds no pointer and copies
        // no record (the records are read in place).
        if let n = v.number, abs(n) <= ViewSpec.maxMagnitude, let e = entries.index(forKey: id),
           let a = Self.onlyMember(of: &entries.values[e]), let ai = atoms.index(forKey: a) {
            return (a, n, ai, e)
        }
        let n = try ViewSpec.number(v, at: p(id))
        let a = try single(id, at: p(id))
        return (a, n, atoms.index(forKey: a)!, nil)   // `single` found it
    }

    private static func onlyMember(of entry: inout EntryRecord) -> String? {
        entry.members.count == 1 ? entry.members[0] : nil
    }

    private mutating func apply(_ found: ResolvedConstant, _ moved: (String, Double) -> Void) {
        func set(_ r: inout AtomRecord, _ v: Double) -> Bool {
            guard r.atom.constant != v else { return false }
            r.atom.constant = v
            return true
        }
        guard set(&atoms.values[found.atomAt], found.value) else { return }
        var marked = false
        if let e = found.entryAt { marked = Self.markStale(&entries.values[e]) }
        if !marked { noteEdited(found.atom, field: "constant", .number(found.value)) }
        moved(found.atom, found.value)
    }

    /// What `noteEdited` does for a constant of a non-VFL entry, in place; false for a VFL group.
    private static func markStale(_ entry: inout EntryRecord) -> Bool {
        guard !entry.isVisual else { return false }
        entry.stale = true
        return true
    }

    mutating func setPriority(_ id: String, _ value: Double, at p: Pointer) throws(LayoutError) {
        try set(\.priority, named: "priority", of: id, to: value, at: p)
    }

    private mutating func set(_ field: WritableKeyPath<AtomicConstraint, Double>, named name: String, of id: String,
                              to value: Double, at p: Pointer) throws(LayoutError) {
        let a = try single(id, at: p)
        guard atoms[a]!.atom[keyPath: field] != value else { return }
        atoms[a]!.atom[keyPath: field] = value
        dirtyAtoms.insert(a)
        noteEdited(a, field: name, .number(value))
    }

    mutating func setActive(_ ids: [String], _ active: Bool, at p: Pointer) throws(LayoutError) {
        for (k, id) in ids.enumerated() {
            for a in try resolve(id, at: p(k)) where atoms[a]!.active != active {
                atoms[a]!.active = active
                dirtyAtoms.insert(a)
                if active { churnAdded.append((a, atoms[a]!.atom)) } else { churnRemoved.append((a, atoms[a]!.atom)) }
                noteEdited(a, field: "active", .bool(active))
            }
        }
    }

    /// Keeps the stored JSON of an entry in step with a change to one of its atoms.
    mutating func noteEdited(_ atomID: String, field: String, _ value: JSON) {
        guard let e = atoms[atomID]?.entry, let i = entries.index(forKey: e) else { return }
        guard entries.values[i].isVisual else {
            // Regenerated when the document is read: keeps set-constant cheap.
            entries.values[i].stale = true
            return
        }
        var entry = entries.values[i]
        if field != "active" || entry.members.contains(where: { atoms[$0]?.active != (value.bool ?? true) }) { entry.edited = true }
        if field == "active" && !entry.edited, var m = entry.json.members {
            m.removeAll { $0.key == "active" }
            m.append(("active", value))
            entry.json = .object(m)
        }
        entries.values[i] = entry
    }

    static func explicitJSON(id: String, _ rec: AtomRecord) -> JSON {
        let a = rec.atom
        var m: [(key: String, value: JSON)] = [("id", .string(id)), ("first", .string(a.first.description)), ("relation", .string(a.relation.rawValue))]
        if let s = a.second { m.append(("second", .string(s.description))); m.append(("multiplier", .number(a.multiplier))) }
        m.append(("constant", .number(a.constant)))
        m.append(("priority", .number(a.priority)))
        if !rec.active { m.append(("active", .bool(false))) }
        return .object(m)
    }

    mutating func setOptions(_ json: JSON, at p: Pointer) throws(LayoutError) {
        guard let members = json.members else { throw p.fail("options must be an object") }
        for (k, v) in members {
            switch k {
            case "layoutDirection":
                guard let s = v.string, let d = LayoutDirection(rawValue: s) else { throw p(k).fail("layoutDirection is \"ltr\" or \"rtl\"") }
                if d != options.layoutDirection {
                    options.layoutDirection = d
                    for (id, rec) in atoms where rec.atom.first.attribute.isDirectional || rec.atom.second?.attribute.isDirectional == true {
                        dirtyAtoms.insert(id)
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

    // MARK: The document as sent

    public var json: JSON {
        var opts: [(key: String, value: JSON)] = [("layoutDirection", .string(options.layoutDirection.rawValue))]
        if let s = options.scale { opts.append(("scale", .number(s))) }
        var cs: [JSON] = []
        for e in entryOrder {
            guard let entry = entries[e] else { continue }
            if entry.isVisual && entry.edited {
                for a in entry.members { if let rec = atoms[a] { cs.append(Self.explicitJSON(id: a, rec)) } }
            } else if entry.stale, let rec = atoms[entry.members[0]] {
                cs.append(Self.explicitJSON(id: entry.members[0], rec))
            } else {
                cs.append(entry.json)
            }
        }
        return .object([("options", .object(opts)), ("views", .array(viewOrder.compactMap { viewSource[$0] })),
                        ("constraints", .array(cs))])
    }
}
