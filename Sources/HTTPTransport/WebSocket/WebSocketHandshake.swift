import CGnuTLS
import Foundation

/// RFC 6455's opening handshake, the server's side.
public enum WebSocketHandshake {
    static let guid = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"

    /// `Sec-WebSocket-Accept` for a client's `Sec-WebSocket-Key`: base64 of SHA-1(key + GUID).
    public static func accept(_ key: String) -> String {
        var digest = [UInt8](repeating: 0, count: 20)
        let input = Array((key + guid).utf8)
        // SHA-1 cannot fail on a buffer in memory; GnuTLS says so with 0.
        let status = digest.withUnsafeMutableBytes { out in
            input.withUnsafeBytes { gnutls_hash_fast(GNUTLS_DIG_SHA1, $0.baseAddress, $0.count, out.baseAddress) }
        }
        precondition(status == 0, "gnutls_hash_fast failed: \(status)")
        return Data(digest).base64EncodedString()
    }

    /// Whether a key is what RFC 6455 asks for: 16 bytes in base64.
    public static func isValidKey(_ key: String) -> Bool { Data(base64Encoded: key)?.count == 16 }
}
