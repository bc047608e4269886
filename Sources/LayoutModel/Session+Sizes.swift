import CheckedNumbers
import ConstraintSolver
public import JSON

/// A size to lay a document out at: every root's width and height (a root keeps its origin),
/// and optionally the pixel scale frames are rounded to and the layout direction (nil: the
/// document's own).
public struct LayoutSize: Sendable {
    public var width: Double
    public var height: Double
    public var scale: Double?
    public var layoutDirection: LayoutDirection?

    public init(width: Double, height: Double, scale: Double? = nil, layoutDirection: LayoutDirection? = nil) {
        (self.width, self.height, self.scale, self.layoutDirection) = (width, height, scale, layoutDirection)
    }
}

/// The layout at one size: every view's frame, in document order, and the diagnostics there.
public struct SizedLayout: Sendable {
    public var frames: [FrameEntry]
    public var diagnostics: [Diagnostic]
    /// The width each wrapped text was wrapped at there (a text on its natural lines is absent).
    public var wrapWidths: [String: Double]
}

extension LayoutSession {
    /// The layout at each size (a session's `frames-at`, a one-shot layout's `sizes`), on this
    /// session's engine: a root's frame is an implicit constraint, so a size is a set-constant
    /// on each root and text re-wrapped at the widths that follow, never a build.
    ///
    /// Afterwards the session is as it was: its document and options, its engine's solution
    /// (the roots set back the same way), its revision and its reported frames, which are not
    /// touched at all: the frames here are read from the engine, and what moved meanwhile is
    /// forgotten, so the next change reports only what it moves.
    ///
    /// A session whose layout is broken or ambiguous is laid out on a build of its document
    /// instead: which constraint breaks follows the order of changes, and an ambiguous
    /// layout may settle elsewhere when its roots are set back, so either could leave the
    /// session other than it was. `restoring: false` skips setting back (a one-shot layout's
    /// session, thrown away).
    public func layouts(at sizes: [LayoutSize], restoring: Bool = true) throws(LayoutError) -> [SizedLayout] {
        if restoring && solver.hasDiagnostics {
            return try LayoutSession.make(document: document.json, limits: limits).layouts(at: sizes, restoring: false)
        }
        var roots: [ViewRef] = []
        for i in document.views.indices where document.views[i].live && document.views[i].parent == .noRef {
            if document.views[i].spec.frame != nil { roots.append(ViewRef(i)) }
        }
        guard !roots.isEmpty else { throw LayoutError(.invalid, "/sizes", "the document has no root view with a frame to size") }
        let frames = roots.map { document.views[Int($0)].spec.frame! }
        let options = document.options
        var out: [SizedLayout] = []
        out.reserveCapacity(sizes.count)
        for size in sizes {
            resize(
                roots, to: frames.map { Rect(x: $0.x, y: $0.y, width: size.width, height: size.height) },
                scale: size.scale ?? options.scale, direction: size.layoutDirection ?? options.layoutDirection)
            out.append(SizedLayout(frames: engineFrames(), diagnostics: diagnostics(), wrapWidths: wrapWidths()))
        }
        if restoring { resize(roots, to: frames, scale: options.scale, direction: options.layoutDirection) }
        return out
    }

    /// Sets the roots' frames and the options in place, and brings the engine and text in
    /// step. The values were checked by the caller, so nothing here can fail half-way.
    private func resize(_ roots: [ViewRef], to frames: [Rect], scale: Double?, direction: LayoutDirection) {
        let p = Pointer()
        do throws(LayoutError) {
            for (r, f) in zip(roots, frames) {
                let frame = JSON.object([("x", .number(f.x)), ("y", .number(f.y)), ("width", .number(f.width)), ("height", .number(f.height))])
                try document.updateView(document.viewName(r), fields: [("frame", frame)], at: p)
            }
            try document.setOptions(
                .object([("layoutDirection", .string(direction.rawValue)), ("scale", scale.map(JSON.number) ?? .null)]), at: p)
        } catch {
            preconditionFailure("a checked size was refused: \(error.detail)")
        }
        document.prepare()
        translate()
        settleText(changed: document.changes.dirtyViews)
        solver.forgetChanges()
        carriedMoves.removeAll(keepingCapacity: true)
        document.settle()
    }

    private func wrapWidths() -> [String: Double] {
        guard document.textViews > 0 else { return [:] }
        var out: [String: Double] = [:]
        for r in document.views where r.live && r.spec.hasText { if let w = r.wrapWidth { out[r.spec.id] = w } }
        return out
    }

    /// Every view's frame as the engine has it now (rounded as the options say), in document order.
    private func engineFrames() -> [FrameEntry] {
        var out: [FrameEntry] = []
        out.reserveCapacity(document.liveViews)
        document.forEachViewInOrder { v in
            let record = document.views[Int(v)]
            guard record.live, !record.internalGuide, let vars = views[v] else { return }
            out.append(FrameEntry(id: record.spec.id, frame: currentFrame(vars), hidden: record.spec.hidden))
        }
        return out
    }
}
