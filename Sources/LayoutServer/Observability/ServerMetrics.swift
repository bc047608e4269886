import CoreMetrics
import Metrics
import Prometheus
import Synchronization

/// The server's metrics, written through swift-metrics into a Prometheus registry owned
/// by this server (no global bootstrap, so several servers can share a process).
public final class ServerMetrics: Sendable {
    let registry = PrometheusCollectorRegistry()
    private let factory: PrometheusMetricsFactory
    /// Per (route, method, status), packed in one Int (route by its index in the route
    /// table): its counter and its route's latency timer, so a request takes one lock and
    /// one lookup of an integer. `latencies` is consulted only when a key is new.
    private let requests = Mutex<[Int: (count: CoreMetrics.Counter, latency: CoreMetrics.Timer)]>([:])
    private let latencies = Mutex<[String: CoreMetrics.Timer]>([:])
    private let diagnosticCounters = Mutex<[String: CoreMetrics.Counter]>([:])

    let sessionsActive: CoreMetrics.Meter
    let sessionsCreated: CoreMetrics.Counter
    let sessionsEvicted: CoreMetrics.Counter
    let solveTime: CoreMetrics.Timer
    let engineRows: CoreMetrics.Meter
    let engineColumns: CoreMetrics.Meter
    let setConstants: CoreMetrics.Counter
    let bytesInWire: CoreMetrics.Counter
    let bytesInDecoded: CoreMetrics.Counter
    let bytesOutBody: CoreMetrics.Counter
    let bytesOutWire: CoreMetrics.Counter
    let streamsOpen: CoreMetrics.Meter
    let streamMessagesIn: CoreMetrics.Counter
    let streamMessagesOut: CoreMetrics.Counter
    let streamCoalesced: CoreMetrics.Counter
    let heapBytes: CoreMetrics.Gauge
    let storeCommitTime: CoreMetrics.Timer
    let storeJournalBytes: CoreMetrics.Counter
    let storeSnapshots: CoreMetrics.Counter
    let sessionsRestored: CoreMetrics.Counter
    let restoreTime: CoreMetrics.Timer
    let sessionsExpired: CoreMetrics.Counter
    let sessionsLost: CoreMetrics.Counter
    let connectionsTimedOut: CoreMetrics.Counter
    let connectionsRefusedPerClient: CoreMetrics.Counter
    let requestsRefusedPerClient: CoreMetrics.Counter
    /// Counters whose counts are kept elsewhere (the HTTP server's atomics): read when
    /// scraped, each adding what it gained since.
    private let mirrored = Mutex<[(counter: CoreMetrics.Counter, read: @Sendable () -> Int, added: Int)]>([])

    public init() {
        var f = PrometheusMetricsFactory(registry: registry)
        let fast: [Duration] = [.microseconds(10), .microseconds(25), .microseconds(50), .microseconds(100), .microseconds(250),
                                .microseconds(500), .milliseconds(1), .milliseconds(2), .milliseconds(5), .milliseconds(10),
                                .milliseconds(25), .milliseconds(50), .milliseconds(100), .milliseconds(250), .seconds(1)]
        f.defaultDurationHistogramBuckets = fast
        factory = f
        sessionsActive = CoreMetrics.Meter(label: "layoutd_sessions_active", factory: f)
        sessionsCreated = CoreMetrics.Counter(label: "layoutd_sessions_created_total", factory: f)
        sessionsEvicted = CoreMetrics.Counter(label: "layoutd_sessions_evicted_total", factory: f)
        solveTime = CoreMetrics.Timer(label: "layoutd_engine_solve_seconds", factory: f)
        engineRows = CoreMetrics.Meter(label: "layoutd_engine_rows", factory: f)
        engineColumns = CoreMetrics.Meter(label: "layoutd_engine_columns", factory: f)
        setConstants = CoreMetrics.Counter(label: "layoutd_set_constants_total", factory: f)
        bytesInWire = CoreMetrics.Counter(label: "layoutd_http_request_bytes_total", dimensions: [("stage", "wire")], factory: f)
        bytesInDecoded = CoreMetrics.Counter(label: "layoutd_http_request_bytes_total", dimensions: [("stage", "decoded")], factory: f)
        bytesOutBody = CoreMetrics.Counter(label: "layoutd_http_response_bytes_total", dimensions: [("stage", "body")], factory: f)
        bytesOutWire = CoreMetrics.Counter(label: "layoutd_http_response_bytes_total", dimensions: [("stage", "wire")], factory: f)
        streamsOpen = CoreMetrics.Meter(label: "layoutd_streams_open", factory: f)
        streamMessagesIn = CoreMetrics.Counter(label: "layoutd_stream_messages_total", dimensions: [("direction", "in")], factory: f)
        streamMessagesOut = CoreMetrics.Counter(label: "layoutd_stream_messages_total", dimensions: [("direction", "out")], factory: f)
        streamCoalesced = CoreMetrics.Counter(label: "layoutd_stream_coalesced_updates_total", factory: f)
        heapBytes = CoreMetrics.Gauge(label: "layoutd_heap_bytes", factory: f)
        storeCommitTime = CoreMetrics.Timer(label: "layoutd_store_commit_seconds", factory: f)
        storeJournalBytes = CoreMetrics.Counter(label: "layoutd_store_journal_bytes_total", factory: f)
        storeSnapshots = CoreMetrics.Counter(label: "layoutd_store_snapshots_total", factory: f)
        sessionsRestored = CoreMetrics.Counter(label: "layoutd_sessions_restored_total", factory: f)
        restoreTime = CoreMetrics.Timer(label: "layoutd_session_restore_seconds", factory: f)
        sessionsExpired = CoreMetrics.Counter(label: "layoutd_sessions_expired_total", factory: f)
        connectionsTimedOut = CoreMetrics.Counter(label: "layoutd_connections_closed_total", dimensions: [("reason", "request_timeout")], factory: f)
        connectionsRefusedPerClient = CoreMetrics.Counter(label: "layoutd_connections_refused_total", dimensions: [("reason", "per_client")], factory: f)
        requestsRefusedPerClient = CoreMetrics.Counter(label: "layoutd_requests_refused_total", dimensions: [("reason", "per_client")], factory: f)
        sessionsLost = CoreMetrics.Counter(label: "layoutd_sessions_reloaded_after_store_failure_total", factory: f)
        for kind in ["unsatisfiable", "ambiguous", "churn"] { diagnostic(kind, count: 0) }
    }

    /// The method label: the methods HTTP defines, else "other" (a client's made-up
    /// method must not make a new time series).
    private static let methods = ["GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "CONNECT", "TRACE"]

    /// `routeIndex` is the route's place in the route table (-1: none matched), `route` its label.
    func request(route: String, routeIndex: Int, method: String, status: Int, nanos: UInt64) {
        let code = Self.methods.firstIndex(of: method) ?? Self.methods.count
        let key = (routeIndex + 1) << 20 | code << 12 | min(max(status, 0), 4095)
        let handles = requests.withLock { m in
            if let h = m[key] { return h }
            let label = code < Self.methods.count ? method : "other"
            let h = (count: CoreMetrics.Counter(label: "layoutd_http_requests_total", dimensions: [("route", route), ("method", label), ("status", String(status))], factory: factory),
                     latency: latency(route))
            m[key] = h
            return h
        }
        handles.count.increment()
        handles.latency.recordNanoseconds(Int64(nanos))
    }

    private func latency(_ route: String) -> CoreMetrics.Timer {
        latencies.withLock { m in
            if let t = m[route] { return t }
            let t = CoreMetrics.Timer(label: "layoutd_http_request_duration_seconds", dimensions: [("route", route)], factory: factory)
            m[route] = t
            return t
        }
    }

    func diagnostic(_ kind: String, count: Int) {
        let c = diagnosticCounters.withLock { m in
            if let c = m[kind] { return c }
            let c = CoreMetrics.Counter(label: "layoutd_diagnostics_total", dimensions: [("kind", kind)], factory: factory)
            m[kind] = c
            return c
        }
        c.increment(by: count)
    }

    /// `counter` follows a count kept elsewhere, read at each scrape.
    func mirror(_ counter: CoreMetrics.Counter, _ read: @escaping @Sendable () -> Int) {
        mirrored.withLock { $0.append((counter, read, 0)) }
    }

    /// The Prometheus text exposition.
    public func exposition() -> [UInt8] {
        heapBytes.record(MemoryBudget.heapInUse)  // read when scraped: it is what the budget compares
        mirrored.withLock { all in
            for k in all.indices {
                let n = all[k].read()
                all[k].counter.increment(by: n - all[k].added)
                all[k].added = n
            }
        }
        var out: [UInt8] = []
        registry.emit(into: &out)
        return out
    }
}
