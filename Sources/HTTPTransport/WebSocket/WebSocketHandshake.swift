import Foundation

/// RFC 6455's opening handshake, the server's side.
public enum WebSocketHandshake {
    static let guid = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"

    /// `Sec-WebSocket-Accept` for a client's `Sec-WebSocket-Key`: base64 of SHA-1(key + GUID).
    public static func accept(_ key: String) -> String { Data(Digest.sha1(Array((key + guid).utf8))).base64EncodedString() }

    /// Whether a key is what RFC 6455 asks for: 16 bytes in base64.
    public static func isValidKey(_ key: String) -> Bool { Data(base64Encoded: key)?.count == 16 }
}
