public import InterfaceBuilder
public import LayoutModel

/// One root of an Interface Builder document laid out one-shot, at one size: the one path
/// from an imported root to frames, diagnostics and findings, which `POST /v1/ib/layout` and
/// `layoutd check` both take.
public struct RootLayout {
    public let root: ImportedRoot
    /// The session laid out (nil when layoutd refused the root's document).
    public let session: LayoutSession?
    public let error: LayoutError?
    public let diagnostics: [Diagnostic]
    /// The layout at a size other than the imported one (`resized`).
    private let sized: SizedLayout?
    /// At the imported size, the layout with ambiguous views where Xcode stored them
    /// (`ImportedRoot.holdingAmbiguousViews`); nil when nothing is ambiguous.
    private var held: LayoutSession? = nil

    /// The session whose frames are answered at the imported size: ambiguous views held.
    var framesSession: LayoutSession? { held ?? session }

    /// Every frame at the imported size as the session hands them over (no list is made);
    /// none when layoutd refused the root's document.
    public func forEachFrame(_ body: (_ id: String, _ frame: Rect, _ hidden: Bool) -> Void) { framesSession?.forEachFrame(body) }

    /// Every view's frame, in document order (read when asked: the route writes the session's).
    public var frames: [FrameEntry] { sized?.frames ?? framesSession?.allFrames ?? [] }
    /// Each wrapped text's width at a size `resized` gave (nil: the imported size's), for its picture.
    public var wrapWidths: [String: Double]? { sized?.wrapWidths }

    /// The root's layout at the size the importer gave it (the device's or its stored size).
    public init(_ root: ImportedRoot, limits: SessionLimits) {
        (self.root, sized) = (root, nil)
        do throws(LayoutError) {
            // From the tree the importer made (written out and read back, it was parsed twice).
            let session = try LayoutSession.make(document: root.document, limits: limits, oneShot: true)
            (self.session, error, diagnostics) = (session, nil, session.diagnostics())
            held = Self.holding(root, ambiguousIn: diagnostics, limits: limits)
        } catch {
            (session, self.error, diagnostics) = (nil, error, [])
        }
    }

    private init(_ root: ImportedRoot, session: LayoutSession, sized: SizedLayout) {
        (self.root, self.session, error, self.sized, diagnostics) = (root, session, nil, sized, sized.diagnostics)
    }

    private init(_ root: ImportedRoot, error: LayoutError) {
        (self.root, session, self.error, sized, diagnostics) = (root, nil, error, nil, [])
    }

    /// The root at each of `sizes` (its root view's width and height; guides and margins as
    /// imported), on this layout's session; a refused root stays refused at every size.
    public func resized(to sizes: [LayoutSize]) -> [RootLayout] {
        guard let session else { return sizes.map { _ in self } }
        do throws(LayoutError) {
            return try session.layouts(at: sizes).map { RootLayout(root, session: session, sized: $0) }
        } catch {
            return sizes.map { _ in RootLayout(root, error: error) }
        }
    }
}

extension RootLayout {
    /// The root laid out again with its ambiguous views held where Xcode stored them; its
    /// diagnostics are not answered (the document as imported is what is ambiguous).
    static func holding(_ root: ImportedRoot, ambiguousIn diagnostics: [Diagnostic], limits: SessionLimits) -> LayoutSession? {
        let ambiguous = diagnostics.compactMap { d -> (view: String, horizontal: Bool)? in
            if case .ambiguous(let v, let axis) = d { return (v, axis == .horizontal) }
            return nil
        }
        guard !ambiguous.isEmpty else { return nil }
        return try? LayoutSession.make(document: root.holdingAmbiguousViews(ambiguous), limits: limits, oneShot: true)
    }

    /// What a document of `bytes` may cost to read, for layouts within `limits`: IB writes
    /// 10–20 elements a view, so the document may hold what its views may.
    public static func xmlLimits(bytes: Int, limits: SessionLimits) -> XMLLimits {
        XMLLimits(maxBytes: bytes, maxDepth: 256, maxElements: max(1_000, 40 * limits.maxViews))
    }
}
