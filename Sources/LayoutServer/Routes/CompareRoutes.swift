import HTTPTransport
import JSON
import LayoutModel
import Rendering

/// `POST /v1/compare`: two answers view by view (JSON), or the two drawn over each other (SVG
/// or PNG, when `Accept` names one before JSON).
struct CompareRoutes: Sendable {
    let pictures: PictureRoutes

    func register(_ r: inout RouteTable) {
        r.on("POST", "/v1/compare") { [self] req throws(Problem) in try compare(req) }
    }

    func compare(_ req: Request) throws(Problem) -> Response {
        _ = try PictureRoutes.scale(req)
        let body = try jsonBody(req)
        let c = try FrameComparison(body)
        var parents: [String: String] = [:]
        if let doc = body["document"], !doc.isNull {
            guard doc.members != nil, let views = doc["views"]?.array else {
                throw Problem(422, "document is a layout document with views", pointer: "/document/views")
            }
            for (k, v) in views.enumerated() {
                guard v.members != nil, let id = v["id"]?.string else {
                    throw Problem(422, "a view has a string id", pointer: "/document/views/\(k)/id")
                }
                switch v["parent"] {
                case .none, .some(.null): break
                case .some(let p):
                    guard let p = p.string else { throw Problem(422, "a parent is a view's id", pointer: "/document/views/\(k)/parent") }
                    parents[id] = p
                }
            }
        }
        guard let png = Self.wantedPicture(req) else { return .json(200, WireFormat.comparison(c)) }
        let drawn = zip(c.expected, c.actual).map { e, a in
            let moved = Set(c.differences.filter { $0.size == e.size && $0.kind != .missing }.map(\.view))
            return Picture(name: e.size, expected: e.frames, actual: a.frames, moved: moved, parents: parents)
        }
        return try pictures.answer(drawn, png: png, req)
    }

    /// nil for JSON (the default); else whether PNG (true) or SVG was named first.
    static func wantedPicture(_ req: Request) -> Bool? {
        switch firstAccepted(req, of: ["image/png", "image/svg+xml", "application/json"]) {
        case "image/png": return true
        case "image/svg+xml": return false
        default: return nil
        }
    }
}
