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
    /// The size's name when the scene is one of many sizes.
    public var name: String?
    public var sketch: [ViewSketch]
    public var frames: [FrameEntry]
    public var diagnostics: [Diagnostic]
    public var conflictViews: [String: [String]]
}

extension LayoutSession {
    /// The session as a picture draws it (`diagnostics` when they were read already).
    public func scene(diagnostics known: [Diagnostic]? = nil) -> SessionScene {
        let diagnostics = known ?? diagnostics()
        return SessionScene(
            name: nil, sketch: sketch(), frames: allFrames, diagnostics: diagnostics, conflictViews: conflictViews(diagnostics))
    }

    /// The session at each of many sizes (`layouts(at:)`'s answers, named in order), each
    /// text at the width it was wrapped at there.
    public func scenes(_ layouts: [SizedLayout], named names: [String]) -> [SessionScene] {
        let sketch = sketch()
        return zip(names, layouts).map { name, layout in
            let atSize = sketch.map { v in
                var v = v
                if v.text != nil { v.wrapWidth = layout.wrapWidths[v.id] }
                return v
            }
            return SessionScene(
                name: name, sketch: atSize, frames: layout.frames, diagnostics: layout.diagnostics,
                conflictViews: conflictViews(layout.diagnostics))
        }
    }

    private func conflictViews(_ diagnostics: [Diagnostic]) -> [String: [String]] {
        var out: [String: [String]] = [:]
        for case .unsatisfiable(_, let conflicts, _) in diagnostics {
            for c in conflicts where out[c] == nil { out[c] = views(ofConstraint: c) }
        }
        return out
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
