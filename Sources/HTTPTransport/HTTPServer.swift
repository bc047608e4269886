import CMicroHTTPD
import CheckedNumbers
import Dispatch
import Synchronization
#if canImport(Glibc)
    import Glibc
#endif

/// A suspended connection and its request, handed to a worker. The request's header and
/// query lookups read copies, never the connection.
private struct Offloaded: @unchecked Sendable { let connection: OpaquePointer; var request: Request }

/// A suspended connection, resumed from whichever thread releases its answer.
private struct Suspended: @unchecked Sendable { let connection: OpaquePointer }

/// The one place where libmicrohttpd's C callbacks meet Swift. The route table behind
/// `handler` is immutable and request state is owned by its connection, so the
/// callbacks need no locks of their own (an offloaded answer comes back through one).
public final class HTTPServer: @unchecked Sendable {
    public typealias Handler = @Sendable (inout Request) -> Response
    /// The answer to a request refused before it reaches `handler` (a limit): status, detail, headers.
    public typealias Refusal = @Sendable (_ status: Int, _ detail: String, _ headers: [(String, String)]) -> Response
    /// Whether a request (method, path) is one to answer on a worker whatever its size: work
    /// that can take long (a build, a change, a picture) never runs on the threads that serve
    /// every connection, so a light request (a health check, a set-constant) never waits for it.
    public typealias Heavy = @Sendable (_ method: String, _ path: String) -> Bool

    public let configuration: HTTPServerConfiguration
    let handler: Handler
    let refusal: Refusal
    let heavy: Heavy
    private var daemon: OpaquePointer?
    private var workers: WorkerPool?
    private let inFlightCount = Atomic<Int>(0)
    private let connectionCount = Atomic<Int>(0)
    /// Connections suspended on a held answer (a durable write, a delayed refusal).
    private let heldCount = Atomic<Int>(0)
    private let connectionGuard: ConnectionGuard
    public private(set) var port: UInt16 = 0

    public init(
        configuration: HTTPServerConfiguration, refusal: @escaping Refusal, heavy: @escaping Heavy = { _, _ in false },
        handler: @escaping Handler
    ) {
        self.configuration = configuration
        self.handler = handler
        self.refusal = refusal
        self.heavy = heavy
        connectionGuard = ConnectionGuard(
            requestTimeoutSeconds: configuration.requestTimeoutSeconds,
            idleTimeoutSeconds: configuration.connectionTimeoutSeconds,
            perClientLimit: configuration.maxConnectionsPerClient,
            perOwnerLimit: configuration.maxConnectionsPerOwner,
            trusted: configuration.trustedProxies.compactMap(AddressRange.init))
    }

    deinit { stop() }

    public var inFlight: Int { inFlightCount.load(ordering: .relaxed) }

    public struct StartError: Error, CustomStringConvertible { public var description: String }

    public func start() throws {
        // An IPv6 host (it has a colon) listens on IPv6; "::" takes IPv4 clients too.
        let host = configuration.host == "localhost" ? "127.0.0.1" : configuration.host
        var address = sockaddr_storage()
        var ipv6Flags: UInt32 = 0
        let unparsable = StartError(description: "cannot parse host '\(configuration.host)' (an IPv4 or IPv6 address)")
        if host.contains(":") {
            var a = sockaddr_in6()
            a.sin6_family = sa_family_t(AF_INET6)
            a.sin6_port = configuration.port.bigEndian
            guard inet_pton(AF_INET6, host, &a.sin6_addr) == 1 else { throw unparsable }
            withUnsafeMutableBytes(of: &address) { d in withUnsafeBytes(of: a) { d.copyMemory(from: $0) } }
            ipv6Flags = host == "::" ? MHD_USE_DUAL_STACK.rawValue : MHD_USE_IPv6.rawValue
        } else {
            var a = sockaddr_in()
            a.sin_family = sa_family_t(AF_INET)
            a.sin_port = configuration.port.bigEndian
            guard inet_pton(AF_INET, host, &a.sin_addr) == 1 else { throw unparsable }
            withUnsafeMutableBytes(of: &address) { d in withUnsafeBytes(of: a) { d.copyMemory(from: $0) } }
        }
        // ITC: libmicrohttpd wakes its workers through a pipe (without it, throughput fell by a quarter here).
        var flags: UInt32 = MHD_ALLOW_UPGRADE.rawValue | MHD_USE_ITC.rawValue | ipv6Flags
        var threads: UInt32 = 1
        switch configuration.threading {
        case .pool:
            flags |= MHD_USE_INTERNAL_POLLING_THREAD.rawValue | MHD_USE_EPOLL.rawValue | MHD_ALLOW_SUSPEND_RESUME.rawValue
            threads = UInt32(max(1, configuration.threads))
        case .perConnection:
            flags |= MHD_USE_INTERNAL_POLLING_THREAD.rawValue | MHD_USE_THREAD_PER_CONNECTION.rawValue | MHD_USE_POLL.rawValue
        case .single:
            flags |= MHD_USE_INTERNAL_POLLING_THREAD.rawValue | MHD_USE_EPOLL.rawValue | MHD_ALLOW_SUSPEND_RESUME.rawValue
        }
        if configuration.threading != .perConnection && configuration.workers > 0 {
            workers = WorkerPool(threads: configuration.workers, name: "layoutd-worker")
        }
        connectionGuard.start()
        let cls = Unmanaged.passUnretained(self).toOpaque()
        var certificateCallback: UnsafeMutableRawPointer?
        if let tls = configuration.tls {
            do { try TLSCertificates.install(tls) } catch {
                workers?.stop()
                connectionGuard.stop()
                throw StartError(description: error.description)
            }
            certificateCallback = unsafeBitCast(TLSCertificates.callback, to: UnsafeMutableRawPointer.self)
        }
        daemon = withUnsafePointer(to: &address) { p in
            p.withMemoryRebound(to: sockaddr.self, capacity: 1) { sa in
                // libmicrohttpd's own limit (which only closes sockets) sits above ours, so
                // connections past `connectionLimit` get a 503 they can read.
                layoutd_mhd_start(
                    flags, sa, acceptPolicy, accessHandler, cls, completedHandler, connectionNotify, threads,
                    UInt32(configuration.connectionLimit + max(16, configuration.connectionLimit / 8)),
                    UInt32(configuration.connectionTimeoutSeconds),
                    configuration.connectionMemoryLimit, UInt32(configuration.listenBacklog), certificateCallback, configuration.tlsPriorities)
            }
        }
        guard let daemon else {
            if configuration.tls != nil { TLSCertificates.removeAll() }
            workers?.stop()
            connectionGuard.stop()
            throw StartError(description: "libmicrohttpd could not listen on \(configuration.host):\(configuration.port)")
        }
        port = layoutd_mhd_port(daemon)
    }

    /// Draining refuses new connections in the accept policy. (MHD_quiesce_daemon is not used:
    /// on an epoll daemon with its own threads it races the workers for the listening socket
    /// and aborts the process, an open libmicrohttpd defect.)
    private let accepting = Atomic<Bool>(true)

    /// Stops accepting connections; requests under way, and open keep-alive connections, go on.
    public func quiesce() {
        accepting.store(false, ordering: .relaxed)
    }

    /// Puts a new certificate chain and key in force for the connections that follow (those
    /// open keep theirs); what does not parse is refused, and the one in force stays.
    public func replaceCertificates(_ credentials: TLSCredentials) throws {
        guard configuration.tls != nil else { throw StartError(description: "the server was started without TLS") }
        try TLSCertificates.install(credentials)
    }

    /// Stops serving. True when everything under way ended first; false when a worker was
    /// still busy after `waitingAtMost` seconds: the daemon is then left as it is (stopping it
    /// with a connection suspended is undefined in libmicrohttpd) for the process to exit
    /// with, so that one request's endless work cannot keep a drain from ending.
    @discardableResult
    public func stop(waitingAtMost seconds: Double = .infinity) -> Bool {
        guard let d = daemon else { return true }
        // Stopping with a connection still suspended is undefined in libmicrohttpd: let
        // the workers finish and resume theirs first.
        let giveUp = seconds.isFinite ? monotonicNanos() + UInt64(saturating: max(0, seconds) * 1e9) : .max
        while let w = workers, w.pending > 0 {
            if monotonicNanos() > giveUp { return false }
            usleep(1000)
        }
        // And the held answers' (a delayed refusal waits at most a second).
        let deadline = monotonicNanos() + 5_000_000_000
        while heldCount.load(ordering: .relaxed) > 0 && monotonicNanos() < deadline { usleep(1000) }
        workers?.stop()
        daemon = nil
        MHD_stop_daemon(d)
        if configuration.tls != nil { TLSCertificates.removeAll() }
        connectionGuard.stop()
        return true
    }

    var isAccepting: Bool { accepting.load(ordering: .relaxed) }

    /// Connections closed at their request deadline, and refused for their client's cap.
    public var connectionsTimedOut: Int { connectionGuard.timedOut.load(ordering: .relaxed) }
    public var connectionsRefusedPerClient: Int { connectionGuard.refused.load(ordering: .relaxed) }
    public var requestsRefusedPerForwardedClient: Int { connectionGuard.refusedForwarded.load(ordering: .relaxed) }
    public var requestsRefusedPerOwner: Int { connectionGuard.refusedOwner.load(ordering: .relaxed) }

    func admits(_ address: UnsafePointer<sockaddr>?) -> Bool {
        isAccepting && connectionGuard.admits(address)
    }

    private func clock(_ connection: OpaquePointer) -> ConnectionGuard.Clock? {
        layoutd_mhd_socket_context(connection).map { Unmanaged<ConnectionGuard.Clock>.fromOpaque($0).takeUnretainedValue() }
    }

    // MARK: Called from the C callbacks

    func onRequest(
        _ connection: OpaquePointer, _ url: UnsafePointer<CChar>, _ method: UnsafePointer<CChar>,
        _ upload: UnsafePointer<CChar>?, _ uploadSize: UnsafeMutablePointer<Int>,
        _ conCls: UnsafeMutablePointer<UnsafeMutableRawPointer?>
    ) -> MHD_Result {
        guard let raw = conCls.pointee else {
            // First call: headers only.
            let state = RequestState(connection: connection)
            state.clock = clock(connection)
            state.maxBody = configuration.maxBodyBytesByPath.isEmpty ? configuration.maxBodyBytes : configuration.maxBody(for: String(cString: url))
            conCls.pointee = Unmanaged.passRetained(state).toOpaque()
            inFlightCount.add(1, ordering: .relaxed)
            if connectionCount.load(ordering: .relaxed) > configuration.connectionLimit {
                return answerAtOnce(
                    connection, state,
                    refusal(
                        503, "the server is at its limit of \(configuration.connectionLimit) connections",
                        [("Retry-After", "1"), ("Connection", "close")]))
            }
            if let violation = Self.malformed(connection, url) {
                return answerAtOnce(connection, state, refusal(400, violation, [("Connection", "close")]))
            }
            if state.clock?.viaProxy == true,
                let client = ConnectionGuard.forwardedClient(xForwardedFor: state.header("X-Forwarded-For"), xRealIP: state.header("X-Real-IP"))
            {
                guard let admitted = connectionGuard.begin(forwarded: client) else {
                    return answerAtOnce(
                        connection, state,
                        refusal(
                            429, "client \(client) has \(configuration.maxConnectionsPerClient) requests in flight already",
                            [("Retry-After", "1")]))
                }
                state.forwarded = admitted
            }
            // A length past Int's range is too large too: libmicrohttpd takes it (it fits 64
            // unsigned bits) and would wait for that body, so Int(cl) failing must not let it by.
            if let cl = state.header("Content-Length"), !cl.isEmpty, cl.utf8.allSatisfy({ $0 &- 48 < 10 }) {
                let n = Int(cl)
                if (n ?? .max) > state.maxBody { return answerAtOnce(connection, state, tooLarge(n, limit: state.maxBody)) }
                state.declaredLength = n ?? 0
            }
            return .YES
        }
        let state = Unmanaged<RequestState>.fromOpaque(raw).takeUnretainedValue()
        if state.answered {
            // Called again after a worker resumed the connection: its answer is ready.
            if let r = state.offloaded.withLock({ r in
                defer { r = nil }; return r
            }) {
                return queue(connection, r)
            }
            uploadSize.pointee = 0
            return .YES
        }
        let n = uploadSize.pointee
        if n > 0 {
            if !state.tooLarge {
                if state.body.count + n > state.maxBody {
                    state.tooLarge = true
                    state.body = []
                } else {
                    // Room for the declared length at the first bytes (within the limit): a
                    // 1 MB body grown by doubling was ~1 M instructions of copies.
                    if state.body.isEmpty, state.declaredLength > n { state.body.reserveCapacity(state.declaredLength) }
                    upload!.withMemoryRebound(to: UInt8.self, capacity: n) { state.body.append(contentsOf: UnsafeBufferPointer(start: $0, count: n)) }
                }
            }
            uploadSize.pointee = 0
            return .YES
        }
        state.answered = true
        state.clock.map(connectionGuard.handling)
        if state.tooLarge { return queue(connection, tooLarge(nil, limit: state.maxBody)) }
        let methodName = String(cString: method), path = String(cString: url)
        if let workers, state.body.count >= configuration.offloadBodyBytes || heavy(methodName, path) {
            return offload(connection, state, workers, method: methodName, path: path)
        }
        var request = Request(method: methodName, path: path, body: state.body, values: state)
        request.viaTrustedProxy = state.clock?.viaProxy == true
        request.socket = state.clock?.fd ?? -1
        request.slot = state.clock.map { ConnectionSlot(clock: $0, guard: connectionGuard) }
        state.body = []
        let response = handler(&request)
        if response.hold != nil { return suspend(connection, state, response) }
        if response.upgrade != nil {
            // Answered: what follows is a WebSocket, which a drain closes itself, not a
            // request to wait for (libmicrohttpd completes it only when the socket closes).
            state.upgraded = true
            inFlightCount.subtract(1, ordering: .relaxed)
        }
        return queue(connection, response)
    }

    /// What makes a request unreadable one way for a proxy and another for this server, or
    /// cut short where a C string ends: refused before anything reads it. libmicrohttpd
    /// takes the first of two `Content-Length`s (a proxy may take the last), and hands on
    /// header values and paths as C strings (`Bearer KEY\0junk` read as `Bearer KEY`).
    static func malformed(_ connection: OpaquePointer, _ url: UnsafePointer<CChar>) -> String? {
        var p = url
        while p.pointee != 0 {
            let b = UInt8(bitPattern: p.pointee)
            if b < 0x20 || b == 0x7F { return "the path holds a control character (or %00)" }
            p += 1
        }
        if layoutd_mhd_scan(connection, .GET_ARGUMENT_KIND).bad_bytes > 0 { return "the query holds a control character (or %00)" }
        let headers = layoutd_mhd_scan(connection, .HEADER_KIND)
        if headers.bad_bytes > 0 {
            return "the header \(headers.first_bad.map { String(cString: $0) } ?? "") holds a control character"
        }
        if headers.content_lengths > 1 { return "Content-Length is sent more than once" }
        if headers.content_lengths > 0 && headers.transfer_encodings > 0 { return "Content-Length and Transfer-Encoding are both sent" }
        return nil
    }

    /// A held answer: the connection waits suspended (its thread serves others) until the
    /// hold releases it. Thread per connection cannot suspend: there the thread waits.
    private func suspend(_ connection: OpaquePointer, _ state: RequestState, _ response: Response) -> MHD_Result {
        if configuration.threading == .perConnection {
            let done = DispatchSemaphore(value: 0)
            Self.release(response, into: state) { done.signal() }
            done.wait()
            return queue(
                connection,
                state.offloaded.withLock { r in
                    defer { r = nil }; return r!
                })
        }
        MHD_suspend_connection(connection)
        let c = Suspended(connection: connection)
        heldCount.add(1, ordering: .relaxed)
        Self.release(response, into: state) { [self] in
            MHD_resume_connection(c.connection)
            heldCount.subtract(1, ordering: .relaxed)
        }
        return .YES
    }

    /// Puts `response` (or, when it is held, what its hold releases) where the suspended
    /// connection's next callback finds it, then calls `then` (which resumes it). The
    /// response's leftover is dropped only after that.
    private static func release(_ response: Response, into state: RequestState, then: @escaping @Sendable () -> Void) {
        var ready = response
        let leftover = ready.leftover
        ready.leftover = nil
        guard let hold = ready.hold else {
            state.offloaded.withLock { [ready] in $0 = ready }
            withExtendedLifetime(leftover, then)
            return
        }
        ready.hold = nil
        let released = ready
        hold { r in
            state.offloaded.withLock { $0 = r ?? released }
            withExtendedLifetime(leftover, then)
        }
    }

    /// Suspends the connection and answers on a worker. The worker sees a copy of the
    /// headers and query (it must not touch the connection) and only resumes it.
    private func offload(_ connection: OpaquePointer, _ state: RequestState, _ workers: WorkerPool, method: String, path: String) -> MHD_Result {
        let copied = CopiedRequestValues(
            headers: values(connection, .HEADER_KIND, lowercased: true),
            arguments: values(connection, .GET_ARGUMENT_KIND, lowercased: false))
        var request = Request(method: method, path: path, body: state.body, values: copied)
        request.viaTrustedProxy = state.clock?.viaProxy == true
        // A closed connection is seen while the work goes on (its FIN, plain or over TLS).
        request.socket = state.clock?.fd ?? -1
        request.slot = state.clock.map { ConnectionSlot(clock: $0, guard: connectionGuard) }
        state.body = []
        let job = Offloaded(connection: connection, request: request)
        MHD_suspend_connection(connection)
        // Queued by who sent it (its key, else its address): the workers take each sender's
        // jobs in turn, so a flood from one waits behind itself, not in front of the others.
        let sender = copied.headers["authorization"] ?? state.clock?.client.map { "\($0)" } ?? ""
        workers.run(for: sender) { [self] in
            var job = job
            let c = Suspended(connection: job.connection)
            let response = handler(&job.request)
            // A held answer (a durable write, a delayed refusal) outlives the job: counted, so
            // that `stop` waits for it as for the others.
            let held = response.hold != nil
            if held { heldCount.add(1, ordering: .relaxed) }
            Self.release(response, into: state) { [self] in
                MHD_resume_connection(c.connection)
                if held { heldCount.subtract(1, ordering: .relaxed) }
            }
        }
        return .YES
    }

    private func values(_ connection: OpaquePointer, _ kind: MHD_ValueKind, lowercased: Bool) -> [String: String] {
        final class Collected { var values: [String: String] = [:]; var lowercased = false }
        let collected = Collected()
        collected.lowercased = lowercased
        _ = MHD_get_connection_values(
            connection, kind,
            { cls, _, key, value in
                let c = Unmanaged<Collected>.fromOpaque(cls!).takeUnretainedValue()
                if let key {
                    let k = String(cString: key)
                    c.values[c.lowercased ? k.lowercased() : k] = value.map { String(cString: $0) } ?? ""
                }
                return .YES
            }, Unmanaged.passUnretained(collected).toOpaque())
        return collected.values
    }

    /// Answers on the headers alone (a limit reached): the request is handled, off the clock.
    private func answerAtOnce(_ connection: OpaquePointer, _ state: RequestState, _ response: Response) -> MHD_Result {
        state.answered = true
        state.clock.map(connectionGuard.handling)
        return queue(connection, response)
    }

    func completed(_ connection: OpaquePointer?, _ conCls: UnsafeMutablePointer<UnsafeMutableRawPointer?>?) {
        let state = conCls?.pointee.map { Unmanaged<RequestState>.fromOpaque($0).takeUnretainedValue() }
        if let c = state?.clock ?? connection.flatMap(clock) { connectionGuard.answered(c) }
        guard let state, let p = conCls?.pointee else { return }
        if let a = state.forwarded { connectionGuard.finished(forwarded: a) }
        Unmanaged<RequestState>.fromOpaque(p).release()
        conCls?.pointee = nil
        if !state.upgraded { inFlightCount.subtract(1, ordering: .relaxed) }
    }

    /// A connection opened (its clock goes into its socket context) or closed (the clock comes out).
    func connectionChanged(_ connection: OpaquePointer?, _ context: UnsafeMutablePointer<UnsafeMutableRawPointer?>?, opened: Bool) {
        connectionCount.add(opened ? 1 : -1, ordering: .relaxed)
        guard let context else { return }
        if opened, let connection {
            let c = connectionGuard.opened(fd: layoutd_mhd_connection_fd(connection), address: layoutd_mhd_client_address(connection))
            context.pointee = Unmanaged.passRetained(c).toOpaque()
        } else if !opened, let p = context.pointee {
            connectionGuard.closed(Unmanaged<ConnectionGuard.Clock>.fromOpaque(p).takeRetainedValue())
            context.pointee = nil
        }
    }

    private func tooLarge(_ n: Int?, limit: Int) -> Response {
        refusal(413, "the request body\(n.map { " (\($0) bytes)" } ?? "") is larger than the limit of \(limit) bytes", [])
    }

    private func queue(_ connection: OpaquePointer, _ r: Response) -> MHD_Result {
        let mhdResponse: OpaquePointer?
        if let upgrade = r.upgrade {
            clock(connection).map(connectionGuard.upgraded)
            let box = Unmanaged.passRetained(UpgradeBox(upgrade))
            mhdResponse = MHD_create_response_for_upgrade(upgradeHandler, box.toOpaque())
        } else if r.body.count >= LentBody.minimumBytes {
            // A large body is lent, not copied: libmicrohttpd releases it once sent.
            let body = Unmanaged.passRetained(LentBody(r.body))
            mhdResponse = MHD_create_response_from_buffer_with_free_callback_cls(
                r.body.count, body.takeUnretainedValue().start, releaseBody, body.toOpaque())
            if mhdResponse == nil { body.release() }
        } else {
            mhdResponse = r.body.withUnsafeBytes { b in
                layoutd_mhd_response_copy(b.count, b.baseAddress)
            }
        }
        guard let mhdResponse else { return .NO }
        if let type = r.contentType { type.withCString { _ = MHD_add_response_header(mhdResponse, "Content-Type", $0) } }
        for (k, v) in r.headers { k.withCString { k in v.withCString { v in _ = MHD_add_response_header(mhdResponse, k, v) } } }
        let result = MHD_queue_response(connection, UInt32(r.status), mhdResponse)
        MHD_destroy_response(mhdResponse)
        return result
    }
}

/// A response body libmicrohttpd reads in place until it calls `releaseBody`: a one-shot
/// layout's 600 KB answer was copied in full (0.25 M instructions, callgrind).
final class LentBody {
    /// Below this a copy costs less than the lending.
    static let minimumBytes = 16 * 1024
    let bytes: [UInt8]
    /// The array's storage: it stays where it is, the array held here and never changed.
    let start: UnsafeMutableRawPointer

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
        start = UnsafeMutableRawPointer(mutating: bytes.withUnsafeBytes { $0.baseAddress! })
    }
}
