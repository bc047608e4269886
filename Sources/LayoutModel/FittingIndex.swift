import CheckedNumbers
/// What finding a view's subtree reads of the document: each live view's children, and each
/// live entry under the first view it names. Made once a `syncStacks`: a fillProportionally
/// stack fits each arranged view without an intrinsic size, and a fit that walked every view
/// and sorted every entry was O(n) a view, n² for a stack of n (82% of a 2,000-view stack's
/// one-shot). What `syncStacks` writes meanwhile is none of this: stacks' guides (children of
/// stacks, left out of a subtree's JSON) and atoms (not entries).
struct FittingIndex {
    var children: [ViewRef: [ViewRef]] = [:]
    var entriesByView: [ViewRef: [EntryRef]] = [:]
    /// Live entries that name no live view: in every subtree, as the walk over all had them.
    var unattached: [EntryRef] = []
}

extension LayoutDocument {
    func fittingIndex() -> FittingIndex {
        var index = FittingIndex()
        for v in views.indices where views[v].live && views[v].parent != .noRef {
            index.children[views[v].parent, default: []].append(ViewRef(v))
        }
        for e in entries.indices where entries[e].live {
            let ref = EntryRef(e)
            if let a = liveMembers(of: ref).first, a != .noRef {
                index.entriesByView[atoms[Int(a)].first, default: []].append(ref)
            } else {
                index.unattached.append(ref)
            }
        }
        return index
    }

    /// `root`'s subtree (root included), from the index: its views in document order, and the
    /// entries whose every member relates views inside it, in the order they came.
    func subtree(_ root: ViewRef, _ index: FittingIndex) -> (views: [ViewRef], entries: [EntryRef]) {
        var inside: Set<ViewRef> = [root], stack = [root], order: [ViewRef] = []
        while let v = stack.popLast() {
            order.append(v)
            for c in index.children[v] ?? [] where inside.insert(c).inserted { stack.append(c) }
        }
        order.sort { views[Int($0)].sequence < views[Int($1)].sequence }
        var found: [EntryRef] = index.unattached
        for v in order { found += index.entriesByView[v] ?? [] }
        let entries = found.filter { e in
            liveMembers(of: e).allSatisfy { a in
                let x = atoms[Int(a)]
                return inside.contains(x.first) && (!x.hasSecond || inside.contains(x.second))
            }
        }.sorted { self.entries[Int($0)].sequence < self.entries[Int($1)].sequence }
        return (order, entries)
    }
}
