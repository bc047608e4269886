import HTTPTransport
import Foundation
import Logging
import Synchronization
import Prometheus

/// `GET /v1/sessions/{id}/stream`: the WebSocket handshake, the cap on open streams, and
/// closing them all on shutdown.
final class StreamHub: Sendable {
    let layout: LayoutRoutes
    let metrics: ServerMetrics
    let logger: Logger
    private let configuration: ServerConfiguration
    /// Open streams, and the handshakes answered 101 whose upgrade has not run yet (when each
    /// was answered): both count against the cap, so concurrent handshakes cannot exceed it.
    /// A handshake whose client went away before the upgrade stops counting after `claimTTL`.
    private struct Slots {
        var open: [ObjectIdentifier: StreamConnection] = [:]
        var claims: [UInt64] = []
    }
    private let slots = Mutex(Slots())
    private static let claimTTL: UInt64 = 10_000_000_000
    private let reactors: [StreamReactor]
    private let nextReactor = Atomic<Int>(0)

    init(layout: LayoutRoutes, configuration: ServerConfiguration, metrics: ServerMetrics, logger: Logger) {
        self.layout = layout
        self.configuration = configuration
        self.metrics = metrics
        self.logger = logger
        let store = layout.store
        reactors = (0..<max(1, configuration.http.threads)).map { k in
            StreamReactor(name: "layoutd-streams-\(k)") { streams in for s in streams { store.touch(s.sessionID) } }
        }
    }

    var count: Int { slots.withLock { $0.open.count } }

    func register(_ r: inout RouteTable) {
        r.on("GET", "/v1/sessions/{id}/stream") { req throws(Problem) in try self.handshake(req) }
    }

    private func handshake(_ req: Request) throws(Problem) -> Response {
        let id = req.parameter("id")
        guard req.header("Upgrade")?.lowercased() == "websocket",
            req.header("Connection")?.lowercased().split(separator: ",").contains(where: { $0.trimming(" ") == "upgrade" }) == true
        else { throw Problem(400, "this is a WebSocket endpoint: send Upgrade: websocket and Connection: Upgrade") }
        guard req.header("Sec-WebSocket-Version") == "13" else {
            throw Problem(400, "Sec-WebSocket-Version must be 13", headers: [("Sec-WebSocket-Version", "13")])
        }
        guard let key = req.header("Sec-WebSocket-Key"), WebSocketHandshake.isValidKey(key) else {
            throw Problem(400, "Sec-WebSocket-Key must be 16 bytes in base64")
        }
        guard try layout.store.get(id) != nil else { throw Problem(404, "no session '\(id)'") }
        let timed = try LayoutRoutes.timingRequested(req)
        // The clock is read under the lock: read before it, a concurrent handshake's later
        // claim could go in first, and `now - claim` overflowed (the soak's debug server trapped).
        let now: UInt64? = slots.withLock { s in
            let now = monotonicNanos()
            s.claims.removeAll { now - $0 > Self.claimTTL }
            guard s.open.count + s.claims.count < configuration.maxStreams else { return nil }
            s.claims.append(now)
            return now
        }
        guard let now else {
            throw Problem(503, "the server keeps at most \(configuration.maxStreams) open streams", headers: [("Retry-After", "1")])
        }
        var response = Response(status: 101, headers: [("Upgrade", "websocket"), ("Sec-WebSocket-Accept", WebSocketHandshake.accept(key))])
        let negotiated = PerMessageDeflate.negotiate(req.header("Sec-WebSocket-Extensions"))
        if let negotiated { response.headers.append(("Sec-WebSocket-Extensions", negotiated.response)) }
        let maxMessage = configuration.maxStreamMessageBytes
        response.upgrade = { [self] connection in
            let stream = StreamConnection(
                connection: connection, sessionID: id, hub: self,
                deflate: negotiated.map { PerMessageDeflate(serverWindowBits: $0.serverWindowBits) }, maxMessage: maxMessage, timed: timed)
            slots.withLock { s in
                if let k = s.claims.firstIndex(of: now) { s.claims.remove(at: k) }
                s.open[ObjectIdentifier(stream)] = stream
            }
            metrics.streamsOpen.increment()
            reactors[nextReactor.add(1, ordering: .relaxed).oldValue % reactors.count].adopt(stream)
        }
        return response
    }

    func remove(_ stream: StreamConnection) {
        if slots.withLock({ $0.open.removeValue(forKey: ObjectIdentifier(stream)) }) != nil { metrics.streamsOpen.decrement() }
    }

    func closeAll() {
        let streams = slots.withLock { Array($0.open.values) }
        for s in streams { s.shutdown(.goingAway, "server shutting down") }
        let deadline = monotonicNanos() + 2_000_000_000
        while count > 0 && monotonicNanos() < deadline { usleep(1000) }
        for r in reactors { r.stop() }
    }
}
