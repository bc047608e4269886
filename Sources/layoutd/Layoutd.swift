import ArgumentParser
import CheckedNumbers
import Foundation
import HTTPTransport
import LayoutModel
import LayoutServer
import Logging

/// `layoutd`: every setting is a flag, and each flag can also come from the environment
/// (`LAYOUTD_PORT`, …); a flag wins over the environment, which wins over the default.
@main
struct Layoutd: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "layoutd",
        abstract: "Auto Layout as a service: POST views and constraints, get frames back.",
        discussion: "With no subcommand, layoutd serves. `layoutd check PATH…` checks Interface Builder documents in process.",
        subcommands: [Check.self]
    )

    /// ArgumentParser's, but a usage error of `layoutd check` exits 2, as a linter's does (1
    /// is its findings); the server's flags keep ArgumentParser's statuses.
    static func main() {
        let arguments = Array(CommandLine.arguments.dropFirst())
        do {
            var command = try parseAsRoot(arguments)
            try command.run()
        } catch {
            if arguments.first == Check.configuration.commandName, !(error is ExitCode), exitCode(for: error) != .success {
                FileHandle.standardError.write(Data((Check.fullMessage(for: error) + "\n").utf8))
                Foundation.exit(Check.usageError)
            }
            exit(withError: error)
        }
    }

    @Option(help: "Address to listen on: IPv4, or IPv6 (\"::\" takes IPv4 clients too). Env: LAYOUTD_HOST.") var host: String =
        env("HOST") ?? "127.0.0.1"
    @Option(help: "Port to listen on (0 picks a free one). Env: LAYOUTD_PORT.") var port: UInt16 = env("PORT") ?? 8080
    @Option(help: "HTTP threading: pool (epoll, one thread per core), per-connection, single. Env: LAYOUTD_THREADING.")
    var threading: String = env("THREADING") ?? "pool"
    @Option(help: "Threads in the pool. Env: LAYOUTD_THREADS.") var threads: Int =
        env("THREADS") ?? ProcessInfo.processInfo.activeProcessorCount
    @Option(help: "Open connections at most. Env: LAYOUTD_MAX_CONNECTIONS.") var maxConnections: Int =
        env("MAX_CONNECTIONS") ?? defaults.http.connectionLimit
    @Option(help: "Idle connection timeout, seconds. Env: LAYOUTD_CONNECTION_TIMEOUT.") var connectionTimeout: Int =
        env("CONNECTION_TIMEOUT") ?? defaults.http.connectionTimeoutSeconds
    @Option(
        help:
            "Seconds a connection has to deliver a whole request, headers and body: from opening, or from the idle timeout after its last answer (a client trickling bytes is cut off too). Env: LAYOUTD_REQUEST_TIMEOUT."
    )
    var requestTimeout: Int = env("REQUEST_TIMEOUT") ?? defaults.http.requestTimeoutSeconds
    @Option(
        help:
            "Connections one client address may hold; more are refused at accept (trusted proxies are exempt). Default: half of --max-connections. Env: LAYOUTD_MAX_CONNECTIONS_PER_IP."
    )
    var maxConnectionsPerIp: Int?
    /// The flag, else its environment variable (an optional option takes no default value).
    var perClientConnections: Int? { maxConnectionsPerIp ?? env("MAX_CONNECTIONS_PER_IP") }
    @Option(
        help:
            "Connections one tenant may hold, from any addresses, with --auth-file; past it a request is answered 429 and its connection closed (trusted proxies are exempt). Default: half of --max-connections. Env: LAYOUTD_MAX_CONNECTIONS_PER_TENANT."
    )
    var maxConnectionsPerTenant: Int?
    var perTenantConnections: Int? { maxConnectionsPerTenant ?? env("MAX_CONNECTIONS_PER_TENANT") }
    @Option(
        help:
            "Comma-separated addresses or CIDR ranges of proxies in front of layoutd: exempt from --max-connections-per-ip (the proxy limits its own clients). Env: LAYOUTD_TRUSTED_PROXIES."
    )
    var trustedProxies: String = env("TRUSTED_PROXIES") ?? ""
    @Option(
        help:
            "libmicrohttpd memory per connection, bytes (headers and response buffering; it is cleared per request). Env: LAYOUTD_CONNECTION_MEMORY.")
    var connectionMemory: Int = env("CONNECTION_MEMORY") ?? defaults.http.connectionMemoryLimit
    @Option(help: "Largest request body in bytes, after gzip inflation too (413 beyond). Env: LAYOUTD_MAX_BODY_BYTES.")
    var maxBodyBytes: Int = env("MAX_BODY_BYTES") ?? defaults.http.maxBodyBytes
    @Option(
        help: """
            Largest Interface Builder document POST /v1/ib/layout takes, in bytes, after gzip inflation too (413 beyond; \
            real storyboards run to megabytes). Env: LAYOUTD_MAX_IB_BYTES.
            """)
    var maxIBBytes: Int = env("MAX_IB_BYTES") ?? 16 << 20
    @Option(
        help:
            "Threads for heavy requests, so that libmicrohttpd's threads keep serving other connections (pool and single threading). Env: LAYOUTD_WORKERS."
    )
    var workers: Int = env("WORKERS") ?? ProcessInfo.processInfo.activeProcessorCount
    @Option(help: "Request bodies at least this big, in bytes, are answered on a worker. Env: LAYOUTD_OFFLOAD_BYTES.")
    var offloadBytes: Int = env("OFFLOAD_BYTES") ?? defaults.http.offloadBodyBytes
    @Option(
        help:
            "Heap in use, MiB, past which new sessions and one-shot layouts get 503 (0: none; default three quarters of the container's or machine's memory). Env: LAYOUTD_MEMORY_BUDGET_MB."
    )
    var memoryBudgetMb: Int = env("MEMORY_BUDGET_MB") ?? MemoryBudget.defaultLimitBytes() >> 20
    @Option(
        help:
            "Freed heap kept for reuse, MiB at each heap's top, instead of returned to the kernel and faulted in again by the next request (0: the allocator's own policy). Env: LAYOUTD_HEAP_KEEP_MB."
    )
    var heapKeepMb: Int = env("HEAP_KEEP_MB") ?? defaults.heapKeepBytes >> 20
    @Option(help: "Sessions kept at once (429 beyond). Env: LAYOUTD_MAX_SESSIONS.") var maxSessions: Int =
        env("MAX_SESSIONS") ?? defaults.maxSessions
    @Option(help: "Idle seconds before a session is evicted. Env: LAYOUTD_SESSION_TTL.") var sessionTTL: Double =
        env("SESSION_TTL") ?? defaults.sessionTTLSeconds
    @Option(help: "Views per session (413 beyond). Env: LAYOUTD_MAX_VIEWS.") var maxViews: Int =
        env("MAX_VIEWS") ?? defaults.maxViewsPerSession
    @Option(help: "How deep views may nest, a root being 0 (413 beyond). Env: LAYOUTD_MAX_DEPTH.") var maxDepth: Int =
        env("MAX_DEPTH") ?? defaults.maxDepth
    @Option(help: "Names an unsatisfiable diagnostic lists of its conflicting set (the rest counted). Env: LAYOUTD_MAX_CONFLICTS_LISTED.")
    var maxConflictsListed: Int = env("MAX_CONFLICTS_LISTED") ?? defaults.maxConflictsListed
    @Option(
        help: """
            Seconds a heavy request's work may take (a one-shot layout, a new session, an import, a picture): past it the \
            work stops and the answer is 503 (a kept session's change is rolled back). Env: LAYOUTD_REQUEST_DEADLINE.
            """)
    var requestDeadline: Double = env("REQUEST_DEADLINE") ?? defaults.requestDeadlineSeconds
    @Option(help: "Constraints per session (413 beyond). Env: LAYOUTD_MAX_CONSTRAINTS.") var maxConstraints: Int =
        env("MAX_CONSTRAINTS") ?? defaults.maxConstraintsPerSession
    @Option(help: "Sizes one request lays out at, `sizes` or frames-at (413 beyond). Env: LAYOUTD_MAX_SIZES.") var maxSizes: Int =
        env("MAX_SIZES") ?? defaults.maxSizes
    @Option(help: "Largest width or height a size may ask for, in points (422 beyond). Env: LAYOUTD_MAX_SIZE_POINTS.")
    var maxSizePoints: Double = env("MAX_SIZE_POINTS") ?? defaults.maxSizePoints
    @Option(help: "Largest PNG picture, in pixels: width x height x scale squared (413 beyond). Env: LAYOUTD_MAX_PICTURE_PIXELS.")
    var maxPicturePixels: Int = env("MAX_PICTURE_PIXELS") ?? defaults.maxPicturePixels
    @Option(help: "Glyphs the labels of one picture (all its sizes) may draw (413 beyond). Env: LAYOUTD_MAX_PICTURE_GLYPHS.")
    var maxPictureGlyphs: Int = env("MAX_PICTURE_GLYPHS") ?? defaults.maxPictureGlyphs
    @Option(help: "Open WebSocket streams at most (503 beyond). Env: LAYOUTD_MAX_STREAMS.") var maxStreams: Int =
        env("MAX_STREAMS") ?? defaults.maxStreams
    @Option(help: "Largest WebSocket message in bytes (close 1009 beyond). Env: LAYOUTD_MAX_MESSAGE_BYTES.") var maxMessageBytes: Int =
        env("MAX_MESSAGE_BYTES") ?? defaults.maxStreamMessageBytes
    @Option(
        name: .customLong("max-streams-per-tenant"),
        help: "Streams one tenant may hold open, with --auth-file (429 beyond). Default: half of --max-streams. Env: LAYOUTD_MAX_STREAMS_PER_TENANT.")
    var maxStreamsPerTenantFlag: Int?
    /// The flag, else its environment variable (an optional option takes no default value).
    var maxStreamsPerTenant: Int? { maxStreamsPerTenantFlag ?? env("MAX_STREAMS_PER_TENANT") }
    @Option(help: "Seconds a stream's client may send nothing, not even a ping, before it is closed (0: never). Env: LAYOUTD_STREAM_IDLE_TIMEOUT.")
    var streamIdleTimeout: Double = env("STREAM_IDLE_TIMEOUT") ?? defaults.streamIdleTimeoutSeconds
    @Option(help: "Seconds SIGTERM waits for requests under way. Env: LAYOUTD_DRAIN_TIMEOUT.") var drainTimeout: Double =
        env("DRAIN_TIMEOUT") ?? defaults.drainTimeoutSeconds
    @Flag(help: "Take new session ids from X-Layoutd-Session-Id (set by a trusted, session-affine proxy). Env: LAYOUTD_TRUST_SESSION_ID_HEADER=1.")
    var trustSessionIdHeader: Bool = env("TRUST_SESSION_ID_HEADER") == "1"
    @Option(
        help:
            "JSON file of tenants, their API keys (SHA-256 digests) and quotas: every route but health, metrics and the playground's files then needs Authorization: Bearer KEY. Re-read on SIGHUP. Without it the server is open. Env: LAYOUTD_AUTH_FILE."
    )
    var authFile: String = env("AUTH_FILE") ?? ""
    @Option(
        help:
            "Comma-separated origins (scheme://host[:port]) whose pages may call the API from a browser: CORS preflights answered, answers readable. Env: LAYOUTD_CORS_ORIGINS."
    )
    var corsOrigins: String = env("CORS_ORIGINS") ?? ""
    @Option(
        help: """
            Comma-separated host names an open server (no --auth-file) answers in Host, besides IP addresses \
            and localhost: other names are refused (403) against DNS rebinding. "*": any. Env: LAYOUTD_ALLOWED_HOSTS.
            """)
    var allowedHosts: String = env("ALLOWED_HOSTS") ?? ""
    @Option(help: "PEM certificate chain: serve HTTPS and WSS (with --tls-key). Env: LAYOUTD_TLS_CERT.")
    var tlsCert: String = env("TLS_CERT") ?? ""
    @Option(help: "PEM private key of --tls-cert. Env: LAYOUTD_TLS_KEY.")
    var tlsKey: String = env("TLS_KEY") ?? ""
    @Option(
        help: """
            GnuTLS priority string for handshakes. Default: TLS 1.2 and 1.3, ECDHE key exchange (forward secret), \
            AEAD ciphers. Env: LAYOUTD_TLS_PRIORITIES.
            """)
    var tlsPriorities: String = env("TLS_PRIORITIES") ?? HTTPServerConfiguration.defaultTLSPriorities
    @Option(help: "A key /metrics then wants as Authorization: Bearer KEY (default: open to scrapers). Env: LAYOUTD_METRICS_KEY.")
    var metricsKey: String = env("METRICS_KEY") ?? ""
    @Option(help: "Log level: trace, debug, info, notice, warning, error, critical. Env: LAYOUTD_LOG_LEVEL.") var logLevel: String =
        env("LOG_LEVEL") ?? "info"
    @Option(
        help:
            "Engine of sessions: auto (the solved form, and the factored basis for documents of 128 views or 1,024 constraints or more), solved (the substituted solved form: the cheapest set-constants, quadratic on dependent chains) or factored (revised simplex on a factored basis, linear on chains). Env: LAYOUTD_ENGINE."
    )
    var engine: String = env("ENGINE") ?? "auto"
    @Option(help: "Engine of one-shot layouts (POST /v1/layout): factored or solved. Env: LAYOUTD_LAYOUT_ENGINE.")
    var layoutEngine: String = env("LAYOUT_ENGINE") ?? "factored"
    @Option(
        help:
            "Where sessions outlive the process: sqlite:PATH (an embedded SQLite database, created when missing), postgres://USER[:PASSWORD]@HOST:PORT/DB (PostgreSQL, shared by replicas; its tables are made when missing) or memory (lost on exit). Env: LAYOUTD_STORE."
    )
    var store: String = env("STORE") ?? "sqlite:layoutd-data/sessions.sqlite"
    @Option(
        help:
            "When a change is answered: strict (every change durable first, set-constants too) or relaxed (structural changes durable first; set-constants answered at once, written within --flush-interval-ms). Env: LAYOUTD_DURABILITY."
    )
    var durability: String = env("DURABILITY") ?? "relaxed"
    @Option(help: "Relaxed durability: set-constants are written within this many milliseconds. Env: LAYOUTD_FLUSH_INTERVAL_MS.")
    var flushIntervalMs: Int = env("FLUSH_INTERVAL_MS") ?? defaults.flushIntervalMilliseconds
    @Option(
        help: "A stored session unused this long is deleted: seconds, or a number with s, m, h or d (default 7d). Env: LAYOUTD_SESSION_RETENTION.")
    var sessionRetention: String = env("SESSION_RETENTION") ?? "7d"

    @Option(
        help:
            "This replica's name in a shared store's session leases (PostgreSQL): unique among the replicas, the same across its restarts (default: the host's name and the port). Env: LAYOUTD_REPLICA_ID."
    )
    var replicaId: String?
    /// The flag, else its environment variable.
    var replica: String? { replicaId ?? env("REPLICA_ID") }
    @Option(
        help: "Milliseconds a session's lease lasts unrenewed (PostgreSQL): a dead replica's sessions move after this long. Env: LAYOUTD_LEASE_MS.")
    var leaseMs: Int = env("LEASE_MS") ?? defaults.leaseMilliseconds

    var proxies: [String] { trustedProxies.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty } }

    func validate() throws {
        guard HTTPThreading(rawValue: threading) != nil else { throw ValidationError("--threading is pool, per-connection or single") }
        guard Logger.Level(rawValue: logLevel) != nil else { throw ValidationError("unknown --log-level \(logLevel)") }
        for (name, v) in [
            ("threads", threads), ("max-connections", maxConnections), ("max-body-bytes", maxBodyBytes), ("max-ib-bytes", maxIBBytes),
            ("max-sessions", maxSessions), ("max-views", maxViews), ("max-depth", maxDepth), ("max-conflicts-listed", maxConflictsListed),
            ("max-constraints", maxConstraints),
            ("max-streams", maxStreams), ("max-message-bytes", maxMessageBytes),
            ("max-sizes", maxSizes), ("max-picture-pixels", maxPicturePixels), ("max-picture-glyphs", maxPictureGlyphs),
            ("workers", workers), ("offload-bytes", offloadBytes), ("request-timeout", requestTimeout),
            ("max-connections-per-ip", perClientConnections ?? 1), ("max-connections-per-tenant", perTenantConnections ?? 1)
        ] where v < 1 {
            throw ValidationError("--\(name) must be at least 1")
        }
        if let n = maxStreamsPerTenant, n < 1 { throw ValidationError("--max-streams-per-tenant must be at least 1") }
        guard requestDeadline > 0 && requestDeadline.isFinite else { throw ValidationError("--request-deadline is a number of seconds above 0") }
        guard streamIdleTimeout >= 0 && streamIdleTimeout.isFinite else { throw ValidationError("--stream-idle-timeout is 0 or more seconds") }
        guard engine == "auto" || EngineKind(rawValue: engine) != nil else { throw ValidationError("--engine is auto, solved or factored") }
        guard EngineKind(rawValue: layoutEngine) != nil else { throw ValidationError("--layout-engine is solved or factored") }
        for p in proxies where AddressRange(p) == nil {
            throw ValidationError("--trusted-proxies: '\(p)' is not an IPv4 or IPv6 address or CIDR range")
        }
        guard StoreLocation(store) != nil else { throw ValidationError("--store is memory, sqlite:PATH or postgres://USER[:PASSWORD]@HOST:PORT/DB") }
        guard Durability(rawValue: durability) != nil else { throw ValidationError("--durability is strict or relaxed") }
        guard flushIntervalMs >= 1 else { throw ValidationError("--flush-interval-ms must be at least 1") }
        guard let retention = seconds(sessionRetention), retention >= 1 else {
            throw ValidationError("--session-retention is a duration such as 3600, 90m, 12h or 7d")
        }
        guard leaseMs >= 100 else { throw ValidationError("--lease-ms must be at least 100") }
        if let id = replica, id.isEmpty || id.count > 200 { throw ValidationError("--replica-id is 1 to 200 characters") }
        guard heapKeepMb >= 0 else { throw ValidationError("--heap-keep-mb is 0 (the allocator's policy) or more") }
        guard memoryBudgetMb >= 0 else { throw ValidationError("--memory-budget-mb is 0 (none) or more") }
        guard maxSizePoints >= 1, maxSizePoints <= 1e7 else { throw ValidationError("--max-size-points is from 1 to 10000000") }
        guard sessionTTL > 0 else { throw ValidationError("--session-ttl must be positive") }
        guard tlsCert.isEmpty == tlsKey.isEmpty else { throw ValidationError("--tls-cert and --tls-key go together") }
        for o in corsOrigins.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) where !o.isEmpty {
            guard o != "*", o.hasPrefix("http://") || o.hasPrefix("https://"), !o.dropFirst(8).contains("/") else {
                throw ValidationError("--cors-origins: '\(o)' is not an origin such as https://app.example.com (no wildcard, no path)")
            }
        }
    }

    func run() throws {
        var handler = StreamLogHandler.standardError(label: "layoutd")
        handler.logLevel = Logger.Level(rawValue: logLevel)!
        let logger = Logger(label: "layoutd") { _ in handler }
        var c = ServerConfiguration()
        c.http.host = host
        c.http.port = port
        c.http.threading = HTTPThreading(rawValue: threading)!
        c.http.threads = threads
        c.http.connectionLimit = maxConnections
        c.http.connectionTimeoutSeconds = connectionTimeout
        c.http.requestTimeoutSeconds = requestTimeout
        c.http.maxConnectionsPerClient = perClientConnections ?? max(1, maxConnections / 2)
        c.http.maxConnectionsPerOwner = perTenantConnections ?? max(1, maxConnections / 2)
        c.http.trustedProxies = proxies
        c.http.maxBodyBytes = maxBodyBytes
        c.http.connectionMemoryLimit = connectionMemory
        c.http.workers = workers
        c.http.offloadBodyBytes = offloadBytes
        c.maxSessions = maxSessions
        c.memoryBudget = MemoryBudget(limitBytes: memoryBudgetMb << 20)
        c.heapKeepBytes = heapKeepMb << 20
        c.sessionTTLSeconds = sessionTTL
        c.http.maxBodyBytesByPath = ["/v1/ib/layout": max(maxIBBytes, maxBodyBytes)]
        c.maxViewsPerSession = maxViews
        c.maxDepth = maxDepth
        c.maxConflictsListed = maxConflictsListed
        c.requestDeadlineSeconds = requestDeadline
        c.maxConstraintsPerSession = maxConstraints
        c.maxStreams = maxStreams
        c.maxSizes = maxSizes
        c.maxSizePoints = maxSizePoints
        c.maxPicturePixels = maxPicturePixels
        c.maxPictureGlyphs = maxPictureGlyphs
        c.maxStreamMessageBytes = maxMessageBytes
        c.streamIdleTimeoutSeconds = streamIdleTimeout
        c.maxStreamsPerTenantSetting = maxStreamsPerTenant
        c.drainTimeoutSeconds = drainTimeout
        c.trustSessionIDHeader = trustSessionIdHeader
        c.authFile = authFile.isEmpty ? nil : authFile
        c.metricsKey = metricsKey.isEmpty ? nil : metricsKey
        c.http.tls = try readCertificates()
        c.http.tlsPriorities = tlsPriorities
        c.allowedHosts = allowedHosts.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        c.corsOrigins = corsOrigins.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        c.sessionEngine = EngineKind(rawValue: engine) ?? .solved
        c.sessionFactoredFromViews = engine == "auto" ? SessionLimits.autoFactoredFromViews : nil
        c.layoutEngine = EngineKind(rawValue: layoutEngine)!
        c.store = StoreLocation(store)!
        c.durability = Durability(rawValue: durability)!
        c.flushIntervalMilliseconds = flushIntervalMs
        c.sessionRetentionSeconds = seconds(sessionRetention)!
        c.replicaID = replica
        c.leaseMilliseconds = leaseMs
        // SIGTERM and SIGINT drain: blocked before any thread starts (threads inherit the
        // mask), then waited for here. SIGPIPE is ignored: a client that goes away is not fatal.
        signal(SIGPIPE, SIG_IGN)
        // A file past the process's size limit fails its write (the store answers 503) rather
        // than killing the process.
        signal(SIGXFSZ, SIG_IGN)
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, SIGTERM)
        sigaddset(&set, SIGINT)
        sigaddset(&set, SIGHUP)
        pthread_sigmask(SIG_BLOCK, &set, nil)
        let server = try LayoutdServer(configuration: c, logger: logger)
        try server.start()
        var sig: Int32 = 0
        // SIGHUP re-reads the auth file and the certificate; the others stop the server.
        while sigwait(&set, &sig) == 0 && sig == SIGHUP {
            _ = server.reloadAccess()
            do {
                if let tls = try readCertificates() { _ = server.reloadCertificates(tls) }
            } catch {
                logger.error("TLS certificate not reloaded: the one in force stays", metadata: ["error": "\(error)"])
            }
        }
        logger.info("signal", metadata: ["signal": "\(sig == SIGTERM ? "SIGTERM" : "SIGINT")"])
        server.drain()
    }
}

extension Layoutd {
    /// `--tls-cert` and `--tls-key` read (at start, and again at each SIGHUP).
    func readCertificates() throws -> TLSCredentials? {
        guard !tlsCert.isEmpty else { return nil }
        func pem(_ path: String, _ flag: String) throws -> String {
            guard let text = try? String(contentsOfFile: path, encoding: .utf8), text.contains("-----BEGIN") else {
                throw ValidationError("\(flag) \(path): not a readable PEM file")
            }
            return text
        }
        return TLSCredentials(certificatePEM: try pem(tlsCert, "--tls-cert"), keyPEM: try pem(tlsKey, "--tls-key"))
    }
}

/// `LAYOUTD_<name>` read as the type the flag's default has (nil when unset or unreadable).
func env<Value: LosslessStringConvertible>(_ name: String) -> Value? {
    ProcessInfo.processInfo.environment["LAYOUTD_" + name].flatMap(Value.init)
}

/// Each default has one home, the configuration's own; a flag or its variable overrides it.
private let defaults = ServerConfiguration()

/// "3600", "90m", "12h", "7d" as seconds.
func seconds(_ text: String) -> Int? {
    let units: [Character: Int] = ["s": 1, "m": 60, "h": 3600, "d": 86_400]
    if let unit = text.last.flatMap({ units[$0] }) { return Int(text.dropLast()).map { $0 * unit } }
    return Int(text)
}
