import CGnuTLS

/// Hashes through GnuTLS, already linked by libmicrohttpd: the WebSocket handshake's SHA-1,
/// API keys' SHA-256.
public enum Digest {
    public static func sha1(_ bytes: [UInt8]) -> [UInt8] { hash(GNUTLS_DIG_SHA1, 20, bytes) }
    public static func sha256(_ bytes: [UInt8]) -> [UInt8] { hash(GNUTLS_DIG_SHA256, 32, bytes) }

    private static func hash(_ algorithm: gnutls_digest_algorithm_t, _ size: Int, _ input: [UInt8]) -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: size)
        // A hash of a buffer in memory cannot fail; GnuTLS says so with 0.
        let status = digest.withUnsafeMutableBytes { out in
            input.withUnsafeBytes { gnutls_hash_fast(algorithm, $0.baseAddress, $0.count, out.baseAddress) }
        }
        precondition(status == 0, "gnutls_hash_fast failed: \(status)")
        return digest
    }

    /// Whether two digests are equal, in time that depends on their length only.
    public static func equal(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for i in a.indices { difference |= a[i] ^ b[i] }
        return difference == 0
    }
}
