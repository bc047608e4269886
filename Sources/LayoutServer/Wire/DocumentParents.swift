import JSON

/// The parent of each view of a comparison's optional `document` (`POST /v1/compare`), so
/// that its picture nests the views as the document does; empty without one.
enum DocumentParents {
    static func decode(_ body: JSON) throws(Problem) -> [String: String] {
        var parents: [String: String] = [:]
        guard let doc = body["document"], !doc.isNull else { return parents }
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
        return parents
    }
}
