/// A whole message, its fragments joined and inflated (NIOWebSocket's aggregator does the same).
public enum WebSocketMessage: Sendable {
    case text([UInt8])
    case binary([UInt8])
}

/// What an application does with a WebSocket: it sees whole messages, never frames. Every
/// call comes on the connection's reactor thread, one at a time.
public protocol WebSocketHandler: AnyObject, Sendable {
    /// The connection was handed over after its 101.
    func opened(_ connection: WebSocketConnection)
    /// The messages one wakeup read, in order (at most `WebSocketConnection.maxBatch`): a
    /// handler may merge what a batch makes redundant. Answers go out with `connection.send`.
    func received(_ messages: [WebSocketMessage], on connection: WebSocketConnection)
    /// About once a second while the connection is open and quiet.
    func stillOpen(_ connection: WebSocketConnection)
    /// Once, when the connection is over; `failure` is the close code and reason the server
    /// failed it with (a protocol error, a message too big), nil when it ended normally.
    func closed(_ connection: WebSocketConnection, failure: (WebSocketFrame.CloseCode, String)?)
}
