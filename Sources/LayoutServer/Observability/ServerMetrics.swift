import CheckedNumbers
import Prometheus
import Synchronization
import TextLayout

/// The server's metrics, made in a Prometheus registry owned by this server (no global
/// bootstrap, so several servers can share a process). They are made through the registry
/// rather than swift-metrics' factory so that each family carries its `# HELP` line
/// (`promtool check metrics` asks for one; the factory passes none).
public final class ServerMetrics: Sendable {
    let registry = PrometheusCollectorRegistry()
    private static let buckets: [Duration] = [
        .microseconds(10), .microseconds(25), .microseconds(50), .microseconds(100), .microseconds(250), .microseconds(500),
        .milliseconds(1), .milliseconds(2), .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50),
        .milliseconds(100), .milliseconds(250), .seconds(1)
    ]
    /// Per (route, method, status), packed in one Int (route by its index in the route
    /// table): its counter and its route's latency histogram, so a request takes one lock and
    /// one lookup of an integer. `latencies` is consulted only when a key is new.
    private let requests = Mutex<[Int: (count: Counter, latency: DurationHistogram)]>([:])
    private let latencies = Mutex<[String: DurationHistogram]>([:])
    private let diagnosticCounters = Mutex<[String: Counter]>([:])
    private let documentOpCounters = Mutex<[String: Counter]>([:])
    /// Per tenant and event (`request`, or a refusal's reason), and per refusal of a key:
    /// labels only from the auth file's names and fixed reasons, so their number is bounded.
    private let tenantCounters = Mutex<[String: Counter]>([:])
    private let tenantGauges = Mutex<[String: Gauge]>([:])
    /// Sessions in memory by tenant, and the heap they are estimated to hold, read when scraped.
    private let tenantSessions = Mutex<(@Sendable () -> [(tenant: String, sessions: Int, bytes: Int)])?>(nil)

    let sessionsActive: Gauge
    let sessionsCreated: Counter
    /// Heavy requests whose work stopped at `--request-deadline` or a drain: answered 503.
    let requestsStopped: Counter
    let sessionsEvicted: Counter
    let solveTime: DurationHistogram
    let engineRows: Gauge
    let engineColumns: Gauge
    let setConstants: Counter
    let bytesInWire: Counter
    let bytesInDecoded: Counter
    let bytesOutBody: Counter
    let bytesOutWire: Counter
    let streamsOpen: Gauge
    let streamMessagesIn: Counter
    let streamMessagesOut: Counter
    let streamCoalesced: Counter
    let heapBytes: Gauge
    let storeCommitTime: DurationHistogram
    let storeJournalBytes: Counter
    let storeSnapshots: Counter
    let sessionsRestored: Counter
    let restoreTime: DurationHistogram
    let sessionsExpired: Counter
    let sessionsLost: Counter
    let leasesTaken: Counter
    let leasesRefused: Counter
    let leasesLost: Counter
    let leasesHandedOver: Counter
    let writesFenced: Counter
    let connectionsTimedOut: Counter
    let connectionsRefusedPerClient: Counter
    let requestsRefusedPerClient: Counter
    /// Counters whose counts are kept elsewhere (the HTTP server's atomics): read when
    /// scraped, each adding what it gained since.
    private let mirrored = Mutex<[(counter: Counter, read: @Sendable () -> Int, unit: Double, added: Int)]>([])

    public init() {
        let r = registry
        func counter(_ name: String, _ help: String) -> Counter { r.makeCounter(descriptor: Self.named(name, help)) }
        func counter(_ name: String, _ labels: [(String, String)], _ help: String) -> Counter {
            r.makeCounter(descriptor: Self.named(name, help), labels: labels)
        }
        func gauge(_ name: String, _ help: String) -> Gauge { r.makeGauge(descriptor: Self.named(name, help)) }
        func histogram(_ name: String, _ help: String) -> DurationHistogram {
            r.makeDurationHistogram(descriptor: Self.named(name, help), buckets: Self.buckets)
        }
        sessionsActive = gauge("layoutd_sessions_active", "Sessions held in memory.")
        sessionsCreated = counter("layoutd_sessions_created_total", "Sessions created.")
        requestsStopped = counter("layoutd_requests_stopped_total", "Heavy requests whose work stopped at --request-deadline or a drain (503).")
        sessionsEvicted = counter("layoutd_sessions_evicted_total", "Sessions evicted from memory (idle or over the cap).")
        solveTime = histogram("layoutd_engine_solve_seconds", "Time to apply one change in the model and engine.")
        engineRows = gauge("layoutd_engine_rows", "Engine rows over all sessions in memory.")
        engineColumns = gauge("layoutd_engine_columns", "Engine columns over all sessions in memory.")
        setConstants = counter("layoutd_set_constants_total", "Constants set through /constants and streams.")
        let requestBytes = "Request body bytes, as received (wire) and after gzip (decoded)."
        bytesInWire = counter("layoutd_http_request_bytes_total", [("stage", "wire")], requestBytes)
        bytesInDecoded = counter("layoutd_http_request_bytes_total", [("stage", "decoded")], requestBytes)
        let responseBytes = "Response body bytes, before compression (body) and as sent (wire)."
        bytesOutBody = counter("layoutd_http_response_bytes_total", [("stage", "body")], responseBytes)
        bytesOutWire = counter("layoutd_http_response_bytes_total", [("stage", "wire")], responseBytes)
        streamsOpen = gauge("layoutd_streams_open", "WebSocket streams open.")
        let messages = "WebSocket messages received (in) and replies sent (out)."
        streamMessagesIn = counter("layoutd_stream_messages_total", [("direction", "in")], messages)
        streamMessagesOut = counter("layoutd_stream_messages_total", [("direction", "out")], messages)
        streamCoalesced = counter("layoutd_stream_coalesced_updates_total", "Set-constant messages merged into a later one.")
        heapBytes = gauge("layoutd_heap_bytes", "Heap in use (mallinfo2), as the memory budget reads it.")
        storeCommitTime = histogram("layoutd_store_commit_seconds", "Time of one group commit of the session store.")
        storeJournalBytes = counter("layoutd_store_journal_bytes_total", "Bytes written to the session store's journal.")
        storeSnapshots = counter("layoutd_store_snapshots_total", "Session snapshots written to the store.")
        sessionsRestored = counter("layoutd_sessions_restored_total", "Sessions restored from the store.")
        restoreTime = histogram("layoutd_session_restore_seconds", "Time to restore one session from the store.")
        sessionsExpired = counter("layoutd_sessions_expired_total", "Sessions expired after their time to live.")
        connectionsTimedOut = counter(
            "layoutd_connections_closed_total", [("reason", "request_timeout")],
            "Connections the server closed, by reason.")
        connectionsRefusedPerClient = counter(
            "layoutd_connections_refused_total", [("reason", "per_client")],
            "Connections refused at accept, by reason.")
        requestsRefusedPerClient = counter(
            "layoutd_requests_refused_total", [("reason", "per_client")],
            "Requests refused with 429, by reason.")
        sessionsLost = counter(
            "layoutd_sessions_reloaded_after_store_failure_total",
            "Sessions reloaded from the store after a write to it failed.")
        leasesTaken = counter("layoutd_leases_taken_total", "Session leases this replica took (a new session, a restore, a takeover).")
        leasesRefused = counter("layoutd_leases_refused_total", "Requests for a session another replica holds the lease of (answered 503).")
        leasesLost = counter("layoutd_leases_lost_total", "Leases found taken by another replica at renewal (the session left memory).")
        leasesHandedOver = counter("layoutd_leases_handed_over_total", "Leases released because another replica asked for the session.")
        writesFenced = counter("layoutd_store_fenced_sessions_total", "Commits in which a session's writes were refused for a stale lease epoch.")
        // The text measurer is process-wide: its counts, mirrored.
        let text = TextMeasurer.shared
        mirror(counter("layoutd_text_measurements_total", "Texts shaped and wrapped (cache misses), as a label's sizing.")) {
            text.measurements.load(ordering: .relaxed)
        }
        mirror(counter("layoutd_text_measure_seconds_total", "Time spent measuring text, in seconds."), unit: 1e-9) {
            text.nanoseconds.load(ordering: .relaxed)
        }
        for kind in ["unsatisfiable", "ambiguous", "churn"] { diagnostic(kind, count: 0) }
    }

    /// A metric's whole name with its help text (the registry's descriptor splits names into
    /// parts; ours are written whole).
    private static func named(_ name: String, _ help: String) -> MetricNameDescriptor {
        MetricNameDescriptor(metricName: name, unitName: "", helpText: help)
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
            let h = (
                count: registry.makeCounter(
                    descriptor: Self.named("layoutd_http_requests_total", "HTTP requests answered, by route, method and status."),
                    labels: [("route", route), ("method", label), ("status", String(status))]),
                latency: latency(route)
            )
            m[key] = h
            return h
        }
        handles.count.increment()
        handles.latency.recordNanoseconds(Int64(nanos))
    }

    private func latency(_ route: String) -> DurationHistogram {
        latencies.withLock { m in
            if let t = m[route] { return t }
            let t = registry.makeDurationHistogram(
                descriptor: Self.named("layoutd_http_request_duration_seconds", "Time from a request's arrival to its answer, by route."),
                labels: [("route", route)], buckets: Self.buckets)
            m[route] = t
            return t
        }
    }

    /// The series under `key`, made by `make` the first time (labelled series are made on demand).
    private func series<T>(_ cache: borrowing Mutex<[String: T]>, _ key: String, _ make: () -> T) -> T {
        cache.withLock { m in
            if let s = m[key] { return s }
            let s = make()
            m[key] = s
            return s
        }
    }

    func diagnostic(_ kind: String, count: Int) {
        series(diagnosticCounters, kind) {
            registry.makeCounter(descriptor: Self.named("layoutd_diagnostics_total", "Diagnostics reported, by kind."), labels: [("kind", kind)])
        }.increment(by: count)
    }

    /// What a document sent whole was found to differ by: `count` items of `op` (views added,
    /// constants set, …).
    func documentOps(_ op: String, count: Int) {
        guard count > 0 else { return }
        series(documentOpCounters, op) {
            registry.makeCounter(
                descriptor: Self.named("layoutd_document_ops_total", "Items of each op that documents sent whole differed by."), labels: [("op", op)])
        }.increment(by: count)
    }

    /// A tenant's request admitted (`event` "request") or refused (`event` the reason: "rate", "sessions").
    func tenant(_ name: String, _ event: String) {
        // An admitted request (every keyed request) is keyed by the name alone: no string is made.
        series(tenantCounters, event == "request" ? name : name + "\u{0}" + event) {
            event == "request"
                ? registry.makeCounter(
                    descriptor: Self.named("layoutd_tenant_requests_total", "Requests admitted, by tenant."), labels: [("tenant", name)])
                : registry.makeCounter(
                    descriptor: Self.named("layoutd_tenant_refusals_total", "Requests refused by a tenant's quota, by tenant and quota."),
                    labels: [("tenant", name), ("reason", event)])
        }.increment()
    }

    /// A request refused for its key: `no_key` or `unknown_key`.
    func keyRefused(_ reason: String) {
        series(tenantCounters, "\u{0}" + reason) {
            registry.makeCounter(
                descriptor: Self.named("layoutd_auth_refusals_total", "Requests refused for want of a known API key, by reason."),
                labels: [("reason", reason)])
        }.increment()
    }

    /// Where the sessions each tenant holds are counted (read at each scrape).
    func countTenantSessions(_ read: @escaping @Sendable () -> [(tenant: String, sessions: Int, bytes: Int)]) {
        tenantSessions.withLock { $0 = read }
    }

    /// `counter` follows a count kept elsewhere, read at each scrape (`unit`: what one of the
    /// count is in the counter's unit, such as 1e-9 for nanoseconds counted as seconds).
    func mirror(_ counter: Counter, unit: Double = 1, _ read: @escaping @Sendable () -> Int) {
        mirrored.withLock { $0.append((counter, read, unit, 0)) }
    }

    /// The Prometheus text exposition.
    public func exposition() -> [UInt8] {
        heapBytes.set(Double(MemoryBudget.heapInUse))  // read when scraped: it is what the budget compares
        mirrored.withLock { all in
            for k in all.indices {
                let n = all[k].read()
                if all[k].unit == 1 {
                    all[k].counter.increment(by: Int64(n - all[k].added))
                } else {
                    all[k].counter.increment(by: Double(n - all[k].added) * all[k].unit)
                }
                all[k].added = n
            }
        }
        if let read = tenantSessions.withLock({ $0 }) {
            for (tenant, n, bytes) in read() {
                series(tenantGauges, tenant) {
                    registry.makeGauge(
                        descriptor: Self.named("layoutd_tenant_sessions", "Sessions in memory, by tenant."), labels: [("tenant", tenant)])
                }.set(Double(n))
                series(tenantGauges, tenant + "\u{0}bytes") {
                    registry.makeGauge(
                        descriptor: Self.named(
                            "layoutd_tenant_memory_bytes",
                            "Heap the tenant's sessions in memory hold (estimated from their engines' size), by tenant."),
                        labels: [("tenant", tenant)])
                }.set(Double(bytes))
            }
        }
        var out: [UInt8] = []
        registry.emit(into: &out)
        return out
    }
}

extension Counter {
    /// Counts are Ints everywhere in the server.
    func increment(by n: Int) { increment(by: Int64(n)) }
}
