import CheckedNumbers
import Foundation
public import HTTPTransport
import JSON
public import Logging
import Prometheus
import SessionStorage
import Synchronization
import WorkBudget

/// Flags read from several threads.
final class ServerState: Sendable {
    let ready = Atomic<Bool>(false)
    let running = Atomic<Bool>(false)
}

/// layoutd: the routes, the session store and the middleware around them, served by
/// libmicrohttpd.
public final class LayoutdServer: Sendable {
    public let configuration: ServerConfiguration
    let metrics = ServerMetrics()
    let store: SessionStore
    let logger: Logger
    private let router: RouteTable
    private let state = ServerState()
    private let http = Mutex<HTTPServer?>(nil)
    let sessions: SessionService
    let access: AccessControl
    let crossOrigin: CrossOrigin
    let hosts: HostAllowList
    let tickets = StreamTickets()
    private let authorization: Authorization
    private let decoding: BodyDecoding
    private let compression: AnswerCompression
    /// The work budgets of the heavy requests under way: a drain past its timeout cancels them.
    private let budgets = Mutex<[ObjectIdentifier: WorkBudget]>([:])
    let websockets: WebSocketServer
    let persistence: SessionPersistence?

    /// Opens the store the configuration names; throws when it cannot be opened.
    public convenience init(configuration: ServerConfiguration, logger: Logger = Logger(label: "layoutd")) throws {
        try self.init(configuration: configuration, logger: logger, storage: SessionPersistence.storage(configuration, logger: logger))
    }

    /// On a store already open (`nil`: sessions in memory only), as tests give one.
    init(configuration: ServerConfiguration, logger: Logger, storage: (any SessionStorage)?) throws {
        self.configuration = configuration
        self.logger = logger
        crossOrigin = CrossOrigin(origins: Set(configuration.corsOrigins))
        hosts = HostAllowList(configuration.allowedHosts)
        do throws(Tenants.Invalid) { access = try AccessControl(path: configuration.authFile) } catch {
            throw ConfigurationError(description: "--auth-file \(configuration.authFile ?? ""): \(error)")
        }
        store = SessionStore(maxSessions: configuration.maxSessions, idleTTLSeconds: configuration.sessionTTLSeconds)
        let metrics = metrics
        persistence = storage.map { SessionPersistence(storage: $0, configuration: configuration, metrics: metrics, logger: logger) }
        let layouts = LayoutService(metrics: metrics, configuration: configuration)
        sessions = SessionService(store: store, layouts: layouts, persistence: persistence)
        websockets = WebSocketServer(
            reactors: configuration.http.threads, maxConnections: configuration.maxStreams, maxMessageBytes: configuration.maxStreamMessageBytes,
            idleTimeoutSeconds: configuration.streamIdleTimeoutSeconds)
        authorization = Authorization(access: access, tickets: tickets, metrics: metrics)
        decoding = BodyDecoding(http: configuration.http, metrics: metrics)
        compression = AnswerCompression(minBytes: configuration.gzipMinBytes, metrics: metrics)
        var r = RouteTable()
        OneShotRoutes(layouts: layouts).register(&r)
        SessionRoutes(sessions: sessions).register(&r)
        let pictures = PictureAnswer(maxPixels: configuration.maxPicturePixels, maxGlyphs: configuration.maxPictureGlyphs)
        PictureRoutes(sessions: sessions, layouts: layouts, answer: pictures).register(&r)
        CompareRoutes(pictures: pictures).register(&r)
        StreamRoutes(sessions: sessions, websockets: websockets, logger: logger, tickets: tickets, access: access).register(&r)
        InterfaceBuilderRoutes(layouts: layouts).register(&r)
        PlaygroundRoutes().register(&r)
        let state = state
        let writer = persistence?.writer
        OperationalRoutes(
            ready: { state.ready.load(ordering: .relaxed) }, storeFailure: { writer?.unwritable }, metrics: metrics,
            metricsKey: configuration.metricsKey.map { Digest.sha256(Array($0.utf8)) }
        ).register(&r)
        router = r
        let m = metrics
        store.onEvict = { n in m.sessionsEvicted.increment(by: n) }
        store.onHeldChange = { sessions, rows, columns in
            if sessions != 0 { m.sessionsActive.increment(by: Double(sessions)) }
            if rows != 0 { m.engineRows.increment(by: Double(rows)) }
            if columns != 0 { m.engineColumns.increment(by: Double(columns)) }
        }
        persistence?.attach(to: store)
        if !access.isOpen {
            let access = access, store = store
            metrics.countTenantSessions { access.tenantNames.map { ($0, store.count(ownedBy: $0), store.heapEstimate(ownedBy: $0)) } }
        }
    }

    /// The port actually bound (useful with port 0).
    public var port: UInt16 { http.withLock { $0?.port ?? 0 } }
    var isReady: Bool { state.ready.load(ordering: .relaxed) }

    public func start() throws {
        MemoryBudget.keepFreedHeap(configuration.heapKeepBytes)
        let server = HTTPServer(configuration: configuration.http, refusal: { Problem($0, $1, headers: $2).response }, heavy: Self.isHeavy) {
            [self] req in handle(&req)
        }
        try server.start()
        http.withLock { $0 = server }
        metrics.mirror(metrics.connectionsTimedOut) { server.connectionsTimedOut }
        metrics.mirror(metrics.connectionsRefusedPerClient) { server.connectionsRefusedPerClient }
        metrics.mirror(metrics.requestsRefusedPerClient) { server.requestsRefusedPerForwardedClient }
        state.running.store(true, ordering: .relaxed)
        let sweep = max(0.05, min(0.25, configuration.sessionTTLSeconds / 4))
        let thread = Thread { [self] in
            while state.running.load(ordering: .relaxed) {
                Thread.sleep(forTimeInterval: sweep)
                store.evictIdle()
                persistence?.compact(store)
            }
        }
        thread.name = "layoutd-ttl"
        thread.start()
        state.ready.store(true, ordering: .relaxed)
        if access.isOpen {
            // Anyone who reaches the port may act: fine on loopback, a warning anywhere else.
            let local = ["127.0.0.1", "::1", "localhost"].contains(configuration.http.host)
            let message: Logger.Message = "no --auth-file: the server is open to anyone who reaches it"
            if local { logger.notice(message) } else { logger.warning("\(message) (listening on \(configuration.http.host), not loopback)") }
        } else {
            logger.info("API keys required", metadata: ["tenants": "\(access.tenantNames.joined(separator: ","))"])
        }
        logger.info(
            "listening",
            metadata: [
                "host": "\(configuration.http.host)", "port": "\(server.port)",
                "threading": "\(configuration.http.threading.rawValue)", "threads": "\(configuration.http.threads)",
                "memory_budget_mb": "\(configuration.memoryBudget.limitBytes >> 20)",
                "store": "\(configuration.store)", "durability": "\(configuration.durability.rawValue)"
            ])
    }

    /// Requests whose headers are in and whose answer is not yet sent (what a drain waits for).
    var requestsInFlight: Int { http.withLock { $0 }?.inFlight ?? 0 }

    /// Heavy requests whose handler is running (each under its work budget).
    var heavyRequestsUnderWay: Int { budgets.withLock { $0.count } }

    /// SIGTERM: not ready, stop accepting, let requests under way finish (up to the drain
    /// timeout), close streams, stop.
    public func drain() {
        // New connections stop before readiness says so: once /readyz answers draining, no
        // connection is taken (the other order left a moment for one, seen on a loaded CI).
        let running = http.withLock { $0 }
        running?.quiesce()
        state.ready.store(false, ordering: .relaxed)
        guard let server = running else { return }
        logger.info("draining", metadata: ["in_flight": "\(server.inFlight)"])
        let deadline = monotonicNanos() + UInt64(saturating: configuration.drainTimeoutSeconds * 1e9)
        while server.inFlight > 0 && monotonicNanos() < deadline { usleep(2000) }
        // Heavy work still under way stops at its next check, answered 503.
        for b in budgets.withLock({ Array($0.values) }) { b.cancel() }
        websockets.closeAll("server shutting down")
        let left = server.inFlight
        state.running.store(false, ordering: .relaxed)
        // What is still under way had the drain timeout; one more second, then the process
        // exits with it unanswered (it was never acknowledged).
        if !server.stop(waitingAtMost: 1) {
            logger.warning("requests still under way after the drain timeout are abandoned", metadata: ["in_flight": "\(server.inFlight)"])
        }
        http.withLock { $0 = nil }
        // Everything acknowledged, set-constants waiting for their flush included, is written.
        persistence?.stop(store)
        logger.info("stopped", metadata: ["unfinished": "\(left)"])
    }

    /// The requests answered on a worker whatever their size: every build, change, import and
    /// picture (a small body can hold 2,000 constraints at odds). What stays on the threads
    /// that serve every connection is light: health, metrics, reads of a session, a
    /// set-constant (the fast path), a stream ticket.
    @Sendable static func isHeavy(_ method: String, _ path: String) -> Bool {
        switch method {
        case "POST", "PUT": return !path.hasSuffix("/constants") && !path.hasSuffix("/stream-ticket")
        case "GET": return path.hasSuffix("/snapshot.png") || path.hasSuffix("/snapshot.svg") || path.hasSuffix("/trace")
        default: return false
        }
    }

    // MARK: The middleware chain

    /// Answers one request: what libmicrohttpd's callback calls, and what a benchmark can
    /// call without a socket.
    public func handle(_ req: inout Request) -> Response {
        let t0 = monotonicNanos()
        var routeName = "unmatched"
        var routeIndex = -1
        var response: Response
        metrics.bytesInWire.increment(by: req.body.count)
        // Read only when origins are configured: a header lookup on every request otherwise.
        let origin = crossOrigin.isOff ? nil : crossOrigin.allowed(req)
        switch router.match(req.method, req.path) {
        case _ where access.isOpen && !req.viaTrustedProxy && !hosts.admits(req.header("Host")):
            response = hosts.refusal(req.header("Host") ?? "").response
        case .notFound:
            response = Problem(404, "no route for \(req.path)").response
        case .methodNotAllowed(let allow) where origin != nil && CrossOrigin.isPreflight(req):
            response = crossOrigin.preflight(origin: origin!, methods: allow)
        case .methodNotAllowed(let allow):
            response = Problem(405, "\(req.method) is not allowed on \(req.path)", headers: [("Allow", allow.joined(separator: ", "))]).response
        case .found(let route, let captures):
            routeName = route.name
            routeIndex = route.index
            req.captures = captures
            do {
                let entry = router.entry(route)
                let caller = try authorization.caller(entry, req)
                try decoding.decode(&req)
                if Self.isHeavy(req.method, req.path) {
                    let socket = req.socket
                    response = try budgeted(client: socket) { [req] () throws(Problem) -> Response in try entry.handler(req, caller) }
                } else {
                    response = try entry.handler(req, caller)
                }
            } catch {
                response = error.response
            }
        }
        if let origin, response.upgrade == nil, !CrossOrigin.isPreflight(req) { crossOrigin.decorate(&response, origin: origin) }
        if response.upgrade == nil { compression.compress(&response, for: req) }
        if req.method == "HEAD" { response.body = [] }
        let nanos = monotonicNanos() - t0
        metrics.request(route: routeName, routeIndex: routeIndex, method: req.method, status: response.status, nanos: nanos)
        // 503 is deliberate (draining, or a limit reached) and counted in the metrics; logging
        // each one as an error would flood the log exactly when the server is busiest.
        if response.status >= 500 && response.status != 503 {
            logger.error("request failed", metadata: ["method": "\(req.method)", "path": "\(logged(req.path))", "status": "\(response.status)"])
        } else if logger.logLevel <= .debug {
            logger.debug(
                "request",
                metadata: [
                    "method": "\(req.method)", "path": "\(logged(req.path))", "status": "\(response.status)",
                    "micros": "\(nanos / 1000)"
                ])
        }
        return response
    }

    /// Runs a heavy request's handler within `--request-deadline` (and the drain's cancel):
    /// whatever it made after a loop stopped for it is not an answer, and the answer is 503.
    private func budgeted(client socket: Int32, _ handler: () throws(Problem) -> Response) throws(Problem) -> Response {
        // A client that closes its connection cancels its work: its answer can go nowhere.
        var gone: (@Sendable () -> Bool)? = nil
        if socket >= 0 { gone = { @Sendable in peerClosed(socket) } }
        let budget = WorkBudget(seconds: configuration.requestDeadlineSeconds, gone: gone)
        let id = ObjectIdentifier(budget)
        budgets.withLock { $0[id] = budget }
        defer { budgets.withLock { _ = $0.removeValue(forKey: id) } }
        let result = WorkBudget.run(budget) { () -> Result<Response, Problem> in
            do throws(Problem) { return .success(try handler()) } catch { return .failure(error) }
        }
        guard budget.stoppedWork else { return try result.get() }
        metrics.requestsStopped.increment()
        throw Problem(stopped: budget)
    }

    /// Re-reads `--auth-file` (SIGHUP): keys added or revoked take effect, sessions stay. A
    /// bad file keeps the one in force; the answer says why.
    public func reloadAccess() -> String? {
        let failure = access.reload()
        if let failure {
            logger.error("auth file not reloaded: the one in force stays", metadata: ["error": "\(failure)"])
        } else if !access.isOpen {
            // A revoked key's streams close and its tickets go at once, not at their next use.
            let access = access
            let closed = websockets.close(
                where: { ($0 as? SessionStream).map { !access.isCurrent($0.caller) } ?? false }, .policy, "the API key was revoked")
            let dropped = tickets.revoke(unless: access.isCurrent)
            logger.notice(
                "auth file reloaded",
                metadata: ["tenants": "\(access.tenantNames.joined(separator: ","))", "streams_closed": "\(closed)", "tickets_dropped": "\(dropped)"])
        }
        return failure
    }

    /// Puts a new TLS certificate and key in force (SIGHUP) for the connections that follow;
    /// open ones keep theirs. A pair that does not parse, or a key not the certificate's,
    /// keeps the one in force; the answer says why.
    public func reloadCertificates(_ credentials: TLSCredentials) -> String? {
        guard let server = http.withLock({ $0 }) else { return "the server is not running" }
        do {
            try server.replaceCertificates(credentials)
            logger.notice("TLS certificate reloaded")
            return nil
        } catch {
            logger.error("TLS certificate not reloaded: the one in force stays", metadata: ["error": "\(error)"])
            return "\(error)"
        }
    }
}

/// A request's text as a log line may carry it: control characters escaped, so no value ends a
/// line and forges the next (the transport refuses them in paths already; this holds anyway).
func logged(_ text: String) -> String {
    guard text.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F }) else { return text }
    var out = ""
    for u in text.unicodeScalars {
        if u.value < 0x20 || u.value == 0x7F { out += "\\x" + String(u.value, radix: 16) } else { out.unicodeScalars.append(u) }
    }
    return out
}
