import Dispatch

/// One HTTP response. `upgrade` takes over the socket after a 101 (WebSocket).
public struct Response: Sendable {
    public var status: Int
    /// Kept apart from `headers` so the common answer (JSON, no other header) builds no array.
    public var contentType: String?
    public var headers: [(String, String)] = []
    public var body: [UInt8] = []
    public var upgrade: (@Sendable (UpgradedConnection) -> Void)? = nil
    /// When set, the answer waits (its connection suspended, its thread free) until `hold`
    /// calls its release: with nil the answer goes as it is, with a response that one goes
    /// instead. A durable store holds an answer until its change is on disk.
    public var hold: (@Sendable (@escaping @Sendable (Response?) -> Void) -> Void)? = nil
    /// What the handler leaves to free. An offloaded answer drops it on its worker after the
    /// connection is resumed, so a large teardown (a one-shot layout's session and document)
    /// runs while the answer is on the wire instead of before it.
    public var leftover: (any Sendable)? = nil

    /// Goes `seconds` later: the connection waits suspended, no thread does.
    public mutating func delay(seconds: Double) {
        let deadline = DispatchTime.now() + seconds
        hold = { release in delayedAnswers.asyncAfter(deadline: deadline) { release(nil) } }
    }

    @inlinable public init(status: Int, contentType: String? = nil, headers: [(String, String)] = [], body: [UInt8] = []) {
        self.status = status
        self.contentType = contentType
        self.headers = headers
        self.body = body
    }

    @inlinable public static func json(_ status: Int = 200, _ body: [UInt8]) -> Response {
        Response(status: status, contentType: "application/json", body: body)
    }

    public static func text(_ status: Int = 200, _ s: String, type: String = "text/plain; charset=utf-8") -> Response {
        Response(status: status, contentType: type, body: Array(s.utf8))
    }

    public static let noContent = Response(status: 204)

    public func header(_ name: String) -> String? {
        if name.lowercased() == "content-type" { return contentType }
        return headers.first { $0.0.lowercased() == name.lowercased() }?.1
    }
}

/// Where delayed answers wait: one timer queue, whose work is only to resume connections.
private let delayedAnswers = DispatchQueue(label: "layoutd-delayed-answers")
