import CheckedNumbers
/// What a picture of a layout draws of a view, beside its frame: where it sits in the tree,
/// whether it is a guide or hidden, and its text as the layout measured it.
public struct ViewSketch: Sendable {
    public var id: String
    public var parent: String?
    public var isGuide: Bool
    public var hidden: Bool
    public var text: TextContent?
    /// Where the text's frame is measured from (its frame less these).
    public var insets: Insets
    /// The width its text was wrapped at (nil: its natural lines): a picture draws it there,
    /// never at a frame rounded to pixels, which can be a pixel narrower.
    public var wrapWidth: Double?
}

/// What a picture of a session draws, read out of it (so that the drawing, every label's
/// glyphs, is done without the session's lock): its views, frames, diagnostics, and the views
/// each constraint a conflict names relates.
public struct SessionScene: Sendable {
    public var sketch: [ViewSketch]
    public var frames: [FrameEntry]
    public var diagnostics: [Diagnostic]
    public var conflictViews: [String: [String]]
}

extension LayoutSession {
    /// The session as a picture draws it.
    public func scene() -> SessionScene {
        let diagnostics = diagnostics()
        var conflictViews: [String: [String]] = [:]
        for case .unsatisfiable(_, let conflicts) in diagnostics {
            for c in conflicts where conflictViews[c] == nil { conflictViews[c] = views(ofConstraint: c) }
        }
        return SessionScene(sketch: sketch(), frames: allFrames, diagnostics: diagnostics, conflictViews: conflictViews)
    }

    /// Every view a client sees (a stack's own spacers left out), in document order.
    public func sketch() -> [ViewSketch] {
        var out: [ViewSketch] = []
        out.reserveCapacity(document.liveViews)
        document.forEachViewInOrder { v in
            let r = document.views[Int(v)]
            guard r.live, !r.internalGuide else { return }
            out.append(
                ViewSketch(
                    id: r.spec.id, parent: r.parent == .noRef ? nil : document.viewName(r.parent), isGuide: r.spec.isGuide,
                    hidden: r.spec.hidden, text: r.spec.text, insets: r.spec.alignmentInsets, wrapWidth: r.wrapWidth))
        }
        return out
    }

    /// The views a constraint (by the name a diagnostic gives it) relates.
    public func views(ofConstraint name: String) -> [String] {
        guard let a = document.atomNamed(name) else { return [] }
        let atom = document.atoms[Int(a)]
        var out = [document.viewName(atom.first)]
        if atom.hasSecond { out.append(document.viewName(atom.second)) }
        return out
    }
}
