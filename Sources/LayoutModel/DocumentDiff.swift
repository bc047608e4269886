import CheckedNumbers
import ConstraintSolver
import JSON

/// The `changes` ops that turn a session's document into one sent whole (`PUT …/document`),
/// found in one pass over each document: views by id, constraints by id or, sent without one,
/// by what they constrain. What is the same is left alone, so the engine does only what
/// changed; the ops are what the journal keeps.
struct DocumentDiff {
    var ops: [JSON] = []
    /// Where each op's items are in the document sent (`/constraints/4`), one an item (or one
    /// for the op): an error found only while applying them is answered there.
    var origins: [Origin] = []
    /// An op's place in the document sent: its items' indices, or one (no pointer is
    /// written unless an error needs it: 11,000 set-constants made 11,000 strings).
    enum Origin {
        case none, options, view(Int), views([Int]), constraint(Int), constraints([Int])

        /// The pointer of item i (an op of one item: its own).
        func pointer(item i: Int?) -> String? {
            switch self {
            case .none: return nil
            case .options: return "/options"
            case .view(let k): return "/views/\(k)"
            case .constraint(let k): return "/constraints/\(k)"
            case .views(let ks): return i.flatMap { ks.indices.contains($0) ? "/views/\(ks[$0])" : nil }
            case .constraints(let ks): return i.flatMap { ks.indices.contains($0) ? "/constraints/\(ks[$0])" : nil }
            }
        }
    }
    /// How many items each op carried (views added, constants set, …), every op listed.
    var applied: [(op: String, count: Int)] = []
}

extension LayoutDocument {
    /// The ops that make this document `new`, read from a body whose `constraints` were `sent`
    /// (one entry each, in order), or read in place (nil: what was sent is what `new` writes,
    /// and a constraint with a server-given number was sent without an id).
    ///
    /// A view is kept while its id, parent and kind are; one that moves to another parent or
    /// changes kind is removed and added again, with its subtree (`updateView` keeps parents).
    /// A constraint sent with an id is matched by it; one sent without is matched among the
    /// server-named ones by first, relation, second, multiplier and priority, so it keeps its
    /// server-given id. A matched constraint written the same way is changed in place (its
    /// constant, priority, activity); otherwise it is replaced under the same id.
    func diff(to new: LayoutDocument, sent: [JSON]?) -> DocumentDiff {
        let v = viewChanges(to: new)
        let c = constraintChanges(to: new, sent: sent, kept: v.kept)
        var out = DocumentDiff()
        func op(_ name: String, _ fields: [(key: String, value: JSON)], at origins: DocumentDiff.Origin) {
            out.ops.append(.object([("op", .string(name))] + fields))
            out.origins.append(origins)
        }
        if !c.removed.isEmpty { op("removeConstraints", [("ids", .array(c.removed))], at: .none) }
        if !v.removedRoots.isEmpty { op("removeViews", [("ids", .array(v.removedRoots))], at: .none) }
        let optionsChanged = new.options != options
        if optionsChanged {
            let o = new.options
            let fields: [(key: String, value: JSON)] = [
                ("layoutDirection", .string(o.layoutDirection.rawValue)), ("scale", o.scale.map(JSON.number) ?? .null)
            ]
            op("setOptions", [("options", .object(fields))], at: .options)
        }
        out.ops += v.moves
        out.origins += v.movedAt.map(DocumentDiff.Origin.view)
        for run in v.runs {
            op("addViews", (run.before.map { [("before", .string($0))] } ?? []) + [("views", .array(run.views))], at: .views(run.at))
        }
        out.ops += v.updates
        out.origins += v.updatedAt.map(DocumentDiff.Origin.view)
        for run in c.runs {
            op(
                "addConstraints", (run.before.map { [("before", .string($0))] } ?? []) + [("constraints", .array(run.constraints))],
                at: .constraints(run.at))
        }
        out.ops += c.inPlace
        out.origins += c.inPlaceAt.map(DocumentDiff.Origin.constraint)
        var counts: [String: Int] = [:]
        for x in c.inPlace { counts[x["op"]?.string ?? "", default: 0] += x["ids"]?.array?.count ?? 1 }
        out.applied = [
            ("addViews", v.addedCount), ("removeViews", v.removed), ("updateView", v.updatedCount),
            ("addConstraints", c.addedCount), ("removeConstraints", c.removed.count),
            ("setConstant", counts["setConstant"] ?? 0), ("setPriority", counts["setPriority"] ?? 0),
            ("activate", counts["activate"] ?? 0), ("deactivate", counts["deactivate"] ?? 0), ("setOptions", optionsChanged ? 1 : 0)
        ]
        return out
    }

    private struct ViewChanges {
        /// Each view's ref in the new document, by its ref here; noRef where it goes.
        var kept: [ViewRef]
        /// The top views of the subtrees that go, and how many views go.
        var removedRoots: [JSON] = [], removed = 0
        var updates: [JSON] = []
        /// Views that stay but moved among the others (`updateView` with `before`), and runs
        /// of views to add, each before a view that stays (nil: last).
        var moves: [JSON] = [], runs: [(before: String?, views: [JSON], at: [Int])] = []
        /// Their places in the document sent.
        var updatedAt: [Int] = [], movedAt: [Int] = []
        /// How many views are added, and how many an `updateView` changes or moves.
        var addedCount = 0, updatedCount = 0
    }

    /// Views end in the order sent, as constraints do (a content size ranks by its view's
    /// place in a conflict): those that stay keep their order but for a fewest that moved
    /// (`outOfOrder`), which go before the next view that keeps its place; new ones go
    /// before the next view that stays. The moves come first, so each run of new views is
    /// placed before a view already where it ends.
    private func viewChanges(to new: LayoutDocument) -> ViewChanges {
        var out = ViewChanges(kept: [ViewRef](repeating: .noRef, count: views.count))
        // A parent comes before its children in document order (a new session inserts them
        // so, and placements keep it): whether it goes is known when they are reached.
        var gone = [Bool](repeating: false, count: views.count)
        // Each new view's ref here, where it stays (what the walks of the new order read).
        var old = [ViewRef](repeating: .noRef, count: new.views.count)
        for v in viewOrder {
            let record = views[Int(v)]
            let parentGone = record.parent != .noRef && gone[Int(record.parent)]
            if record.internalGuide { gone[Int(v)] = parentGone; continue }
            guard !parentGone, let n = new.viewRef(record.spec.id), Self.sameKind(record.spec, new.views[Int(n)].spec) else {
                gone[Int(v)] = true
                out.removed += 1
                if !parentGone { out.removedRoots.append(.string(record.spec.id)) }
                continue
            }
            out.kept[Int(v)] = n
            old[Int(n)] = v
            if new.views[Int(n)].spec != record.spec {
                out.updates.append(update(from: record.spec, to: new.views[Int(n)].spec))
                out.updatedAt.append(Int(n))
            }
        }
        // The views that stay, in the new order, and which of them moved.
        // (Loops over the order listed, not `forEachViewInOrder`: a closure boxed the lists it
        // fills, and each access to them went through the box.)
        let newOrder = new.viewOrder
        var staying: [ViewRef] = [], sequences: [Int] = []
        for n in newOrder where old[Int(n)] != .noRef {
            staying.append(n)
            sequences.append(views[Int(old[Int(n)])].sequence)
        }
        var isMoved = [Bool](repeating: false, count: new.views.count)
        for i in Self.outOfOrder(sequences) { isMoved[Int(staying[i])] = true }
        var run: [JSON] = [], runAt: [Int] = [], movedRun: [ViewRef] = []
        var changed = Set(out.updatedAt)
        for n in newOrder {
            guard old[Int(n)] != .noRef else {
                run.append(viewJSON(new.views[Int(n)].spec))
                runAt.append(Int(n))
                continue
            }
            if !run.isEmpty {
                out.runs.append((new.views[Int(n)].spec.id, run, runAt))
                (run, runAt) = ([], [])
            }
            if isMoved[Int(n)] {
                movedRun.append(n)
            } else if !movedRun.isEmpty {
                for m in movedRun { out.moves.append(move(new.views[Int(m)].spec.id, before: .string(new.views[Int(n)].spec.id))) }
                out.movedAt += movedRun.map { Int($0) }
                movedRun.removeAll()
            }
        }
        for m in movedRun { out.moves.append(move(new.views[Int(m)].spec.id, before: .null)) }
        out.movedAt += movedRun.map { Int($0) }
        if !run.isEmpty { out.runs.append((nil, run, runAt)) }
        out.addedCount = out.runs.reduce(0) { $0 + $1.views.count }
        changed.formUnion(out.movedAt)
        out.updatedCount = changed.count
        return out
    }

    /// `updateView` that only moves view `id` before another (null: last).
    private func move(_ id: String, before: JSON) -> JSON {
        .object([("op", .string("updateView")), ("id", .string(id)), ("before", before)])
    }

    private struct ConstraintChanges {
        var removed: [JSON] = [], inPlace: [JSON] = []
        /// Runs of constraints to add, each listed before a constraint that stays (nil: last),
        /// with their places in the document sent.
        var runs: [(before: String?, constraints: [JSON], at: [Int])] = []
        /// Where each in-place op's constraint was sent.
        var inPlaceAt: [Int] = []
        var addedCount = 0
    }

    /// Constraints sent with an id are matched first, so that none sent without takes a named one.
    /// What is added goes where the new document lists it: a constraint replaced, or one that
    /// moved among those that stay, is removed and added back in its place, so that the
    /// order (which one a conflict breaks) is a fresh build's.
    private func constraintChanges(to new: LayoutDocument, sent: [JSON]?, kept: [ViewRef]) -> ConstraintChanges {
        let count = new.entries.count
        let liveOld = liveEntries
        var partner = [EntryRef](repeating: .noRef, count: count)
        var taken = [Bool](repeating: false, count: entries.count)
        var unnamed: [Int] = []
        // A VFL group edited since it was sent is listed as its members (`row.1`): sent back so,
        // each is matched to its member.
        var members: [Int: (atom: AtomRef, group: EntryRef)] = [:], groupsSent: [EntryRef: [Int]] = [:]
        for k in 0..<count {
            guard let id = new.sentID(k, sent) else { unnamed.append(k); continue }
            if let o = entryRef(id) {
                (partner[k], taken[Int(o)]) = (o, true)
            } else if memberShapedIDs || Self.isMemberShaped(id), let a = atomNamed(id), case .member(let e, _) = atoms[Int(a)].origin,
                entries[Int(e)].edited
            {
                members[k] = (a, e)
                groupsSent[e, default: []].append(k)
                taken[Int(e)] = true
            }
        }
        // Known the same already (found so while matching): no ops to look for.
        var same = [Bool](repeating: false, count: count)
        if !unnamed.isEmpty { matchUnnamed(unnamed, of: new, liveOld, taken: &taken, partner: &partner, same: &same, kept: kept) }
        // What each matched constraint needs in place; nil: replaced.
        var inPlace = [[JSON]?](repeating: nil, count: count)
        var staying: [Int] = []
        for k in 0..<count {
            if let m = members[k] {
                inPlace[k] = change(atom: m.atom, into: EntryRef(k), of: new, kept: kept).map { $0.ops(atomName(m.atom)) }
                continue
            }
            let o = partner[k]
            guard o != .noRef else { continue }
            inPlace[k] = same[k] ? [] : change(o, into: EntryRef(k), of: new, kept: kept).map { $0.ops(entries[Int(o)].id) }
            if inPlace[k] != nil { staying.append(k) }
        }
        // A group sent back as its members stays, one block where its first member is, while
        // they are sent together, in its order, each changed in place, and the block keeps its
        // order among what stays. Otherwise it is taken apart: removed, and its members added
        // where they were sent, as the constraints (`row.1`) a new session of the document has.
        var apart = Set<EntryRef>(), blockAt: [Int: EntryRef] = [:]
        for (e, ks) in groupsSent {
            let order = ks.map { k -> Int32 in if case .member(_, let i) = atoms[Int(members[k]!.atom)].origin { i } else { -1 } }
            let together = zip(ks, ks.dropFirst()).allSatisfy { $1 == $0 + 1 } && zip(order, order.dropFirst()).allSatisfy { $0 < $1 }
            if together && ks.allSatisfy({ inPlace[$0] != nil }) {
                blockAt[ks[0]] = e
                partner[ks[0]] = e
            } else {
                apart.insert(e)
            }
        }
        if !blockAt.isEmpty { staying = (staying + blockAt.keys).sorted() }
        let movedAt = Self.outOfOrder(staying.map { Int(entries[Int(partner[$0])].sequence) })
        let moved = Set(movedAt.map { staying[$0] })
        for (k, e) in blockAt where moved.contains(k) { apart.insert(e) }
        var out = ConstraintChanges()
        var run: [JSON] = [], runAt: [Int] = []
        func add(_ k: Int, id: String?) {
            if let id { out.removed.append(.string(id)) }
            run.append(new.added(k, sent, id: id ?? new.sentID(k, sent)))
            runAt.append(k)
            out.addedCount += 1
        }
        func edit(_ k: Int, _ ops: [JSON]) {
            out.inPlace += ops
            out.inPlaceAt += repeatElement(k, count: ops.count)
        }
        func stays(_ id: String) {
            guard !run.isEmpty else { return }
            out.runs.append((id, run, runAt))
            (run, runAt) = ([], [])
        }
        for k in 0..<count {
            if let m = members[k] {
                if apart.contains(m.group) { add(k, id: nil); continue }
                edit(k, inPlace[k]!)
                if blockAt[k] == m.group { stays(entries[Int(m.group)].id) }
                continue
            }
            let o = partner[k]
            guard o != .noRef else { add(k, id: nil); continue }
            guard let ops = inPlace[k], !moved.contains(k) else { add(k, id: entries[Int(o)].id); continue }
            edit(k, ops)
            stays(entries[Int(o)].id)
        }
        if !run.isEmpty { out.runs.append((nil, run, runAt)) }
        for o in liveOld where !taken[Int(o)] || apart.contains(o) { out.removed.append(.string(entries[Int(o)].id)) }
        for (e, ks) in groupsSent where !apart.contains(e) {
            let sentBack = Set(ks.map { members[$0]!.atom })
            for a in liveMembers(of: e) where !sentBack.contains(a) { out.removed.append(.string(atomName(a))) }
        }
        return out
    }

    /// Of what stays (its places here, listed in the new document's order), the positions to
    /// move so that the rest keep their order here: the complement of a longest run in order
    /// (none, and no work, when the new document keeps the order).
    private static func outOfOrder(_ order: [Int]) -> [Int] {
        guard order.indices.dropFirst().contains(where: { order[$0 - 1] > order[$0] }) else { return [] }
        // Patience sorting: tails[l] ends the best run of length l + 1 found so far.
        var tails: [Int] = [], back = [Int](repeating: -1, count: order.count)
        for i in order.indices {
            var (lo, hi) = (0, tails.count)
            while lo < hi {
                let mid = (lo + hi) / 2
                if order[tails[mid]] < order[i] { lo = mid + 1 } else { hi = mid }
            }
            if lo > 0 { back[i] = tails[lo - 1] }
            if lo == tails.count { tails.append(i) } else { tails[lo] = i }
        }
        var keep = Set<Int>()
        var i = tails.last ?? -1
        while i >= 0 { keep.insert(i); i = back[i] }
        return order.indices.filter { !keep.contains($0) }
    }

    /// Pairs the constraints sent without an id (`unnamed`, indices into `new`'s entries) with
    /// this document's server-named ones that no id took, by what they constrain. A document
    /// sent again lists most in the same order: each is first compared with the next one
    /// left (no hashing); one that is not is looked up by its key (the same constraint
    /// first), and the walk goes on after what it found.
    private func matchUnnamed(
        _ unnamed: [Int], of new: LayoutDocument, _ liveOld: [EntryRef], taken: inout [Bool], partner: inout [EntryRef],
        same: inout [Bool], kept: [ViewRef]
    ) {
        // Views by id, those added again included: a constraint on a view that moved to
        // another parent is replaced, but under its id.
        var sameID = [ViewRef](repeating: .noRef, count: views.count)
        forEachViewInOrder { v in sameID[Int(v)] = new.viewRef(views[Int(v)].spec.id) ?? .noRef }
        var olds: [EntryRef] = [], keys: [ContentKey] = []
        for o in liveOld where !taken[Int(o)] && isServerNamed(o) {
            guard let key = contentKey(o, views: sameID) else { continue }
            olds.append(o)
            keys.append(key)
        }
        var used = [Bool](repeating: false, count: olds.count)
        var heads: [ContentKey: Int] = [:], next: [Int] = []
        var cursor = 0
        func fits(_ i: Int, _ n: EntryRef, _ key: ContentKey) -> Bool {
            !used[i] && keys[i] == key && (key.visual == 0 || texts[entries[Int(olds[i])].text] == new.texts[new.entries[Int(n)].text])
        }
        func take(_ i: Int, for k: Int) {
            used[i] = true
            partner[k] = olds[i]
            taken[Int(olds[i])] = true
        }
        /// The first unused one of `key` here, in order (indexed at the first miss).
        func first(_ key: ContentKey) -> Int {
            if next.isEmpty {
                next = [Int](repeating: -1, count: olds.count)
                for i in olds.indices.reversed() where !used[i] {
                    next[i] = heads[keys[i]] ?? -1
                    heads[keys[i]] = i
                }
            }
            var i = heads[key] ?? -1
            while i >= 0 && used[i] { i = next[i] }
            if i >= 0 { heads[key] = i }
            return i
        }
        // The same constraints first, so that one sent unchanged keeps its id even where one
        // alike but for its constant comes before it (`>= 10, >= 20` sent as `>= 20`: the
        // same is looked for a few places on). One alike at the cursor is only noted (the walk
        // goes on past it, no index made): a later one sent unchanged may still take it; if
        // none does, it is its.
        var alike: [(k: Int, key: ContentKey, noted: Int)] = []
        for k in unnamed {
            let n = EntryRef(k)
            guard let key = new.contentKey(n, views: nil) else { continue }
            while cursor < olds.count && used[cursor] { cursor += 1 }
            var found = -1
            if cursor < olds.count && fits(cursor, n, key) {
                if identical(olds[cursor], n, new, kept) {
                    found = cursor
                } else if let j = (cursor + 1..<min(cursor + 9, olds.count)).first(where: { fits($0, n, key) && identical(olds[$0], n, new, kept) }) {
                    found = j
                } else {
                    alike.append((k, key, cursor))
                    cursor += 1
                    continue
                }
            } else {  // looked up among a few of its key
                var i = first(key), looked = 0
                while i >= 0 && looked < 8 {
                    if fits(i, n, key) {
                        if identical(olds[i], n, new, kept) { found = i; break }
                        looked += 1
                    }
                    i = next[i]
                }
            }
            guard found >= 0 else { alike.append((k, key, -1)); continue }
            same[k] = true
            cursor = found + 1
            take(found, for: k)
        }
        // Then those alike: the one noted, else the first left of its key, in order.
        for (k, key, noted) in alike {
            let i = noted >= 0 && !used[noted] ? noted : first(key)
            if i >= 0 { take(i, for: k) }
        }
    }

    /// A constraint the server named (`c7`): one sent without an id may take it.
    private func isServerNamed(_ e: EntryRef) -> Bool {
        entries[Int(e)].autoNumber != nil || (autoShapedIDs && Self.autoNumber(entries[Int(e)].id) != nil)
    }

    /// The id constraint k of a document read whole was sent with (nil: none).
    private func sentID(_ k: Int, _ sent: [JSON]?) -> String? {
        if let sent { return sent[k]["id"]?.string }
        return entries[k].autoNumber == nil ? entries[k].id : nil
    }

    /// Constraint k of a document read whole, to be added under `id` (nil: a new server id).
    private func added(_ k: Int, _ sent: [JSON]?, id: String?) -> JSON {
        let body = sent?[k] ?? entryJSON(EntryRef(k))[0]
        if let sent, sent[k]["id"]?.string == id { return body }
        return .object(body.members!.filter { $0.key != "id" } + (id.map { [("id", .string($0))] } ?? []))
    }

    /// Guides stay guides and stacks stacks: a change of kind is a new view.
    private static func sameKind(_ a: ViewSpec, _ b: ViewSpec) -> Bool {
        a.parent == b.parent && a.isGuide == b.isGuide && (a.stack == nil) == (b.stack == nil)
    }

    /// `updateView` with the fields that differ, those `b` leaves out reset to their defaults.
    private func update(from a: ViewSpec, to b: ViewSpec) -> JSON {
        let was = viewJSON(a).members!, now = viewJSON(b).members!
        var m: [(key: String, value: JSON)] = [("op", .string("updateView")), ("id", .string(b.id))]
        for (k, v) in now where k != "id" && k != "parent" && k != "kind" && was.first(where: { $0.key == k })?.value != v { m.append((k, v)) }
        for (k, _) in was where k != "id" && k != "parent" && k != "kind" && !now.contains(where: { $0.key == k }) {
            m.append((k, k == "hidden" ? .bool(false) : .null))
        }
        return .object(m)
    }

    /// What an entry constrains, the constant aside: its views (by ref in the new document:
    /// `views` maps this document's, nil when this is the new one), attributes, relation,
    /// multiplier and priority; a VFL group by its text. Nil when a view it names goes.
    struct ContentKey: Hashable {
        var first = ViewRef.noRef, second = ViewRef.noRef
        var firstAttribute = Attribute.left, secondAttribute = Attribute.left
        var relation = Relation.equal
        var multiplier = 1.0, priority = 0.0
        /// A VFL group's text, hashed (the text itself is compared on a match); 0 otherwise.
        var visual = 0
    }

    func contentKey(_ e: EntryRef, views map: [ViewRef]?) -> ContentKey? {
        let entry = entries[Int(e)]
        if entry.form == .visual { return ContentKey(visual: texts[entry.text].hashValue | 1) }
        let x = atoms[Int(entry.atom)]
        func mapped(_ v: ViewRef) -> ViewRef { map.map { $0[Int(v)] } ?? v }
        let first = mapped(x.first), second = x.hasSecond ? mapped(x.second) : .noRef
        guard first != .noRef, second != .noRef || !x.hasSecond else { return nil }
        return ContentKey(
            first: first, second: second, firstAttribute: x.firstAttribute, secondAttribute: x.hasSecond ? x.secondAttribute : .left,
            relation: x.relation, multiplier: x.multiplier, priority: x.priority)
    }

    /// What changes in place: a new constant, priority or activity (nil: the same).
    struct InPlace {
        var constant: Double? = nil, priority: Double? = nil, active: Bool? = nil
        var isEmpty: Bool { constant == nil && priority == nil && active == nil }

        /// As `changes` ops on the constraint `id`.
        func ops(_ id: String) -> [JSON] {
            var out: [JSON] = []
            if let constant { out.append(.object([("op", .string("setConstant")), ("id", .string(id)), ("constant", .number(constant))])) }
            if let priority { out.append(.object([("op", .string("setPriority")), ("id", .string(id)), ("priority", .number(priority))])) }
            if let active { out.append(.object([("op", .string(active ? "activate" : "deactivate")), ("ids", .array([.string(id)]))])) }
            return out
        }
    }

    /// Whether entry o is `new`'s entry n as it is (no JSON made: matching asks it often).
    private func identical(_ o: EntryRef, _ n: EntryRef, _ new: LayoutDocument, _ kept: [ViewRef]) -> Bool {
        change(o, into: n, of: new, kept: kept)?.isEmpty == true
    }

    /// What makes entry o `new`'s entry n in place, or nil when it must be replaced: it
    /// constrains something else, or would be written otherwise afterwards than n is (an
    /// `expr` kept as sent, a VFL group with other text or metrics).
    private func change(_ o: EntryRef, into n: EntryRef, of new: LayoutDocument, kept: [ViewRef]) -> InPlace? {
        let (x, y) = (entries[Int(o)], new.entries[Int(n)])
        switch (x.form, y.form) {
        case (.visual, .visual):
            let mine = liveMembers(of: o), theirs = new.liveMembers(of: n)
            guard !x.edited, mine.count == theirs.count, texts[x.text] == new.texts[y.text], groupExtras[o]?.options == new.groupExtras[n]?.options,
                groupExtras[o]?.metrics == new.groupExtras[n]?.metrics,
                zip(mine, theirs).allSatisfy({ sameShape($0, $1, new, kept) && atoms[Int($0)].constant == new.atoms[Int($1)].constant })
            else { return nil }
            let (was, now) = (mine.first.map { atoms[Int($0)].active } ?? true, theirs.first.map { new.atoms[Int($0)].active } ?? true)
            return InPlace(active: was == now ? nil : now)
        case (.visual, _), (_, .visual):
            return nil
        default:
            switch y.form {
            case .explicit:
                guard x.form == .explicit || x.stale else { return nil }
            default:
                // Written from the atom both ways, or kept as sent with the same text.
                guard x.form == .expression, !x.stale else { return nil }
                if (x.text == .rendered) != (y.text == .rendered) { return nil }
                if y.text != .rendered, texts[x.text] != new.texts[y.text] { return nil }
            }
            return change(atom: x.atom, into: n, of: new, kept: kept)
        }
    }

    /// The set-constant, set-priority and activity that make atom a what `new`'s entry n (one
    /// atom) is, or nil when it constrains something else.
    private func change(atom a: AtomRef, into n: EntryRef, of new: LayoutDocument, kept: [ViewRef]) -> InPlace? {
        let y = new.entries[Int(n)]
        guard y.form != .visual, sameShape(a, y.atom, new, kept) else { return nil }
        if case .member = atoms[Int(a)].origin, y.form != .explicit { return nil }  // an edited group's members are explicit
        let (x, b) = (atoms[Int(a)], new.atoms[Int(y.atom)])
        return InPlace(
            constant: x.constant != b.constant ? b.constant : nil, priority: x.priority != b.priority ? b.priority : nil,
            active: x.active != b.active ? b.active : nil)
    }

    /// Atom a of this document and b of `new` constrain the same views' attributes alike.
    private func sameShape(_ a: AtomRef, _ b: AtomRef, _ new: LayoutDocument, _ kept: [ViewRef]) -> Bool {
        let (x, y) = (atoms[Int(a)], new.atoms[Int(b)])
        return kept[Int(x.first)] == y.first && x.firstAttribute == y.firstAttribute && x.relation == y.relation
            && x.hasSecond == y.hasSecond && x.multiplier == y.multiplier
            && (!x.hasSecond || (kept[Int(x.second)] == y.second && x.secondAttribute == y.secondAttribute))
    }
}
