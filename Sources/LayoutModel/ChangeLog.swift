/// What the ops of the change in progress touched: read by the session as it takes the change
/// into its engine, and reset once it has (`LayoutDocument.settle`). `prepare` consumes the
/// placements, restyled views and dirty stacks before the session reads the rest.
struct ChangeLog {
    var dirtyAtoms: [AtomRef] = []
    var dirtyViews: [ViewRef] = []
    var removedViews: [ViewRef] = []
    var churnRemoved: [(atom: AtomRef, shape: Atom.Shape)] = []
    var churnAdded: [(atom: AtomRef, shape: Atom.Shape)] = []
    /// Views whose style changed: the atoms naming them become dirty (`prepare`).
    var restyledViews: [ViewRef] = []
    /// Stacks whose constraints are made again (`syncStacks`).
    var dirtyStacks: [ViewRef] = []
    /// `dirtyStacks` as a set: whether a stack is in it, without a search.
    var dirtyStackSet: Set<ViewRef> = []
    /// Entries added `before` another this change, in op order (`place`).
    var placements: [(moved: [EntryRef], anchor: EntryRef)] = []
    /// Views added or moved `before` another this change, in op order (`place(views:)`).
    var viewPlacements: [(moved: [ViewRef], anchor: ViewRef)] = []
    /// Views were placed this change: which constraint a conflict breaks may change though
    /// no atom did (a content size ranks by its view's place).
    var ranksMoved = false
    /// Slots freed this change: reused only once the session has taken it, so that within a
    /// change a ref names one thing.
    var freedViews: [ViewRef] = [], freedAtoms: [AtomRef] = [], freedEntries: [EntryRef] = []

    /// Empty again, for the next change; the dirty lists keep their room (the hot path's).
    mutating func reset() {
        dirtyAtoms.clearScratch()
        dirtyViews.clearScratch()
        removedViews.removeAll()
        churnRemoved.removeAll()
        churnAdded.removeAll()
        restyledViews.removeAll()
        dirtyStacks.removeAll()
        dirtyStackSet.removeAll()
        placements.removeAll()
        viewPlacements.removeAll()
        ranksMoved = false
        freedViews.removeAll()
        freedAtoms.removeAll()
        freedEntries.removeAll()
    }
}
