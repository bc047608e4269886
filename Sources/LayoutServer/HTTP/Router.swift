/// An immutable route table: built once, then read from every MHD thread.
struct Router: Sendable {
    typealias Handler = @Sendable (inout Request) throws(Problem) -> Response

    struct Route: Sendable {
        let method: String
        let segments: [String]   // "{name}" captures one segment
        /// The segments as bytes, nil where the segment is a capture.
        let literals: [[UInt8]?]
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
        let segments = pattern.split(separator: "/").map(String.init)
        routes.append(Route(method: method, segments: segments, literals: segments.map { $0.hasPrefix("{") ? nil : Array($0.utf8) },
                            name: pattern, handler: handler))
    }

    /// Matches on the path's bytes (no Character walking on the request path).
    func match(_ method: String, _ path: String) -> Match {
        var path = path
        return path.withUTF8 { bytes in
            var parts: [Range<Int>] = []
            var start = 0
            for (i, b) in bytes.enumerated() where b == UInt8(ascii: "/") {
                if i > start { parts.append(start..<i) }
                start = i + 1
            }
            if bytes.count > start { parts.append(start..<bytes.count) }
            var allowed: [String] = []
            for r in routes where r.literals.count == parts.count {
                var ok = true
                for (lit, range) in zip(r.literals, parts) where lit != nil {
                    if !lit!.elementsEqual(bytes[range]) { ok = false; break }
                }
                guard ok else { continue }
                if r.method == method || (method == "HEAD" && r.method == "GET") {
                    var params: [String: String] = [:]
                    for (k, range) in parts.enumerated() where r.literals[k] == nil {
                        params[String(r.segments[k].dropFirst().dropLast())] = String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
                    }
                    return .found(r, params)
                }
                if !allowed.contains(r.method) { allowed.append(r.method) }
            }
            return allowed.isEmpty ? .notFound : .methodNotAllowed(allowed)
        }
    }
}
