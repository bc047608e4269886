/// One HTTP request as the routes see it. Header and query lookups go to the
/// connection, so they are valid only while the request is being handled.
public struct Request {
    public let method: String
    public let path: String
    public var body: [UInt8]
    /// The route's `{name}` captures, in pattern order (a route has one or two).
    public var pathParameters: [(name: String, value: String)] = []
    let lookupHeader: (String) -> String?
    let lookupQuery: (String) -> String?

    public init(method: String, path: String, body: [UInt8], header: @escaping (String) -> String?, query: @escaping (String) -> String?) {
        self.method = method
        self.path = path
        self.body = body
        self.lookupHeader = header
        self.lookupQuery = query
    }

    public func header(_ name: String) -> String? { lookupHeader(name) }
    public func query(_ name: String) -> String? { lookupQuery(name) }
    public func parameter(_ name: String) -> String { pathParameters.first { $0.name == name }?.value ?? "" }

    /// Whether the client takes gzip (`Accept-Encoding` with gzip at a non-zero q).
    var acceptsGzip: Bool {
        guard let raw = header("Accept-Encoding"), raw != "identity" else { return false }
        let ae = raw.lowercased()
        for part in ae.split(separator: ",") {
            let fields = part.split(separator: ";").map { $0.trimmingCharacters(in: " ") }
            guard fields.first == "gzip" || fields.first == "*" else { continue }
            if let q = fields.dropFirst().first(where: { $0.hasPrefix("q=") }), Double(q.dropFirst(2)) == 0 { return false }
            return true
        }
        return false
    }
}

extension Substring {
    func trimmingCharacters(in set: Character) -> String {
        var s = self[...]
        while s.first == set { s = s.dropFirst() }
        while s.last == set { s = s.dropLast() }
        return String(s)
    }
}
