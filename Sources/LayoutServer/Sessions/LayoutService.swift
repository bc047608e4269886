import IBCheck
import InterfaceBuilder
import JSON
import LayoutModel

/// One-shot work, nothing kept: a layout (at its size or at many), a fitting size, what
/// pictures of a document sent whole draw; and what sessions share with it: the memory budget,
/// a request's sizes, diagnostics counted in the metrics. It answers model values: the wire
/// side makes JSON and pictures of them.
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

    /// A one-shot layout (its frames read once, then dropped) and its diagnostics: the
    /// caller frees it after the answer is queued.
    func oneShot(_ body: [UInt8]) throws(Problem) -> OneShotLayout {
        try checkMemoryBudget()
        let (session, document) = try SessionService.session(body, limits: configuration.layoutLimits, oneShot: true)
        return plain(session, document)
    }

    /// A one-shot layout whose body may send `sizes` beside the document's fields (read in
    /// place with the document): at those sizes, one build and then a set-constant on the
    /// roots a size (`LayoutSession.layouts`); without any after all (the word was elsewhere
    /// in the body), the plain layout of the same build.
    enum OneShotAnswer {
        case sized(SizeList, [SizedLayout])
        case plain(OneShotLayout)
    }

    func oneShotTakingSizes(_ body: [UInt8]) throws(Problem) -> OneShotAnswer {
        switch try made(body) {
        case .sized(_, let list, let layouts): return .sized(list, layouts)
        case .plain(let layout): return .plain(layout)
        }
    }

    private enum Made {
        case sized(LayoutSession, SizeList, [SizedLayout])
        case plain(OneShotLayout)
    }

    private func made(_ body: [UInt8]) throws(Problem) -> Made {
        try checkMemoryBudget()
        let made: (session: LayoutSession, tree: JSON?, sizes: JSON?)
        do throws(LayoutSession.BodyError) {
            made = try LayoutSession.make(body: body, limits: configuration.layoutLimits, takingSizes: true)
        } catch { throw Problem(error) }
        guard let sizes = made.sizes else { return .plain(plain(made.session, made.tree)) }
        let list = try sizeList(sizes)
        do throws(LayoutError) {
            let layouts = try made.session.layouts(at: list.entries.map(\.size), restoring: false)
            for l in layouts { count(l.diagnostics) }
            return .sized(made.session, list, layouts)
        } catch { throw Problem(error) }
    }

    private func plain(_ session: LayoutSession, _ document: JSON?) -> OneShotLayout {
        let diagnostics = session.diagnostics()
        count(diagnostics)
        return OneShotLayout(session: session, diagnostics: diagnostics, document: document)
    }

    func sizeList(_ json: JSON?) throws(Problem) -> SizeList {
        try SizeList(json, maxSizes: configuration.maxSizes, maxPoints: configuration.maxSizePoints)
    }

    /// A one-shot fitting size.
    func fittingSize(_ body: JSON) throws(Problem) -> (view: String, width: Double, height: Double) {
        try checkMemoryBudget()
        do throws(LayoutError) { return try LayoutSession.fittingSize(body, limits: configuration.layoutLimits) } catch { throw Problem(error) }
    }

    /// What pictures of a document sent whole draw (the body a one-shot layout takes): at
    /// its own size, or at each of its `sizes`.
    func scenes(_ body: [UInt8]) throws(Problem) -> [SessionScene] {
        switch try made(body) {
        case .plain(let layout): return [layout.session.scene(diagnostics: layout.diagnostics)]
        case .sized(let session, let list, let layouts): return session.scenes(layouts, named: list.entries.map(\.name))
        }
    }

    /// An Interface Builder document read, each of its roots laid out as the answer reaches it
    /// (one at a time, so that only one root's engine is alive), its diagnostics counted.
    func imported(_ xml: [UInt8], options: ImportOptions) throws(Problem) -> ImportedLayouts {
        try checkMemoryBudget()
        let limits = configuration.layoutLimits
        let document: ImportedDocument
        do throws(ImportError) {
            document = try Importer.read(xml, options: options, limits: RootLayout.xmlLimits(bytes: xml.count, limits: limits))
        } catch { throw Problem(error) }
        return ImportedLayouts(document: document, options: options) { [self] root in
            let layout = RootLayout(root, limits: limits)
            count(layout.diagnostics)
            return layout
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

/// A one-shot layout as the answer reads it: every frame straight from its session (no list
/// is made), its diagnostics, and the parsed tree if one was made, all freed together once
/// the answer is queued.
struct OneShotLayout: HandsOverFrames, @unchecked Sendable {
    // Unchecked: the answer holds the only references, and the worker only drops them.
    fileprivate let session: LayoutSession
    let diagnostics: [Diagnostic]
    fileprivate let document: JSON?

    var viewCount: Int { session.document.viewCount }

    func forEachFrame(_ body: (_ id: String, _ frame: Rect, _ hidden: Bool) -> Void) { session.forEachFrame(body) }
}

/// An imported document whose roots are laid out one by one, when `layOut` is called.
struct ImportedLayouts {
    let document: ImportedDocument
    let options: ImportOptions
    let layOut: (ImportedRoot) -> RootLayout
}
