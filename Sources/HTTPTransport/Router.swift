import CheckedNumbers
/// An immutable route table: built once, then read from every MHD thread. It matches
/// paths to routes; what a route runs is the server's business, found by the route's
/// `index`. (Not generic over the handler: a generic table is not specialized across the
/// module boundary, and its metadata lookups cost 5% of a set-constant's instructions.)
public struct Router: Sendable {

    /// A class: matching walks the table, and a struct would be copied (and its fields
    /// retained) at every step.
    public final class Route: Sendable {
        public let method: String
        /// The pattern's segments as bytes, nil where the segment is a `{name}` capture.
        let literals: [[UInt8]?]
        /// Capture names by segment index, worked out once at registration.
        let captures: [(segment: Int, name: String)]
        /// The pattern, for metrics labels (bounded cardinality).
        public let name: String
        /// Its place in the table: a cheap key for per-route metrics.
        public let index: Int

        init(method: String, literals: [[UInt8]?], captures: [(segment: Int, name: String)], name: String, index: Int) {
            self.method = method; self.literals = literals; self.captures = captures; self.name = name; self.index = index
        }
    }

    public enum Match {
        case found(Route, PathCaptures)
        case methodNotAllowed([String])
        case notFound
    }

    private var routeCount = 0
    /// Routes by their number of segments: a path is matched only against its own kind.
    private var bySegments: [[Route]] = Array(repeating: [], count: maxSegments + 1)

    public init() {}

    /// Adds a route; returns its index.
    @discardableResult
    public mutating func on(_ method: String, _ pattern: String) -> Int {
        let segments = pattern.split(separator: "/").map(String.init)
        let captures = segments.enumerated().filter { $0.element.hasPrefix("{") }.map {
            (segment: $0.offset, name: String($0.element.dropFirst().dropLast()))
        }
        precondition(captures.count <= 2, "PathCaptures holds two captures")
        precondition(segments.count <= Self.maxSegments, "a route has at most \(Self.maxSegments) segments")
        let route = Route(
            method: method, literals: segments.map { $0.hasPrefix("{") ? nil : Array($0.utf8) },
            captures: captures, name: pattern, index: routeCount)
        routeCount += 1
        bySegments[segments.count].append(route)
        return route.index
    }

    /// Matches on the path's bytes (no Character walking, and the segments' ranges on the
    /// stack: no route has more than `maxSegments`).
    public func match(_ method: String, _ path: String) -> Match {
        var path = path
        return path.withUTF8 { bytes in
            withUnsafeTemporaryAllocation(of: Range<Int>.self, capacity: Self.maxSegments) { parts in
                var count = 0
                var start = 0
                for i in 0...bytes.count where i == bytes.count || bytes[i] == UInt8(ascii: "/") {
                    if i > start {
                        guard count < Self.maxSegments else { return .notFound }
                        parts[count] = start..<i
                        count += 1
                    }
                    start = i + 1
                }
                var allowed: [String] = []
                for r in bySegments[count] {
                    // Last segment first: that is where routes of one length differ most.
                    var ok = true
                    for k in (0..<count).reversed() {
                        if let lit = r.literals[k], !Self.same(lit, bytes, parts[k]) { ok = false; break }
                    }
                    guard ok else { continue }
                    if r.method == method || (method == "HEAD" && r.method == "GET") {
                        var found = PathCaptures()
                        for c in r.captures { found.append(c.name, parts[c.segment]) }
                        return .found(r, found)
                    }
                    if !allowed.contains(r.method) { allowed.append(r.method) }
                }
                return allowed.isEmpty ? .notFound : .methodNotAllowed(allowed)
            }
        }
    }

    /// Whether a literal segment equals the path's bytes in `range` (length first: most
    /// literals of a bucket differ in length).
    private static func same(_ literal: [UInt8], _ path: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Bool {
        guard literal.count == range.count else { return false }
        return literal.withUnsafeBufferPointer { lit in
            for k in 0..<lit.count where lit[k] != path[range.lowerBound + k] { return false }
            return true
        }
    }

    private static let maxSegments = 8
}
