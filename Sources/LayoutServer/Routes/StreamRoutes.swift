import CheckedNumbers
import HTTPTransport
import Logging

/// `GET /v1/sessions/{id}/stream`: a WebSocket on a session, handed to a `SessionStream`.
struct StreamRoutes: Sendable {
    let sessions: SessionService
    let websockets: WebSocketServer
    let logger: Logger
    let tickets: StreamTickets
    let access: AccessControl

    func register(_ r: inout RouteTable) {
        r.on("GET", "/v1/sessions/{id}/stream", ticketed: true, caller: { [self] req, caller throws(Problem) in try open(req, caller) })
        r.on("POST", "/v1/sessions/{id}/stream-ticket", caller: { [self] req, caller throws(Problem) in try ticket(req, caller) })
    }

    /// A single-use ticket for this session's stream, for a page whose WebSocket cannot send a key.
    func ticket(_ req: Request, _ caller: Caller) throws(Problem) -> Response {
        let id = req.parameter("id")
        guard try sessions.exists(id, for: caller) else { throw Problem(404, "no session '\(id)'") }
        return .json(200, WireFormat.ticket(tickets.issue(for: caller, session: id), seconds: Int(StreamTickets.lifetimeNanos / 1_000_000_000)))
    }

    func open(_ req: Request, _ caller: Caller) throws(Problem) -> Response {
        let id = req.parameter("id")
        do throws(WebSocketServer.Refusal) { try WebSocketServer.checkHandshake(req) } catch { throw Problem(refusal: error) }
        guard try sessions.exists(id, for: caller) else { throw Problem(404, "no session '\(id)'") }
        let timed = try timingRequested(req)
        let stream = SessionStream(
            sessionID: id, caller: caller, sessions: sessions, logger: logger, timed: timed, admit: { [access] in access.admit($0) })
        // With keys, no one tenant holds every slot; an open server's callers are one holder.
        let perTenant = caller.tenant == nil ? Int.max : sessions.configuration.maxStreamsPerTenant
        do throws(WebSocketServer.Refusal) {
            return try websockets.accept(req, handler: stream, holder: caller.owner, perHolder: perTenant)
        } catch { throw Problem(refusal: error) }
    }
}

extension Problem {
    init(refusal: WebSocketServer.Refusal) {
        switch refusal {
        case .notAHandshake(let why, let headers): self.init(400, why, headers: headers)
        case .full(let n): self.init(503, "the server keeps at most \(n) open streams", headers: [("Retry-After", "1")])
        case .holderFull(let n):
            self.init(429, "a tenant keeps at most \(n) open streams (--max-streams-per-tenant)", headers: [("Retry-After", "1")])
        }
    }
}
