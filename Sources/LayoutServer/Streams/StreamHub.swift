import Crypto
import Foundation
import Logging
import Synchronization

/// `GET /v1/sessions/{id}/stream`: the WebSocket handshake, the cap on open streams, and
/// closing them all on shutdown.
final class StreamHub: Sendable {
    let layout: LayoutRoutes
    let metrics: ServerMetrics
    let logger: Logger
    private let configuration: ServerConfiguration
    private let open = Mutex<[ObjectIdentifier: StreamConnection]>([:])
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

    var count: Int { open.withLock { $0.count } }

    func register(_ r: inout Router) {
        r.on("GET", "/v1/sessions/{id}/stream") { req throws(Problem) in try self.handshake(req) }
    }

    static let guid = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"

    static func accept(_ key: String) -> String {
        Data(Insecure.SHA1.hash(data: Data((key + guid).utf8))).base64EncodedString()
    }

    private func handshake(_ req: Request) throws(Problem) -> Response {
        let id = req.parameter("id")
        guard req.header("Upgrade")?.lowercased() == "websocket",
              req.header("Connection")?.lowercased().split(separator: ",").contains(where: { $0.trimmingCharacters(in: " ") == "upgrade" }) == true
        else { throw Problem(400, "this is a WebSocket endpoint: send Upgrade: websocket and Connection: Upgrade") }
        guard req.header("Sec-WebSocket-Version") == "13" else {
            throw Problem(400, "Sec-WebSocket-Version must be 13", headers: [("Sec-WebSocket-Version", "13")])
        }
        guard let key = req.header("Sec-WebSocket-Key"), Data(base64Encoded: key)?.count == 16 else {
            throw Problem(400, "Sec-WebSocket-Key must be 16 bytes in base64")
        }
        guard try layout.store.get(id) != nil else { throw Problem(404, "no session '\(id)'") }
        guard count < configuration.maxStreams else {
            throw Problem(503, "the server keeps at most \(configuration.maxStreams) open streams", headers: [("Retry-After", "1")])
        }
        var response = Response(status: 101, headers: [("Upgrade", "websocket"), ("Sec-WebSocket-Accept", Self.accept(key))])
        let negotiated = PerMessageDeflate.negotiate(req.header("Sec-WebSocket-Extensions"))
        if let negotiated { response.headers.append(("Sec-WebSocket-Extensions", negotiated.response)) }
        let maxMessage = configuration.maxStreamMessageBytes
        let timed = try LayoutRoutes.timingRequested(req)
        response.upgrade = { [self] connection in
            let stream = StreamConnection(connection: connection, sessionID: id, hub: self,
                                          deflate: negotiated.map { PerMessageDeflate(serverWindowBits: $0.serverWindowBits) }, maxMessage: maxMessage, timed: timed)
            open.withLock { $0[ObjectIdentifier(stream)] = stream }
            metrics.streamsOpen.increment()
            reactors[nextReactor.add(1, ordering: .relaxed).oldValue % reactors.count].adopt(stream)
        }
        return response
    }

    func remove(_ stream: StreamConnection) {
        if open.withLock({ $0.removeValue(forKey: ObjectIdentifier(stream)) }) != nil { metrics.streamsOpen.decrement() }
    }

    func closeAll() {
        let streams = open.withLock { Array($0.values) }
        for s in streams { s.shutdown(.goingAway, "server shutting down") }
        let deadline = monotonicNanos() + 2_000_000_000
        while count > 0 && monotonicNanos() < deadline { usleep(1000) }
        for r in reactors { r.stop() }
    }
}
