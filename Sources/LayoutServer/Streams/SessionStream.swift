import CheckedNumbers
import HTTPTransport
import JSON
import LayoutModel
import Prometheus
import Logging

/// One WebSocket on a session: each whole message is a changes, a constants or a document
/// object, applied through the session service and answered in order. Consecutive
/// set-constant messages of a batch merge into one change (the latest value per constraint wins), answered once with
/// `coalesced`: a drag that outruns the engine costs one change per batch, not per message.
final class SessionStream: WebSocketHandler {
    let sessionID: String
    /// Who opened the stream: its messages act for that tenant (and a revocation of its key closes it).
    let caller: Caller
    /// Takes one message from the tenant's request rate: nil when admitted, else the seconds to wait.
    private let admit: @Sendable (Caller) -> Double?
    /// Messages refused in a row for the rate: past `refusalsBeforeClosing` the stream is closed.
    /// (Its reactor's thread only: every handler call comes there, one at a time.)
    nonisolated(unsafe) private var refusedInARow = 0
    static let refusalsBeforeClosing = 256
    private let sessions: SessionService
    private let logger: Logger
    /// Each answer carries the engine's timing (`?timing=true` on the handshake).
    private let timed: Bool

    init(
        sessionID: String, caller: Caller, sessions: SessionService, logger: Logger, timed: Bool,
        admit: @escaping @Sendable (Caller) -> Double? = { _ in nil }
    ) {
        self.sessionID = sessionID
        self.caller = caller
        self.admit = admit
        self.sessions = sessions
        self.logger = logger
        self.timed = timed
    }

    func opened(_ connection: WebSocketConnection) { sessions.metrics.streamsOpen.increment() }

    /// An open but quiet stream keeps its session from idle eviction.
    func stillOpen(_ connection: WebSocketConnection) { sessions.keepAlive(sessionID) }

    func closed(_ connection: WebSocketConnection, failure: (WebSocketFrame.CloseCode, String)?) {
        sessions.metrics.streamsOpen.decrement()
        if let (code, reason) = failure {
            logger.debug("stream closed", metadata: ["session": "\(sessionID)", "code": "\(code.rawValue)", "reason": "\(reason)"])
        }
    }

    private enum Parsed { case constants(JSON, Int), changes(SessionService.Change), problem(Problem) }

    func received(_ messages: [WebSocketMessage], on connection: WebSocketConnection) {
        sessions.metrics.streamMessagesIn.increment(by: messages.count)
        var parsed: [Parsed] = []
        for m in messages {
            // Each message is a request of the tenant's rate, as an HTTP change is: refused
            // ones are answered 429 and not applied; a client that goes on regardless is cut off.
            if let wait = admit(caller) {
                refusedInARow += 1
                if refusedInARow > Self.refusalsBeforeClosing {
                    connection.close(.policy, "over the tenant's rate of requests")
                    return
                }
                let seconds = max(1, Int(saturating: wait.rounded(.up)))
                parsed.append(.problem(Problem(429, "tenant \(caller.owner) is over its rate of requests: retry in \(seconds) s")))
                continue
            }
            refusedInARow = 0
            guard case .text(let bytes) = m else { parsed.append(.problem(Problem(415, "send changes and constants as text messages"))); continue }
            guard let json = try? JSONParser.parse(bytes) else { parsed.append(.problem(Problem(400, "the message is not JSON"))); continue }
            guard json.members != nil else {
                parsed.append(.problem(Problem(422, "a message is a changes or a constants object", pointer: ""))); continue
            }
            if json["ops"] != nil { parsed.append(.changes(.ops(json))); continue }
            if let document = json["document"] { parsed.append(Self.document(document, json)); continue }
            // Merge with the constants message just before it.
            if case .constants(let prev, let n)? = parsed.last, let a = prev.members, let b = json.members {
                var merged = a
                for (k, v) in b {
                    if let i = merged.firstIndex(where: { $0.key == k }) { merged[i].value = v } else { merged.append((k, v)) }
                }
                parsed[parsed.count - 1] = .constants(.object(merged), n + 1)
            } else {
                parsed.append(.constants(json, 1))
            }
        }
        for p in parsed where !connection.isClosing {
            switch p {
            case .problem(let problem): reply(problem.json.serialized, on: connection)
            case .changes(let change): apply(change, coalesced: nil, on: connection)
            case .constants(let json, let n):
                if n > 1 { sessions.metrics.streamCoalesced.increment(by: n - 1) }
                apply(.constants(json), coalesced: n > 1 ? n : nil, on: connection)
            }
        }
    }

    /// `{"document": {...}, "baseRevision"?: n}`: the body a `PUT …/document` takes.
    private static func document(_ document: JSON, _ message: JSON) -> Parsed {
        for (k, _) in message.members! where k != "document" && k != "baseRevision" {
            return .problem(Problem(422, "unknown field '\(k)' beside a document", pointer: "/\(jsonPointerToken(k))"))
        }
        guard var members = document.members else { return .problem(Problem(422, "a document is a JSON object", pointer: "/document")) }
        // Beside it only, so that `/baseRevision` names one place.
        if document["baseRevision"] != nil {
            return .problem(Problem(422, "baseRevision goes beside the document in a stream's message", pointer: "/document/baseRevision"))
        }
        if let b = message["baseRevision"] { members.append(("baseRevision", b)) }
        return .changes(.document(JSON.object(members).serialized))
    }

    /// One change, answered once the store's policy allows: a stream's answers keep their
    /// order, so its reactor waits for a durable write here.
    private func apply(_ change: SessionService.Change, coalesced: Int?, on connection: WebSocketConnection) {
        do throws(Problem) {
            guard let key = SessionKey(sessionID),
                let (answer, ticket) = try sessions.apply(
                    change, to: key, for: caller, timed: timed, answer: { WireFormat.change($0, coalesced: coalesced, timing: $1) })
            else {
                return reply(Problem(404, "no session '\(sessionID)' (it was deleted or expired)").json.serialized, on: connection)
            }
            try sessions.wait(ticket)
            reply(answer, on: connection)
        } catch {
            var error = error
            // A document's errors point into the message, where the document is a member.
            if case .document = change, let p = error.pointer, p != "/baseRevision" { error.pointer = "/document" + p }
            reply(error.json.serialized, on: connection)
            if error.movedElsewhere { connection.close(.tryAgainLater, "the session is served by another replica now: reconnect") }
        }
    }

    private func reply(_ body: [UInt8], on connection: WebSocketConnection) {
        sessions.metrics.streamMessagesOut.increment()
        connection.send(text: body)
    }
}
