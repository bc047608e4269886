import CheckedNumbers
import Foundation
import Synchronization

/// The WebSocket side of a server: opening handshakes answered 101, a cap on open
/// connections, reactors that serve them, and closing them all at shutdown.
public final class WebSocketServer: Sendable {
    /// Open connections, and the handshakes answered 101 whose upgrade has not run yet (when
    /// each was answered): both count against the cap, so concurrent handshakes cannot exceed
    /// it. A handshake whose client went away before the upgrade stops counting after `claimTTL`.
    private struct Slots {
        var open: [ObjectIdentifier: WebSocketConnection] = [:]
        var claims: [(at: UInt64, holder: String)] = []
        /// Open connections and claims by holder (a tenant): no one holds every slot.
        var held: [String: Int] = [:]
        var holderOf: [ObjectIdentifier: String] = [:]
    }
    private let slots = Mutex(Slots())
    private static let claimTTL: UInt64 = 10_000_000_000
    private let reactors: [WebSocketReactor]
    private let nextReactor = Atomic<Int>(0)
    public let maxConnections: Int
    public let maxMessageBytes: Int

    /// `reactors` loop threads (the HTTP server's thread count is a fair choice); a connection
    /// whose peer sends nothing, not even a ping, for `idleTimeoutSeconds` is closed (0: never).
    public init(reactors: Int, maxConnections: Int, maxMessageBytes: Int, idleTimeoutSeconds: Double = 0) {
        self.maxConnections = maxConnections
        self.maxMessageBytes = maxMessageBytes
        let idle = UInt64(saturating: idleTimeoutSeconds * 1e9)
        self.reactors = (0..<max(1, reactors)).map { WebSocketReactor(name: "layoutd-streams-\($0)", idleTimeoutNanos: idle) }
    }

    /// Closes, from any thread, the open connections whose handler `which` picks (a revoked
    /// key's streams): a close frame with `code` and `reason`, then the socket. How many.
    @discardableResult
    public func close(where which: (any WebSocketHandler) -> Bool, _ code: WebSocketFrame.CloseCode, _ reason: String) -> Int {
        let picked = slots.withLock { $0.open.values.filter { which($0.handler) } }
        for c in picked { c.shutdown(code, reason) }
        return picked.count
    }

    /// Connections open now.
    public var count: Int { slots.withLock { $0.open.count } }

    /// Why a handshake is refused: the request is not one (400), the server is full (503), or
    /// its holder has its share of the slots (429).
    public enum Refusal: Error {
        case notAHandshake(String, headers: [(String, String)])
        case full(Int)
        case holderFull(Int)
    }

    /// Checks that `req` is an RFC 6455 opening handshake (before the application looks at
    /// what it names, so a request that is not one is told so first).
    public static func checkHandshake(_ req: Request) throws(Refusal) {
        guard req.header("Upgrade")?.lowercased() == "websocket",
            req.header("Connection")?.lowercased().split(separator: ",").contains(where: { $0.trimming(" ") == "upgrade" }) == true
        else { throw .notAHandshake("this is a WebSocket endpoint: send Upgrade: websocket and Connection: Upgrade", headers: []) }
        guard req.header("Sec-WebSocket-Version") == "13" else {
            throw .notAHandshake("Sec-WebSocket-Version must be 13", headers: [("Sec-WebSocket-Version", "13")])
        }
        guard let key = req.header("Sec-WebSocket-Key"), WebSocketHandshake.isValidKey(key) else {
            throw .notAHandshake("Sec-WebSocket-Key must be 16 bytes in base64", headers: [])
        }
    }

    /// The 101 for a handshake `checkHandshake` passed, with permessage-deflate when the client
    /// offers it; the socket goes to `handler` once libmicrohttpd hands it over. Refused only
    /// when the server is full.
    /// `holder` (a tenant's name) holds at most `perHolder` connections.
    public func accept(_ req: Request, handler: any WebSocketHandler, holder: String = "", perHolder: Int = .max) throws(Refusal) -> Response {
        // The clock is read under the lock: read before it, a concurrent handshake's later
        // claim could go in first, and `now - claim` overflowed (the soak's debug server trapped).
        let claimed: Result<UInt64, Refusal> = slots.withLock { s in
            let now = monotonicNanos()
            for c in s.claims where now - c.at > Self.claimTTL { s.held[c.holder, default: 1] -= 1 }
            s.claims.removeAll { now - $0.at > Self.claimTTL }
            guard s.open.count + s.claims.count < maxConnections else { return .failure(.full(maxConnections)) }
            // A claim counts for its holder from here; one whose upgrade never runs stops
            // counting with the claim (below, and `remove`).
            guard s.held[holder, default: 0] < perHolder else { return .failure(.holderFull(perHolder)) }
            s.claims.append((now, holder))
            s.held[holder, default: 0] += 1
            return .success(now)
        }
        let now: UInt64
        switch claimed {
        case .success(let t): now = t
        case .failure(let refusal): throw refusal
        }
        let key = req.header("Sec-WebSocket-Key") ?? ""
        var response = Response(status: 101, headers: [("Upgrade", "websocket"), ("Sec-WebSocket-Accept", WebSocketHandshake.accept(key))])
        let negotiated = PerMessageDeflate.negotiate(req.header("Sec-WebSocket-Extensions"))
        if let negotiated { response.headers.append(("Sec-WebSocket-Extensions", negotiated.response)) }
        response.upgrade = { [self] upgraded in
            let connection = WebSocketConnection(
                connection: upgraded, handler: handler, deflate: negotiated.map { PerMessageDeflate(serverWindowBits: $0.serverWindowBits) },
                maxMessage: maxMessageBytes, server: self)
            slots.withLock { s in
                // The claim becomes the connection (its holder's count stays); one that expired
                // meanwhile gave its count back, so the connection takes one again.
                if let k = s.claims.firstIndex(where: { $0.at == now && $0.holder == holder }) {
                    s.claims.remove(at: k)
                } else {
                    s.held[holder, default: 0] += 1
                }
                s.open[ObjectIdentifier(connection)] = connection
                s.holderOf[ObjectIdentifier(connection)] = holder
            }
            reactors[nextReactor.add(1, ordering: .relaxed).oldValue % reactors.count].adopt(connection)
        }
        return response
    }

    func remove(_ connection: WebSocketConnection) {
        slots.withLock { s in
            let id = ObjectIdentifier(connection)
            s.open.removeValue(forKey: id)
            if let holder = s.holderOf.removeValue(forKey: id) { s.held[holder, default: 1] -= 1 }
        }
    }

    /// Shutdown: every connection sent `goingAway` and closed (2 s at most), the reactors stopped.
    public func closeAll(_ reason: String) {
        let open = slots.withLock { Array($0.open.values) }
        for c in open { c.shutdown(.goingAway, reason) }
        let deadline = monotonicNanos() + 2_000_000_000
        while count > 0 && monotonicNanos() < deadline { usleep(1000) }
        for r in reactors { r.stop() }
    }
}
