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
        guard let png = Self.wantedPicture(req) else { return .json(200, Self.json(c)) }
        let drawn = zip(c.expected, c.actual).map { e, a in
            let moved = Set(c.differences.filter { $0.size == e.size && $0.kind != .missing }.map(\.view))
            return Picture(name: e.size, expected: e.frames, actual: a.frames, moved: moved, parents: parents)
        }
        return try pictures.answer(drawn, png: png, req)
    }

    /// nil for JSON (the default); else whether PNG (true) or SVG was named first.
    static func wantedPicture(_ req: Request) -> Bool? {
        guard let accept = req.header("Accept") else { return nil }
        for part in accept.lowercased().split(separator: ",") {
            switch part.split(separator: ";").first.map({ $0.trimming(" ") }) ?? "" {
            case "image/png": return true
            case "image/svg+xml": return false
            case "application/json", "application/*", "*/*": return nil
            default: continue
            }
        }
        return nil
    }

    static func json(_ c: FrameComparison) -> JSON {
        func frame(_ f: FrameEntry?) -> JSON {
            guard let f else { return .null }
            var m: [(key: String, value: JSON)] = [
                ("x", .number(f.frame.x)), ("y", .number(f.frame.y)), ("width", .number(f.frame.width)), ("height", .number(f.frame.height))
            ]
            if f.hidden { m.append(("hidden", .bool(true))) }
            return .object(m)
        }
        let differences: [JSON] = c.differences.map { d in
            var m: [(key: String, value: JSON)] = []
            if let s = d.size { m.append(("size", .string(s))) }
            m += [("view", .string(d.view)), ("kind", .string(d.kind.rawValue)), ("delta", .number(d.delta))]
            m += [("expected", frame(d.expected)), ("actual", frame(d.actual))]
            return .object(m)
        }
        return .object([
            ("equal", .bool(c.differences.isEmpty)), ("tolerance", .number(c.tolerance)), ("compared", .number(Double(c.compared))),
            ("maxDelta", .number(c.maxDelta)), ("differences", .array(differences))
        ])
    }
}
