import CheckedNumbers
import ConstraintSolver
import JSON
import TextLayout

/// Views in and out: adding a batch (parents first, cycles refused), removing subtrees, and
/// replacing fields; what a change does to stacks and text follows from here.
extension LayoutDocument {

    /// Every live view in document order, one at a time: while no slot is free or reused and
    /// no view was placed, slot order is document order and no list is made (~1 M
    /// instructions of the 1,000-cell feed's answer).
    @inline(__always) func forEachViewInOrder(_ body: (ViewRef) -> Void) {
        if liveViews == views.count && viewsInSlotOrder {
            for v in views.indices { body(ViewRef(v)) }
        } else {
            for v in viewOrder { body(v) }
        }
    }

    var viewOrder: [ViewRef] {
        var out: [ViewRef] = []
        out.reserveCapacity(liveViews)
        for v in views.indices where views[v].live { out.append(ViewRef(v)) }
        // Slots are reused and views placed: slot order is document order only until then.
        if liveViews != views.count || !viewsInSlotOrder { out.sort { views[Int($0)].sequence < views[Int($1)].sequence } }
        return out
    }

    /// Each live view's children, in document order.
    func childLists() -> [ViewRef: [ViewRef]] {
        var out: [ViewRef: [ViewRef]] = [:]
        for v in viewOrder where views[Int(v)].parent != .noRef { out[views[Int(v)].parent, default: []].append(v) }
        return out
    }

    /// Decodes and adds a `views` array: the one path of a document's views and the addViews op.
    @discardableResult mutating func addViews(_ json: JSON, at p: Pointer) throws(LayoutError) -> [ViewRef] {
        guard let arr = json.array else { throw p.fail("views must be an array") }
        var specs: [ViewSpec] = []
        specs.reserveCapacity(arr.count)
        for (i, x) in arr.enumerated() { specs.append(try ViewSpec.decode(x, at: p(i))) }
        return try addViews(specs, at: p)
    }

    /// Adds views given in any order (a parent may come after its child in the list), and
    /// answers them in the order they were inserted (each parent first); view k's errors
    /// point at `p(k)`. Specs in a plain array, a pointer built only for an error: an
    /// array of (spec, pointer) pairs was copied through the runtime's generic tuple copy, and a
    /// pointer a view was an allocation (~1,600 instructions a view, 1,000-cell feed).
    @discardableResult mutating func addViews(_ specs: [ViewSpec], at p: Pointer) throws(LayoutError) -> [ViewRef] {
        // The batch's ids in a table of the specs' own (a `[String: Int]` hashed each id with
        // SipHash twice, ~360 instructions a view). Fields read in place, by index: a `(k, v)`
        // loop copied each spec (its strings and box retained and released), three loops a view.
        var batch = NameTable<ViewRef>()  // by spec index: the document's own when those are the refs
        batch.reserveCapacity(specs.count)
        try specs.withUnsafeBufferPointer { (specs) throws(LayoutError) in
            for k in specs.indices {
                let id = specs[k].id
                if viewRef(id) != nil || batch.insert(ViewRef(k), ifAbsent: id, name: { specs[Int($0)].id }) != nil {
                    throw p(k)("id").fail("a view '\(id)' exists already")
                }
            }
        }
        // Parents exist (in the session or the batch) and form no cycle: the first view whose
        // chain through the batch comes back on itself is named. A chain walked once is marked
        // sound (a set of names a view cost 2.7 K instructions, 1,000-cell feed).
        var sound = [Bool](repeating: false, count: specs.count), onPath = [Bool](repeating: false, count: specs.count)
        var path: [Int] = []
        // Each view's parent: in the batch (its index), or in the session already (its ref).
        // Looked up once a view, before the walks that follow them.
        var parentInBatch = [Int?](repeating: nil, count: specs.count)
        specs.withUnsafeBufferPointer { specs in
            // Siblings come together: a parent named as the view before named it is found once
            // (hashed and found again, 0.4 M instructions of the 1,000-cell feed's 5,000 views).
            var last: (parent: String, found: Int?)? = nil
            for k in specs.indices {
                guard let parent = specs[k].parent else { continue }
                if let l = last, l.parent == parent {
                    parentInBatch[k] = l.found
                    continue
                }
                let found = batch.find(parent, name: { specs[Int($0)].id }).map(Int.init)
                parentInBatch[k] = found
                last = (parent, found)
            }
        }
        var parentInSession = [ViewRef](repeating: .noRef, count: specs.count)
        for k in specs.indices {
            guard let parent = specs[k].parent else { sound[k] = true; continue }
            if parentInBatch[k] == nil {
                guard let r = viewRef(parent) else { throw p(k)("parent").fail("unknown parent view '\(parent)'") }
                parentInSession[k] = r
            }
            var cur = k
            while !sound[cur] {
                if onPath[cur] { throw p(k)("parent").fail("the parent chain of '\(specs[k].id)' loops") }
                onPath[cur] = true
                path.append(cur)
                guard let up = parentInBatch[cur] else { break }
                cur = up
            }
            // Emptied from its end (a path is a view or two; removeAll(keepingCapacity:) is
            // the generic replaceSubrange, ~80 instructions however short).
            while let u = path.popLast() { sound[u] = true; onPath[u] = false }
        }
        // Each batch view's ref once made. No lookup in here: a method call on the document
        // captured by this nested function copied the whole document.
        var made = [ViewRef](repeating: .noRef, count: specs.count), inserted: [ViewRef] = []
        inserted.reserveCapacity(specs.count)
        func insert(_ k: Int) {
            if made[k] != .noRef { return }  // inserted already, as an earlier view's parent
            var parent = parentInSession[k]
            if let pk = parentInBatch[k] {
                insert(pk)
                parent = made[pk]
            }
            sequence += 1
            let r = insertRecord(ViewRecord(spec: specs[k], parent: parent, sequence: sequence))
            made[k] = r
            inserted.append(r)
            liveViews += 1
            if specs[k].hasText {
                textViews += 1
                if measuresText { measureText(r) }
            }
            markDirty(view: r)
            syncImplicit(r, isNew: true)
        }
        for k in specs.indices { insert(k) }
        // A first batch whose parents came before their children has its views' refs in list
        // order: its table of ids is the document's, taken whole (each id hashed and placed
        // again was ~300 instructions a view).
        if viewNamed.count == 0 && made.indices.allSatisfy({ made[$0] == ViewRef($0) }) {
            viewNamed = batch
        } else {
            viewNamed.reserveCapacity(viewNamed.count + specs.count)
            for k in specs.indices { viewNamed.insert(made[k], named: specs[k].id) }
        }
        // Stacks are checked once the whole batch is in (an arranged view may come after its stack).
        for k in specs.indices where specs[k].stack != nil {
            try checkStack(made[k], at: p(k))
            markStackDirty(made[k])
        }
        // A view added to a stack made before: its stack is arranged again if it names it (a
        // stack of this batch is marked already; asked of every child of a 10,000-row stack,
        // the search of its arranged views was quadratic).
        for k in specs.indices {
            let s = views[Int(made[k])].parent
            if s != .noRef, !changes.dirtyStackSet.contains(s), views[Int(s)].spec.stack?.arranged.contains(specs[k].id) == true { markStackDirty(s) }
            markProportionalStacks(above: made[k])
        }
        return inserted
    }

    /// A record in a free slot or a new one, taken, not copied (`__owned`: `consuming` here
    /// crashed this compiler, signal 11).
    mutating func insertRecord(_ record: __owned ViewRecord) -> ViewRef {
        if let free = freeViews.takeLast() {
            views[Int(free)] = record
            viewsInSlotOrder = false
            return free
        }
        views.append(record)
        return ViewRef(views.count - 1)
    }

    /// A removed view's slot, free for reuse once the session has taken the change.
    mutating func freeView(_ v: ViewRef) { changes.freedViews.append(v) }

    mutating func removeViews(_ ids: [String], at p: Pointer) throws(LayoutError) {
        var roots: [ViewRef] = []
        for (k, id) in ids.enumerated() {
            guard let r = viewRef(id) else { throw p(k).fail("unknown view '\(id)'") }
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
        for r in roots { markProportionalStacks(above: r) }
        for v in views.indices where gone[v] {
            let parent = views[v].parent
            if parent != .noRef, !gone[Int(parent)], views[Int(parent)].spec.stack != nil {
                let id = views[v].spec.id
                views[Int(parent)].spec.stack!.arranged.removeAll { $0 == id }
                markStackDirty(parent)
            }
            if views[v].spec.stack != nil, !views[v].internalGuide { dropStack(ViewRef(v)) }
        }
        for v in views.indices where gone[v] && views[v].live {
            views[v].live = false
            viewNamed.remove(ViewRef(v), named: views[v].spec.id)
            liveViews -= 1
            if views[v].spec.hasText { textViews -= 1 }
            if views[v].internalGuide { guideViews -= 1 }
            changes.removedViews.append(ViewRef(v))
            changes.freedViews.append(ViewRef(v))
        }
    }

    mutating func updateView(_ id: String, fields: [(key: String, value: JSON)], at p: Pointer) throws(LayoutError) {
        let (r, v) = try updatedSpec(id, fields: fields, at: p)
        store(v, in: r)
    }

    /// What `updateView` checks, against the document as it is: the view `id` names, and its
    /// spec with `fields` applied. Nothing changes until `store`, which cannot fail.
    func updatedSpec(_ id: String, fields: [(key: String, value: JSON)], at p: Pointer) throws(LayoutError) -> (ViewRef, ViewSpec) {
        guard let r = viewRef(id) else { throw p("id").fail("unknown view '\(id)'") }
        var v = views[Int(r)].spec
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
        if v.stack != views[Int(r)].spec.stack { try checkStack(r, v.stack, at: p) }
        return (r, v)
    }

    /// View r's spec becomes v (checked by `updatedSpec`), with what follows from it.
    mutating func store(_ v: ViewSpec, in r: ViewRef) {
        let before = views[Int(r)].spec
        if v.hasText != before.hasText { textViews += v.hasText ? 1 : -1 }
        views[Int(r)].spec = v
        if v.stack != before.stack {
            if v.stack != nil { markStackDirty(r) } else { dropStack(r) }
        }
        let id = v.id
        if views[Int(r)].parent != .noRef, views[Int(views[Int(r)].parent)].spec.stack?.arranged.contains(id) == true {
            markStackDirty(views[Int(r)].parent)
        }
        if v.hidden != before.hidden { markDirty(view: r) }
        markProportionalStacks(above: r)
        if v.alignmentInsets != before.alignmentInsets || v.margins != before.margins
            || v.firstBaseline != before.firstBaseline || v.lastBaseline != before.lastBaseline || v.text != before.text, !views[Int(r)].restyled
        {
            views[Int(r)].restyled = true
            changes.restyledViews.append(r)
        }
        if v.text != before.text {
            measureText(r)
            markDirty(view: r)  // so the session wraps it, at a width that may not move
        }
        syncImplicit(r)
    }
}

extension LayoutDocument {
    /// A view this change added or touched that sits deeper than `limit` below its root, and
    /// its depth; nil when none does. Each view's depth is found once (remembered on the way
    /// up), so a chain of n new views costs n steps, and a walk stops past the limit.
    func nestedTooDeep(limit: Int) -> (ViewRef, Int)? {
        var depthOf: [ViewRef: Int] = [:]
        var path: [ViewRef] = []
        for v in changes.dirtyViews where views[Int(v)].live {
            path.removeAll(keepingCapacity: true)
            var u = v, above = -1
            while true {
                if let d = depthOf[u] {
                    above = d
                    break
                }
                path.append(u)
                if path.count > limit + 1 { return (v, path.count - 1) }
                let p = views[Int(u)].parent
                if p == .noRef { break }
                u = p
            }
            for w in path.reversed() {
                above += 1
                depthOf[w] = above
                if above > limit { return (w, above) }
            }
        }
        return nil
    }
}
