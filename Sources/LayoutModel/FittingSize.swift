public import JSON
import ConstraintSolver

/// systemLayoutSizeFitting: the size a view's own subtree asks for when its width and height
/// are pulled toward a target at given priorities (API.md v1.1). Computed on a separate
/// engine holding only the subtree, so the session is untouched (revision, frames, engine).
public struct FittingRequest: Sendable {
    public var view: String
    public var target: (width: Double, height: Double)
    /// Apple's defaults: required across, `fittingSizeLevel` (50) down.
    public var priorities: (horizontal: Double, vertical: Double)

    static let fields: Set<String> = ["view", "targetSize", "horizontalFittingPriority", "verticalFittingPriority"]

    /// Decodes the request's fields (`document`, for the one-shot form, is the caller's).
    public static func decode(_ json: JSON, allowing extra: Set<String> = []) throws(LayoutError) -> FittingRequest {
        let p = Pointer()
        guard let members = json.members else { throw LayoutError(.invalid, "", "a fitting-size request is an object with a view") }
        for (k, _) in members where !fields.contains(k) && !extra.contains(k) { throw p(k).fail("unknown field '\(k)'") }
        guard let view = json["view"]?.string else { throw p("view").fail("view is the id of the view to fit") }
        var target = (width: 0.0, height: 0.0)
        if let t = json["targetSize"], !t.isNull {
            guard let m = t.members else { throw p("targetSize").fail("targetSize is {width, height}") }
            try ViewSpec.onlyKeys(m, ["width", "height"], at: p("targetSize"))
            target.width = try ViewSpec.optionalNumber(t["width"], at: p("targetSize")("width"), min: 0) ?? 0
            target.height = try ViewSpec.optionalNumber(t["height"], at: p("targetSize")("height"), min: 0) ?? 0
        }
        func priority(_ key: String, _ d: Double) throws(LayoutError) -> Double {
            guard let v = json[key], !v.isNull else { return d }
            return try ViewSpec.priority(v, at: p(key))
        }
        return FittingRequest(
            view: view, target: target,
            priorities: (try priority("horizontalFittingPriority", Priority.required), try priority("verticalFittingPriority", 50)))
    }
}

extension LayoutDocument {
    /// The fitted size of the request's view in this document.
    /// `index`, when the caller fits many views of one document (`FittingIndex`).
    func fittingSize(_ r: FittingRequest, limits: SessionLimits, index: FittingIndex? = nil) throws(LayoutError) -> (width: Double, height: Double) {
        guard let root = viewRef(r.view) else { throw Pointer()("view").fail("unknown view '\(r.view)'") }
        // The pull toward the target, under ids the document does not use.
        var width = "fitting#width", height = "fitting#height"
        while isTaken(width) || isTaken(height) { width += "#"; height += "#" }
        let pulls: [JSON] = [
            .object([
                ("id", .string(width)), ("first", .string("\(r.view).width")), ("constant", .number(r.target.width)),
                ("priority", .number(r.priorities.horizontal))
            ]),
            .object([
                ("id", .string(height)), ("first", .string("\(r.view).height")), ("constant", .number(r.target.height)),
                ("priority", .number(r.priorities.vertical))
            ])
        ]
        let sub = json(subtree: root, adding: pulls, index: index)
        var engineLimits = limits
        engineLimits.maxViews = .max
        engineLimits.maxConstraints = .max
        let fitted = try LayoutSession(document: sub, limits: engineLimits)
        guard let frame = fitted.frame(of: r.view) else { return (0, 0) }
        return (frame.width, frame.height)
    }
}

extension LayoutSession {
    /// `POST /v1/sessions/{id}/fitting-size`: nothing of the session changes.
    public func fittingSize(_ request: JSON) throws(LayoutError) -> (view: String, width: Double, height: Double) {
        let r = try FittingRequest.decode(request)
        let size = try document.fittingSize(r, limits: limits)
        return (r.view, size.width, size.height)
    }

    /// `POST /v1/fitting-size`: `{document, view, ...}`, one shot.
    public static func fittingSize(_ request: JSON, limits: SessionLimits = SessionLimits()) throws(LayoutError) -> (
        view: String, width: Double, height: Double
    ) {
        let r = try FittingRequest.decode(request, allowing: ["document"])
        guard let doc = request["document"], !doc.isNull else { throw Pointer()("document").fail("document is the layout document") }
        var document = LayoutDocument()
        do { try load(doc, into: &document) } catch { throw error.under("/document") }
        if document.viewCount > limits.maxViews || document.constraintCount > limits.maxConstraints {
            throw LayoutError(
                .limit, "/document",
                "the document has \(document.viewCount) views and \(document.constraintCount) constraints; the limits are \(limits.maxViews) and \(limits.maxConstraints)"
            )
        }
        let size = try document.fittingSize(r, limits: limits)
        return (r.view, size.width, size.height)
    }

    /// A view's current frame by id.
    func frame(of id: String) -> Rect? {
        guard let r = document.viewRef(id) else { return nil }
        return views.reported(r)?.frame
    }
}
