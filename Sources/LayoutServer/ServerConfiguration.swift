public import HTTPTransport
import SessionStorage
public import LayoutModel

/// Everything an operator can set; each limit is enforced and answered with its status.
public struct ServerConfiguration: Sendable {
    public var http = HTTPServerConfiguration()
    /// Sessions kept at once; one more is 429.
    public var maxSessions = 1000
    /// Idle time after which a session is evicted.
    public var sessionTTLSeconds = 900.0
    /// Views and constraints per session; more is 413.
    public var maxViewsPerSession = SessionLimits().maxViews
    /// A request's work stops past this many seconds (503 with Retry-After): a one-shot layout,
    /// a new session, an import, a picture, and a change to a kept session (rolled back).
    public var requestDeadlineSeconds = 30.0
    /// How deep views may nest (a root is 0): 413 beyond.
    public var maxDepth = SessionLimits().maxDepth
    /// Names an unsatisfiable diagnostic lists of its conflicting set (the rest counted).
    public var maxConflictsListed = SessionLimits().maxConflictsListed
    public var maxConstraintsPerSession = SessionLimits().maxConstraints
    /// Revisions back for which `frames?since=` answers with only what changed (older: the full set).
    public var historyDepth = SessionLimits().historyDepth
    /// Responses larger than this are gzip when the client accepts it.
    public var gzipMinBytes = 1024
    /// How long SIGTERM waits for requests under way.
    public var drainTimeoutSeconds = 10.0
    /// Sizes one request lays out at (`sizes`, `frames-at`); more is 413.
    public var maxSizes = 64
    /// The largest width or height a size may ask for, in points; more is 422.
    public var maxSizePoints = 1_000_000.0
    /// The largest PNG a request may ask for, in pixels (width × height × scale²); more is 413.
    public var maxPicturePixels = 16_000_000
    /// Glyphs the labels of one picture (a contact sheet: all its sizes) may draw (413 beyond):
    /// an outline each, in work and in answer bytes.
    public var maxPictureGlyphs = 200_000
    /// Open WebSocket streams at once; one more is 503.
    public var maxStreams = 1024
    /// Largest WebSocket message (after reassembly and inflation); more closes with 1009.
    public var maxStreamMessageBytes = 1 << 20
    /// Streams one tenant may hold open (429 beyond), on a server with keys: by default half of
    /// `maxStreams`, so that no one tenant holds them all.
    public var maxStreamsPerTenantSetting: Int? = nil
    var maxStreamsPerTenant: Int { maxStreamsPerTenantSetting ?? max(1, maxStreams / 2) }
    /// A stream whose client sends nothing, not even a ping, for this long is closed (0: never).
    public var streamIdleTimeoutSeconds = 300.0
    /// Take a new session's id from `X-Layoutd-Session-Id` (32 hex digits) when a trusted
    /// proxy sets it: the proxy can then route the id by consistent hashing from the start.
    public var trustSessionIDHeader = false
    /// Tenants and their API keys (`--auth-file`); nil: the server is open to anyone who reaches it.
    public var authFile: String? = nil
    /// Origins whose pages may call the API from a browser (`--cors-origins`), exactly as a
    /// browser sends them (`https://app.example.com`); none by default.
    public var corsOrigins: [String] = []
    /// Host names an open server answers besides IP addresses and localhost (`--allowed-hosts`;
    /// `*`: any), against DNS rebinding. A server with keys answers any.
    public var allowedHosts: [String] = []
    /// A key `/metrics` wants as `Authorization: Bearer` (`--metrics-key`); nil: open to scrapers.
    public var metricsKey: String? = nil
    /// New sessions and one-shot layouts get 503 while the heap in use is past this
    /// (the executable sets it from the machine or container; none here).
    public var memoryBudget = MemoryBudget(limitBytes: 0)
    /// Freed heap kept for reuse at each heap's top, bytes (0: the allocator's own policy).
    public var heapKeepBytes = 128 << 20
    /// The engine sessions run on: the solved form (the cheaper set-constant, quadratic on
    /// dependent chains) or the factored basis (linear on chains and stacks)...
    public var sessionEngine = EngineKind.defaultKind
    /// ...and from how many views a new session's document takes the factored basis anyway
    /// (nil: never; `--engine auto`, the default, is the solved form below 128 views and 1,024 constraints).
    /// BENCHMARKS.md §4 and §7.
    public var sessionFactoredFromViews = EngineKind.defaultFactoredFromViews
    /// The engine one-shot layouts run on: the factored basis, linear on chains and stacks.
    public var layoutEngine = EngineKind.factored
    /// Where sessions outlive the process: nowhere (memory), or an SQLite database. The
    /// executable's default is SQLite; a server built in-process (tests) keeps memory.
    public var store = StoreLocation.memory
    public var durability = Durability.relaxed
    /// Relaxed: set-constants are written within this many milliseconds.
    public var flushIntervalMilliseconds = 50
    /// A stored session not used for this long is deleted from the store.
    public var sessionRetentionSeconds = 7 * 86_400
    /// This replica's name in the store's leases (PostgreSQL): unique among the replicas
    /// sharing a store, stable across its restarts (nil: the host's name and the port).
    public var replicaID: String? = nil
    /// How long a session's lease lasts unrenewed: a replica that dies holds its sessions
    /// this long at most. Renewed four times a lease.
    public var leaseMilliseconds = 1500
    public init() {}

    var sessionLimits: SessionLimits {
        var limits = SessionLimits(
            maxViews: maxViewsPerSession, maxConstraints: maxConstraintsPerSession, historyDepth: historyDepth,
            engine: sessionEngine, factoredFromViews: sessionFactoredFromViews)
        limits.maxDepth = maxDepth
        limits.maxConflictsListed = maxConflictsListed
        return limits
    }

    public var layoutLimits: SessionLimits {
        var limits = sessionLimits
        limits.engine = layoutEngine
        limits.factoredFromViews = nil
        return limits
    }
}

/// `--store`: `memory`, `sqlite:PATH` or `postgres://USER[:PASSWORD]@HOST:PORT/DB`.
public enum StoreLocation: Sendable, Equatable, CustomStringConvertible {
    case memory
    case sqlite(path: String)
    /// A libpq connection URI (`postgres://` or `postgresql://`).
    case postgres(url: String)

    public init?(_ text: String) {
        if text == "memory" { self = .memory; return }
        if text.hasPrefix("postgres://") || text.hasPrefix("postgresql://") { self = .postgres(url: text); return }
        guard text.hasPrefix("sqlite:"), text.count > 7 else { return nil }
        self = .sqlite(path: String(text.dropFirst(7)))
    }

    /// Without a password: what logs may say.
    public var description: String {
        switch self {
        case .memory: return "memory"
        case .sqlite(let path): return "sqlite:\(path)"
        case .postgres(let url): return PostgresSessionStorage.redacted(url)
        }
    }
}

/// `--durability`: when an answer may be sent for a change.
public enum Durability: String, Sendable {
    /// Every change, set-constants included, is durable before its answer.
    case strict
    /// Structural changes as in strict; set-constants answered at once and written within
    /// the flush interval.
    case relaxed
}

/// A setting the server cannot start with (a bad `--auth-file`, say): what is wrong, and where.
public struct ConfigurationError: Error, CustomStringConvertible {
    public let description: String
}
