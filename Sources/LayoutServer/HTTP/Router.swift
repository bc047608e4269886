/// An immutable route table: built once, then read from every MHD thread.
struct Router: Sendable {
    typealias Handler = @Sendable (inout Request) throws(Problem) -> Response

    struct Route: Sendable {
        let method: String
        /// The pattern's segments as bytes, nil where the segment is a `{name}` capture.
        let literals: [[UInt8]?]
        /// Capture names by segment index, worked out once at registration.
        let captures: [(segment: Int, name: String)]
        /// The pattern, for metrics labels (bounded cardinality).
        let name: String
        let handler: Handler
    }

    enum Match {
        case found(Route, [(name: String, value: String)])
        case methodNotAllowed([String])
        case notFound
    }

    private(set) var routes: [Route] = []

    mutating func on(_ method: String, _ pattern: String, _ handler: @escaping Handler) {
        let segments = pattern.split(separator: "/").map(String.init)
        let captures = segments.enumerated().filter { $0.element.hasPrefix("{") }.map { (segment: $0.offset, name: String($0.element.dropFirst().dropLast())) }
        routes.append(Route(method: method, literals: segments.map { $0.hasPrefix("{") ? nil : Array($0.utf8) },
                            captures: captures, name: pattern, handler: handler))
    }

    /// Matches on the path's bytes (no Character walking on the request path).
    func match(_ method: String, _ path: String) -> Match {
        var path = path
        return path.withUTF8 { bytes in
            var parts: [Range<Int>] = []
            parts.reserveCapacity(8)
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
                    return .found(r, r.captures.map { c in
                        (c.name, String(decoding: UnsafeBufferPointer(rebasing: bytes[parts[c.segment]]), as: UTF8.self))
                    })
                }
                if !allowed.contains(r.method) { allowed.append(r.method) }
            }
            return allowed.isEmpty ? .notFound : .methodNotAllowed(allowed)
        }
    }
}
