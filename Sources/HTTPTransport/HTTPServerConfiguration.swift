/// How libmicrohttpd runs its threads. `pool` (internal polling threads with epoll, one
/// per core) measured fastest here for many keep-alive clients; the others are kept for
/// comparison (`MODE=tpc Benchmarks/http/run_load.sh` runs both servers per connection).
public enum HTTPThreading: String, Sendable, CaseIterable {
    case pool, perConnection = "per-connection", single
}

public struct HTTPServerConfiguration: Sendable {
    public var host = "127.0.0.1"
    public var port: UInt16 = 8080
    public var threading = HTTPThreading.pool
    public var threads = 2
    public var connectionLimit = 1024
    /// Idle keep-alive connections are closed after this long (libmicrohttpd's silence timeout).
    public var connectionTimeoutSeconds = 60
    /// A whole request (headers and body) must arrive within this of its connection opening
    /// (or of the idle timeout after the last answer): see `ConnectionGuard`.
    public var requestTimeoutSeconds = 10
    /// Connections one peer address may hold (trusted proxies excepted): half the slots.
    public var maxConnectionsPerClient = 512
    /// Connections one owner (a tenant: what `Request.holdConnection(for:)` names) may hold,
    /// from any number of addresses (trusted proxies excepted): half the slots.
    public var maxConnectionsPerOwner = 512
    /// Addresses or CIDR ranges of proxies that carry many clients' connections.
    public var trustedProxies: [String] = []
    /// libmicrohttpd zeroes the whole pool for every request (3.9% of server CPU at 32 KiB,
    /// 1.8% at 16 KiB, measured); 16 KiB still takes 12 KB of request headers.
    public var connectionMemoryLimit = 16 * 1024
    public var listenBacklog = 1024
    public var maxBodyBytes = 1 << 20
    /// Paths that take larger bodies than `maxBodyBytes` (a storyboard runs to megabytes).
    public var maxBodyBytesByPath: [String: Int] = [:]

    /// The body limit of a request to `path` (counted on the bytes received, and again after gzip).
    public func maxBody(for path: String) -> Int { maxBodyBytesByPath[path] ?? maxBodyBytes }
    /// Requests with a body at least this big (session creation, one-shot layouts, large
    /// change sets) are answered on `workers` threads while their connection is suspended,
    /// so libmicrohttpd's threads keep serving everyone else. Small ones (set-constants)
    /// stay on the fast path. Pool and single threading only: thread per connection needs
    /// neither (and libmicrohttpd cannot suspend there).
    public var offloadBodyBytes = 64 * 1024
    public var workers = 2
    /// HTTPS and WSS through libmicrohttpd's own TLS (GnuTLS): a certificate chain and its
    /// private key, PEM; nil serves plain HTTP.
    public var tls: TLSCredentials? = nil
    /// GnuTLS's priority string for TLS handshakes: by default TLS 1.2 and 1.3 only, ECDHE key
    /// exchange only (forward secret: no static RSA, no DHE), AEAD ciphers only.
    public var tlsPriorities = HTTPServerConfiguration.defaultTLSPriorities
    public static let defaultTLSPriorities =
        "NORMAL:-VERS-ALL:+VERS-TLS1.3:+VERS-TLS1.2:-KX-ALL:+ECDHE-RSA:+ECDHE-ECDSA:-CIPHER-ALL:+AES-256-GCM:+AES-128-GCM:+CHACHA20-POLY1305:%SERVER_PRECEDENCE"
    public init() {}
}

public struct TLSCredentials: Sendable {
    public var certificatePEM: String
    public var keyPEM: String
    public init(certificatePEM: String, keyPEM: String) {
        self.certificatePEM = certificatePEM
        self.keyPEM = keyPEM
    }
}
