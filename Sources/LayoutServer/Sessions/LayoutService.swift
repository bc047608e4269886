import JSON
import LayoutModel
import Rendering

/// One-shot work, nothing kept: a layout (at its size or at many), a fitting size, pictures
/// of a document sent whole; and what sessions share with it: the memory budget, a request's
/// sizes, pictures within their glyph limit, diagnostics counted in the metrics.
struct LayoutService: Sendable {
    let metrics: ServerMetrics
    let configuration: ServerConfiguration

    /// Checked before a document is parsed, so a refused request allocates nothing.
    func checkMemoryBudget() throws(Problem) {
        guard configuration.memoryBudget.isSpent else { return }
        throw Problem(
            503,
            "the server's memory budget (\(configuration.memoryBudget.limitBytes >> 20) MiB) is spent: delete sessions you no longer need, or retry later",
            headers: [("Retry-After", "5")])
    }

    /// A one-shot layout's session (read once, then dropped), its diagnostics, and the parsed
    /// tree if one was made: the caller frees both after the answer is queued.
    func oneShot(_ body: [UInt8]) throws(Problem) -> (session: LayoutSession, diagnostics: [Diagnostic], document: JSON?) {
        try checkMemoryBudget()
        let (session, document) = try SessionService.session(body, limits: configuration.layoutLimits, oneShot: true)
        let diagnostics = session.diagnostics()
        count(diagnostics)
        return (session, diagnostics, document)
    }

    /// A one-shot layout whose body may send `sizes` beside the document's fields (read in
    /// place with the document): at those sizes, one build and then a set-constant on the
    /// roots a size (`LayoutSession.layouts`); without any after all (the word was elsewhere
    /// in the body), the plain layout of the same build.
    enum OneShotAnswer {
        case sized(LayoutSession, SizeList, [SizedLayout])
        case plain(session: LayoutSession, diagnostics: [Diagnostic], document: JSON?)
    }

    func oneShotTakingSizes(_ body: [UInt8]) throws(Problem) -> OneShotAnswer {
        try checkMemoryBudget()
        let made: (session: LayoutSession, tree: JSON?, sizes: JSON?)
        do throws(LayoutSession.BodyError) {
            made = try LayoutSession.make(body: body, limits: configuration.layoutLimits, takingSizes: true)
        } catch { throw Problem(error) }
        guard let sizes = made.sizes else {
            let diagnostics = made.session.diagnostics()
            count(diagnostics)
            return .plain(session: made.session, diagnostics: diagnostics, document: made.tree)
        }
        let list = try sizeList(sizes)
        do throws(LayoutError) {
            let layouts = try made.session.layouts(at: list.entries.map(\.size), restoring: false)
            for l in layouts { count(l.diagnostics) }
            return .sized(made.session, list, layouts)
        } catch { throw Problem(error) }
    }

    func sizeList(_ json: JSON?) throws(Problem) -> SizeList {
        try SizeList(json, maxSizes: configuration.maxSizes, maxPoints: configuration.maxSizePoints)
    }

    /// A one-shot fitting size.
    func fittingSize(_ body: JSON) throws(Problem) -> (view: String, width: Double, height: Double) {
        try checkMemoryBudget()
        do throws(LayoutError) { return try LayoutSession.fittingSize(body, limits: configuration.layoutLimits) } catch { throw Problem(error) }
    }

    /// Pictures of a document sent whole (the body a one-shot layout takes): at its own size,
    /// or at each of its `sizes`.
    func render(_ body: [UInt8]) throws(Problem) -> [Picture] {
        switch try oneShotTakingSizes(body) {
        case .plain(let session, let diagnostics, _):
            return try drawn { () throws(Picture.TooLarge) -> [Picture] in
                [
                    try Picture(
                        name: nil, sketch: session.sketch(), frames: session.allFrames, diagnostics: diagnostics,
                        viewsOf: session.views(ofConstraint:), maxGlyphs: configuration.maxPictureGlyphs)
                ]
            }
        case .sized(let session, let list, let layouts):
            let sketch = session.sketch()
            // One budget for the whole sheet: every size draws the labels again.
            var glyphsLeft = configuration.maxPictureGlyphs
            var pictures: [Picture] = []
            for (entry, layout) in zip(list.entries, layouts) {
                // Each size's texts at the widths they were wrapped at there.
                let atSize = sketch.map { v in
                    var v = v
                    if v.text != nil { v.wrapWidth = layout.wrapWidths[v.id] }
                    return v
                }
                let left = glyphsLeft
                let picture = try drawn { () throws(Picture.TooLarge) -> Picture in
                    try Picture(
                        name: entry.name, sketch: atSize, frames: layout.frames, diagnostics: layout.diagnostics,
                        viewsOf: session.views(ofConstraint:), maxGlyphs: left)
                }
                glyphsLeft -= picture.glyphs
                pictures.append(picture)
            }
            return pictures
        }
    }

    /// A session's picture, from what was read out of it.
    func picture(of scene: SessionScene) throws(Problem) -> Picture {
        try drawn { () throws(Picture.TooLarge) -> Picture in
            try Picture(
                name: nil, sketch: scene.sketch, frames: scene.frames, diagnostics: scene.diagnostics,
                viewsOf: { scene.conflictViews[$0] ?? [] }, maxGlyphs: configuration.maxPictureGlyphs)
        }
    }

    /// A picture made, or 413 when its labels would take more glyphs than `--max-picture-glyphs`.
    func drawn<T>(_ make: () throws(Picture.TooLarge) -> T) throws(Problem) -> T {
        do throws(Picture.TooLarge) { return try make() } catch {
            throw Problem(
                413, "the picture's labels are \(error.glyphs) glyphs or more; a picture draws at most \(error.limit) (--max-picture-glyphs)")
        }
    }

    /// Diagnostics counted by kind (`layoutd_diagnostics_total`).
    func count(_ ds: [Diagnostic]) {
        guard !ds.isEmpty else { return }
        var by: [String: Int] = [:]
        for d in ds { by[d.kind, default: 0] += 1 }
        for (k, n) in by { metrics.diagnostic(k, count: n) }
    }
}
