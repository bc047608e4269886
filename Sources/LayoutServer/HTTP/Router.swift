/// An immutable route table: built once, then read from every MHD thread.
struct Router: Sendable {
    typealias Handler = @Sendable (inout Request) throws(Problem) -> Response

    struct Route: Sendable {
        let method: String
        let segments: [String]   // "{name}" captures one segment
        /// The pattern, for metrics labels (bounded cardinality).
        let name: String
        let handler: Handler
    }

    enum Match {
        case found(Route, [String: String])
        case methodNotAllowed([String])
        case notFound
    }

    private(set) var routes: [Route] = []

    mutating func on(_ method: String, _ pattern: String, _ handler: @escaping Handler) {
        routes.append(Route(method: method, segments: pattern.split(separator: "/").map(String.init), name: pattern, handler: handler))
    }

    func match(_ method: String, _ path: String) -> Match {
        let parts = path.split(separator: "/", omittingEmptySubsequences: true)
        var allowed: [String] = []
        for r in routes where r.segments.count == parts.count {
            var params: [String: String] = [:]
            var ok = true
            for (s, p) in zip(r.segments, parts) {
                if s.hasPrefix("{") { params[String(s.dropFirst().dropLast())] = String(p) } else if s != p { ok = false; break }
            }
            guard ok else { continue }
            if r.method == method || (method == "HEAD" && r.method == "GET") { return .found(r, params) }
            if !allowed.contains(r.method) { allowed.append(r.method) }
        }
        return allowed.isEmpty ? .notFound : .methodNotAllowed(allowed)
    }
}
