import JSON

/// One HTTP response. `upgrade` takes over the socket after a 101 (WebSocket).
public struct Response: Sendable {
    public var status: Int
    public var headers: [(String, String)] = []
    public var body: [UInt8] = []
    public var upgrade: (@Sendable (UpgradedConnection) -> Void)? = nil

    public init(status: Int, headers: [(String, String)] = [], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    static func json(_ status: Int = 200, _ body: [UInt8]) -> Response {
        var headers: [(String, String)] = []
        headers.reserveCapacity(3)  // Vary and maybe Content-Encoding follow: one allocation, not two
        headers.append(("Content-Type", "application/json"))
        return Response(status: status, headers: headers, body: body)
    }

    static func json(_ status: Int = 200, _ value: JSON) -> Response { json(status, value.serialized) }

    static func text(_ status: Int = 200, _ s: String, type: String = "text/plain; charset=utf-8") -> Response {
        Response(status: status, headers: [("Content-Type", type)], body: Array(s.utf8))
    }

    static let noContent = Response(status: 204)

    func header(_ name: String) -> String? {
        headers.first { $0.0.lowercased() == name.lowercased() }?.1
    }
}
