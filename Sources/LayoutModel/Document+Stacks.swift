import CheckedNumbers
import ConstraintSolver
/// Stack views: the constraints a stack makes for its arranged views (UIStackView's), kept
/// in step with the stack and its views. Each is an atom of origin `.stack(stack, n)`,
/// named `STACK.stack.n` (n its slot in the stack's list), kept when the arrangement changes
/// and it still relates the same, so a change keeps the engine rows it does not touch. equalSpacing and equalCentering measure their
/// gaps with internal guides (UIStackView's spacer guides): views never reported or written.
struct StackState {
    var atoms: [AtomRef] = []
    var guides: [ViewRef] = []
}

extension LayoutDocument {
    /// A stack's arrangement changed, or one of its arranged views did: made again in `prepare`.
    mutating func markStackDirty(_ s: ViewRef) {
        guard views[Int(s)].spec.stack != nil, changes.dirtyStackSet.insert(s).inserted else { return }
        changes.dirtyStacks.append(s)
    }

    /// A fillProportionally stack shares a view without an intrinsic size by its fitting size,
    /// which anything inside that view changes: such stacks above `v` are arranged again.
    mutating func markProportionalStacks(above v: ViewRef) {
        guard proportionalStacks else { return }
        var p = views[Int(v)].parent
        while p != .noRef {
            if views[Int(p)].spec.stack?.distribution == .fillProportionally { markStackDirty(p) }
            p = views[Int(p)].parent
        }
    }

    /// The arranged views exist and are the stack's children.
    func checkStack(_ s: ViewRef, at p: Pointer) throws(LayoutError) { try checkStack(s, views[Int(s)].spec.stack, at: p) }

    /// The same for `stack` as view s's arrangement (before it is stored).
    func checkStack(_ s: ViewRef, _ stack: StackSpec?, at p: Pointer) throws(LayoutError) {
        guard let stack else { return }
        for (k, id) in stack.arranged.enumerated() {
            guard let v = viewRef(id) else { throw p("stack")("arrangedSubviews")(k).fail("unknown view '\(id)'") }
            guard views[Int(v)].parent == s else {
                throw p("stack")("arrangedSubviews")(k).fail("'\(id)' is not a child of the stack: an arranged view's parent is its stack")
            }
        }
    }

    /// After a change's ops: each dirty stack's constraints made again.
    mutating func syncStacks() {
        var fitting: FittingIndex? = nil  // made when a proportional stack first fits a view
        // The pass over every atom only at a build, or where a pin was ever seen: a label that
        // grows in a stack feed remakes its stack, and paid it each change.
        let look = !changes.dirtyStacks.isEmpty && (!isBuilt || stacksPinned)
        let pinned = look ? viewsPinnedToTheirStacks() : []
        if !pinned.isEmpty { stacksPinned = true }
        while let s = changes.dirtyStacks.popLast() {
            changes.dirtyStackSet.remove(s)
            if views[Int(s)].live && views[Int(s)].spec.stack != nil { syncStack(s, pinned: pinned, fitting: &fitting) } else { dropStack(s) }
        }
    }

    /// Views a document's constraint relates to the stack they are arranged in (one pass over
    /// the atoms, only when a stack is made again).
    private func viewsPinnedToTheirStacks() -> Set<ViewRef> {
        var out: Set<ViewRef> = []
        for x in atoms where x.live && x.hasSecond {
            switch x.origin {
            case .entry, .member: break
            case .implicit, .stack: continue
            }
            if views[Int(x.first)].parent == x.second, views[Int(x.second)].spec.stack != nil { out.insert(x.first) }
            if views[Int(x.second)].parent == x.first, views[Int(x.first)].spec.stack != nil { out.insert(x.second) }
        }
        return out
    }

    /// A document's constraint between a stack and one of its views came or went: whether the
    /// stack ties its views to the first (`arrangement`) may change.
    mutating func markStackOfPinnedView(_ x: Atom) {
        guard x.hasSecond else { return }
        for (v, s) in [(x.first, x.second), (x.second, x.first)] where views[Int(v)].parent == s && views[Int(s)].spec.stack != nil {
            stacksPinned = true
            markStackDirty(s)
        }
    }

    /// A removed stack (or one that is a stack no more): its guides and constraints go.
    mutating func dropStack(_ s: ViewRef) {
        guard let state = stacks.removeValue(forKey: s) else { return }
        for a in state.atoms where a != .noRef && atoms[Int(a)].live { removeAtom(a) }
        for g in state.guides where views[Int(g)].live { removeGuide(g) }
    }

    /// What a stack's constraint relates: a wanted one takes the atom that relates the same.
    private struct Relating: Hashable {
        var first: ViewRef, second: ViewRef
        var firstAttribute: Attribute, secondAttribute: Attribute?
        var relation: Relation
        init(_ a: Atom) {
            (first, second, firstAttribute, relation) = (a.first, a.second, a.firstAttribute, a.relation)
            secondAttribute = a.second == .noRef ? nil : a.secondAttribute
        }
    }

    /// Each wanted constraint takes the atom that relates the same views and attributes (its
    /// constant, multiplier or priority set in place), so inserting or removing an arranged
    /// view keeps every other constraint, its engine row and its name; the atoms left over go
    /// and the new ones take free slots. Matched by place in the list, every constraint past
    /// an insertion changed: a row inserted in a 2,000-row stack re-added 2,000 engine rows.
    private mutating func syncStack(_ s: ViewRef, pinned: Set<ViewRef>, fitting: inout FittingIndex?) {
        var guides = stacks[s]?.guides ?? []
        let wanted = arrangement(of: s, pinned: pinned, guides: &guides, fitting: &fitting)
        var kept: [Relating: [AtomRef]] = [:]
        for a in stacks[s]?.atoms ?? [] where a != .noRef { kept[Relating(atoms[Int(a)]), default: []].append(a) }
        var taken = [AtomRef](repeating: .noRef, count: wanted.count)
        // (A new stack has nothing to match: its first build hashes nothing.)
        for (n, w) in wanted.enumerated() where !kept.isEmpty {
            let key = Relating(w)
            if let a = kept[key]?.popLast() { taken[n] = a }
        }
        // In slot order, whatever the dictionary's: which engine rows and columns are freed first
        // must not differ between processes (replicas answer alike).
        for a in kept.values.joined().sorted() { removeAtom(a) }  // removeAtom empties its slot
        var state = stacks[s] ?? StackState()
        state.guides = guides
        var hole = 0
        for (n, w) in wanted.enumerated() {
            var a = taken[n]
            if a != .noRef {
                let x = atoms[Int(a)]
                if x.multiplier != w.multiplier || x.constant != w.constant || x.priority != w.priority {
                    atoms[Int(a)].multiplier = w.multiplier; atoms[Int(a)].constant = w.constant; atoms[Int(a)].priority = w.priority
                    markDirty(atom: a)
                }
            } else {
                while hole < state.atoms.count && state.atoms[hole] != .noRef { hole += 1 }
                var atom = w
                atom.origin = .stack(s, Int32(hole))
                a = newAtom(atom)
                markDirty(atom: a)
                if hole < state.atoms.count { state.atoms[hole] = a } else { state.atoms.append(a) }
            }
            if isFillTie(w, of: s) { views[Int(w.first)].fillTie = a }
        }
        while state.atoms.last == .noRef { state.atoms.removeLast() }
        stacks[s] = state
    }

    /// A label arranged in a vertical fill stack rewrapped: its tie-breaker follows its new
    /// height in place. The stack made again for it cost O(stack) a rewrap (+8–20% of a
    /// column of wrapping labels' layout, callgrind; quadratic in one long stack of them).
    mutating func retie(_ v: ViewRef, in s: ViewRef) {
        // A stack to be made again reads the new height then.
        let a = views[Int(v)].fillTie
        guard !changes.dirtyStackSet.contains(s), a != .noRef else { return }
        // The ref is kept, not cleared, when the stack drops the tie (the view no longer
        // arranged, its last, hidden) or goes: one that is not this stack's tie on this view
        // is stale, and the view has none (every sync sets each tie it makes).
        guard atoms[Int(a)].live, isFillTie(atoms[Int(a)], of: s), atoms[Int(a)].first == v else {
            views[Int(v)].fillTie = .noRef
            return
        }
        guard let h = views[Int(v)].intrinsicHeight else { return markStackDirty(s) }
        if atoms[Int(a)].constant != h {
            atoms[Int(a)].constant = h
            markDirty(atom: a)
        }
    }

    /// The atoms a stack wants now, in order (their index is their name's). Guides are made
    /// or dropped to the number the distribution needs.
    /// Whether x is stack s's fill tie-breaker on one of its views (`height == intrinsic @1`
    /// along a vertical stack), as `arrangement` makes it.
    private func isFillTie(_ x: Atom, of s: ViewRef) -> Bool {
        guard case .stack(s, _) = x.origin, x.priority == 1, x.second == .noRef, x.first != s, x.relation == .equal else { return false }
        return x.firstAttribute == (views[Int(s)].spec.stack?.axis == .horizontal ? .width : .height)
    }

    private mutating func arrangement(of s: ViewRef, pinned: Set<ViewRef>, guides: inout [ViewRef], fitting: inout FittingIndex?) -> [Atom] {
        let spec = views[Int(s)].spec.stack!
        if spec.distribution == .fillProportionally { proportionalStacks = true }
        let horizontal = spec.axis == .horizontal
        let m = spec.marginsRelative
        // Main and cross axis attributes, of arranged views and of the stack (its margins when relative).
        let (start, end, size, center): (Attribute, Attribute, Attribute, Attribute) =
            horizontal ? (.leading, .trailing, .width, .centerX) : (.top, .bottom, .height, .centerY)
        let (cStart, cEnd, cSize, cCenter): (Attribute, Attribute, Attribute, Attribute) =
            horizontal ? (.top, .bottom, .height, .centerY) : (.leading, .trailing, .width, .centerX)
        func edge(_ a: Attribute) -> Attribute {
            guard m else { return a }
            switch a {
            case .leading: return .leadingMargin
            case .trailing: return .trailingMargin
            case .top: return .topMargin
            case .bottom: return .bottomMargin
            case .centerX: return .centerXWithinMargins
            case .centerY: return .centerYWithinMargins
            default: return a
            }
        }
        var out: [Atom] = []
        func add(
            _ a: ViewRef, _ aa: Attribute, _ r: Relation, _ b: ViewRef = .noRef, _ ba: Attribute = .left,
            multiplier: Double = 1, _ c: Double = 0, priority: Double = Priority.required
        ) {
            out.append(
                Atom(
                    first: a, second: b, firstAttribute: aa, secondAttribute: ba, relation: r, origin: .stack(s, 0),
                    multiplier: multiplier, constant: c, priority: priority))
        }
        let arranged = spec.arranged.compactMap { viewRef($0) }.filter { views[Int($0)].live && views[Int($0)].parent == s }
        let visible = arranged.filter { !views[Int($0)].spec.hidden }
        func intrinsic(_ v: ViewRef) -> Double? { horizontal ? views[Int(v)].intrinsicWidth : views[Int(v)].intrinsicHeight }

        // Guides: one per gap for equalSpacing and equalCentering, none otherwise.
        let gaps = (spec.distribution == .equalSpacing || spec.distribution == .equalCentering) ? max(0, visible.count - 1) : 0
        while guides.count > gaps { removeGuide(guides.removeLast()) }
        while guides.count < gaps { guides.append(newGuide(in: s, k: guides.count)) }

        // Along the axis: the ends, the gaps, the sizes.
        if let first = visible.first, let last = visible.last {
            add(first, start, .equal, s, edge(start))
            add(last, end, .equal, s, edge(end))
        }
        // A gap runs from one view's end to the next one's start: baseline to baseline in a
        // baseline-relative vertical stack (a view without text has its edges as baselines).
        let (gapFrom, gapTo): (Attribute, Attribute) = spec.baselineRelative && !horizontal ? (.lastBaseline, .firstBaseline) : (end, start)
        var spacingSum = 0.0
        for (i, (a, b)) in zip(visible, visible.dropFirst()).enumerated() {
            let spacing = spec.standardSpacing ? standardSpace(b, gapTo, a, gapFrom) : spec.spacing
            spacingSum += spacing
            switch spec.distribution {
            case .fill, .fillEqually, .fillProportionally:
                add(b, gapTo, .equal, a, gapFrom, spacing)
            case .equalSpacing:
                let g = guides[i]
                add(g, start, .equal, a, gapFrom)
                add(g, end, .equal, b, gapTo)
                add(g, size, .greaterOrEqual, .noRef, .left, spacing)
                if i > 0 { add(g, size, .equal, guides[0], size) }
            case .equalCentering:
                let g = guides[i]
                add(g, start, .equal, a, center)
                add(g, end, .equal, b, center)
                add(b, gapTo, .greaterOrEqual, a, gapFrom, spacing)
                if i > 0 { add(g, size, .equal, guides[0], size, priority: 999) }
            }
        }
        switch spec.distribution {
        case .fill:
            // Among views that hug (or resist compression) alike, the last one stretches or
            // shrinks: UIStackView resolves such ties by index; the others keep their size.
            for v in visible.dropLast() { if let w = intrinsic(v) { add(v, size, .equal, .noRef, .left, w, priority: 1) } }
        case .fillEqually:
            for v in visible.dropFirst() { add(v, size, .equal, visible[0], size) }
        case .fillProportionally:
            // A view without an intrinsic size (a nested stack) shares by its fitting size: where
            // UIKit's passes settle, each sharing by the size the last one gave it.
            let sizes = visible.map { intrinsic($0) ?? fittedLength($0, horizontal: horizontal, fitting: &fitting) }
            let total = sizes.reduce(0, +)
            if total > 0 {
                let insets = views[Int(s)].spec.margins
                let marginSum = m ? (horizontal ? insets.left + insets.right : insets.top + insets.bottom) : 0
                let spacing = spacingSum + marginSum
                // The first view's share of the stack, each other view's in proportion to the
                // view before it (its share of the stack where that one has none): the same
                // sizes. Each share of the stack made every view's size depend on the stack's,
                // which the basis holds as the sum of all of them, and each step on a cell read
                // the whole column (a proportional column of 160 cells whose heights conflict
                // with their content: 5.8 → 3.3 G instructions).
                for (i, (v, w)) in zip(visible, sizes).enumerated() {
                    if i > 0 && sizes[i - 1] > 0 {
                        add(v, size, .equal, visible[i - 1], size, multiplier: w / sizes[i - 1])
                    } else {
                        let k = w / total
                        add(v, size, .equal, s, size, multiplier: k, -k * spacing)
                    }
                }
            }
        case .equalSpacing, .equalCentering:
            break
        }
        // Across: the alignment, for visible and hidden views alike; when every arranged view
        // is hidden, UIKit lays the stack out 0 × 0 (what hangs below it moves up): the hidden
        // views only stand at its edge, and nothing holds its thickness.
        // UIKit ties the first arranged view to the stack across (`UISV-canvas-connection`) and
        // each other one to the first (`UISV-alignment`): the same layout, but where a
        // document's constraint pins the first elsewhere (`StackShadow`) the others follow it.
        // Only there: each tied to the stack costs the engine less (tied to the first, a stack
        // feed's one-shot layout took 12% more instructions) and breaks the same, since a
        // later view's tie to the stack never gives way to an explicit constraint.
        let allHidden = visible.isEmpty && !arranged.isEmpty
        let anchor = arranged.first.flatMap { pinned.contains($0) ? $0 : nil } ?? .noRef
        for v in arranged {
            if allHidden {
                add(v, cStart, .equal, s, edge(cStart))
                add(v, cSize, .equal, .noRef, .left, 0, priority: 1)
                continue
            }
            let (to, toStart, toEnd, toCenter) =
                anchor == .noRef || v == anchor ? (s, edge(cStart), edge(cEnd), edge(cCenter)) : (anchor, cStart, cEnd, cCenter)
            switch spec.alignment {
            case .fill:
                add(v, cStart, .equal, to, toStart)
                add(v, cEnd, .equal, to, toEnd)
            case .leading:
                add(v, cStart, .equal, to, toStart)
                add(v, cEnd, .lessOrEqual, s, edge(cEnd))
            case .trailing:
                add(v, cEnd, .equal, to, toEnd)
                add(v, cStart, .greaterOrEqual, s, edge(cStart))
            case .center:
                add(v, cCenter, .equal, to, toCenter)
                add(v, cStart, .greaterOrEqual, s, edge(cStart))
            case .firstBaseline, .lastBaseline:
                let baseline: Attribute = spec.alignment == .firstBaseline ? .firstBaseline : .lastBaseline
                if let anchor = visible.first, v != anchor { add(v, baseline, .equal, anchor, baseline) }
                add(v, cStart, .greaterOrEqual, s, edge(cStart))
                add(v, cEnd, .lessOrEqual, s, edge(cEnd))
                add(v, cStart, .equal, s, edge(cStart), priority: 25)
            }
        }
        // Not filling across, the stack is as thick as its thickest view unless told otherwise.
        if (spec.alignment != .fill || allHidden) && !arranged.isEmpty { add(s, cSize, .equal, .noRef, .left, 0, priority: 25) }
        // A hidden view collapses where it stands: no size, after the visible view before it.
        for (i, v) in arranged.enumerated() where views[Int(v)].spec.hidden {
            add(v, size, .equal, .noRef, .left, 0)
            if let before = arranged[..<i].last(where: { !views[Int($0)].spec.hidden }) {
                add(v, start, .equal, before, end)
            } else {
                add(v, start, .equal, s, edge(start))
            }
        }
        if allHidden, let last = arranged.last { add(last, end, .equal, s, edge(end)) }
        // Guides have no thickness, at the stack's edge.
        for g in guides {
            add(g, cStart, .equal, s, cStart)
            add(g, cSize, .equal, .noRef, .left, 0)
        }
        return out
    }

    /// A view's compressed fitting size along an axis: a nested stack of sized views adds up
    /// its arrangement (a fitting engine for each of the 1,000 rows of a proportional feed
    /// tripled its build); anything else is fitted on an engine of its own; 0 when it has
    /// nothing to fit.
    private func fittedLength(_ v: ViewRef, horizontal: Bool, fitting: inout FittingIndex?) -> Double {
        if let n = natural(v, horizontal: horizontal) { return n }
        if fitting == nil { fitting = fittingIndex() }
        guard views[Int(v)].spec.stack != nil || fitting!.children[v] != nil else { return 0 }
        let request = FittingRequest(view: views[Int(v)].spec.id, target: (0, 0), priorities: (50, 50))
        guard let size = try? fittingSize(request, limits: SessionLimits(), index: fitting) else { return 0 }
        return horizontal ? size.width : size.height
    }

    /// A view's natural length along an axis: its intrinsic size, or a stack's arrangement of
    /// views that have one (its arranged views' lengths and spacing along its axis, the
    /// longest across, with its margins when relative); nil for anything else.
    private func natural(_ v: ViewRef, horizontal: Bool) -> Double? {
        let record = views[Int(v)]
        if let n = horizontal ? record.intrinsicWidth : record.intrinsicHeight { return n }
        guard let stack = record.spec.stack else { return nil }
        var lengths: [Double] = []
        for id in stack.arranged {
            guard let a = viewRef(id), views[Int(a)].live, !views[Int(a)].spec.hidden else { continue }
            guard let n = natural(a, horizontal: horizontal) else { return nil }
            lengths.append(n)
        }
        let m = record.spec.margins
        let margins = stack.marginsRelative ? (horizontal ? m.left + m.right : m.top + m.bottom) : 0
        guard (stack.axis == .horizontal) == horizontal else { return (lengths.max() ?? 0) + margins }
        let gap = stack.standardSpacing ? Self.siblingSpace : stack.spacing
        return lengths.reduce(0, +) + gap * Double(max(0, lengths.count - 1)) + margins
    }

    private mutating func newGuide(in s: ViewRef, k: Int) -> ViewRef {
        var spec = ViewSpec(id: "\(views[Int(s)].spec.id).gap.\(k)", parent: views[Int(s)].spec.id)
        spec.isGuide = true
        sequence += 1
        var record = ViewRecord(spec: spec, parent: s, sequence: sequence)
        record.internalGuide = true
        let r = insertRecord(record)
        liveViews += 1
        guideViews += 1
        markDirty(view: r)
        return r
    }

    /// Every constraint naming a guide is its stack's own, which `syncStack` updates in place
    /// or removes (and `dropStack` removes first): none is left to look for here.
    private mutating func removeGuide(_ g: ViewRef) {
        views[Int(g)].live = false
        liveViews -= 1
        guideViews -= 1
        changes.removedViews.append(g)
        freeView(g)
    }
}
