/// Guides the importer makes for areas constraints reach that are no view of the document: a
/// scroll view's content area (made when a constraint first reaches it) and a table cell's
/// bounds where its content view is stored smaller.
struct AreaGuides {
    /// Views that scroll: their content guide is made when a constraint first reaches it.
    var scrollers: Set<String> = []
    /// A scroll view's content area: the guide its subviews' edge constraints reach.
    var contentGuide: [String: String] = [:]
    /// A table cell stored wider than its content view, and the guide of its bounds.
    var cellBounds: CellBounds?
}

/// A table cell and the guide of its bounds in its content view's coordinates.
struct CellBounds {
    var cell: String
    var guide: String
}
