import HTTPTransport
import Foundation
import JSON
import LayoutModel
import Synchronization
import Prometheus
import Logging

/// One WebSocket stream on a session. When its reactor finds the socket readable it
/// reads every frame there is (up to a batch), then answers them in order, merging
/// consecutive set-constant messages (latest value per constraint wins) into one answer
/// with `coalesced`. What arrives meanwhile waits in the kernel's socket buffer: memory
/// per stream stays bounded, and TCP backpressure slows a client that outruns the engine.
final class StreamConnection: @unchecked Sendable {
    private let connection: UpgradedConnection
    let sessionID: String
    private let hub: StreamHub
    private let deflate: PerMessageDeflate?
    private let maxMessage: Int
    /// Each reply carries the engine's timing (`?timing=true` on the handshake).
    private let timed: Bool
    private var input: [UInt8]
    private var fragments: [UInt8] = []
    private var fragmentsCompressed = false
    private var isBinary = false
    private var assembling = false
    private let closing = Atomic<Bool>(false)
    /// Held while a frame is written, so frames from the reactor and a closing thread never interleave.
    private let writeLock = Mutex(())

    /// Messages read per batch at most (the rest waits in the socket).
    static let maxBatch = 256

    init(connection: UpgradedConnection, sessionID: String, hub: StreamHub, deflate: PerMessageDeflate?, maxMessage: Int, timed: Bool) {
        self.connection = connection
        self.timed = timed
        self.sessionID = sessionID
        self.hub = hub
        self.deflate = deflate
        self.maxMessage = maxMessage
        self.input = connection.initial
    }

    enum Incoming { case text([UInt8]), binary }

    var socket: Int32 { connection.socket }

    enum Progress { case closed, idle, more }

    /// Called by the stream's reactor when the socket is readable (and once at the start,
    /// for bytes that came with the upgrade): reads what is there without blocking, then
    /// answers the messages in order. `.more` when a full batch left bytes buffered here
    /// (epoll would not say so again): the reactor comes back without waiting.
    /// `scratch` is the reactor's receive buffer, shared by its streams (one thread).
    func onReadable(initial: Bool = false, scratch: inout [UInt8]) -> Progress {
        if closing.load(ordering: .relaxed) { return .closed }
        var messages: [Incoming] = []
        let open = readAvailable(into: &messages, initial: initial, scratch: &scratch)
        if !messages.isEmpty { answer(messages) }
        if !open || closing.load(ordering: .relaxed) { return .closed }
        return messages.count >= Self.maxBatch && !input.isEmpty ? .more : .idle
    }

    /// Asks the stream to close (server shutdown): a close frame, then the socket.
    func shutdown(_ code: WebSocketFrame.CloseCode, _ reason: String) {
        guard !closing.exchange(true, ordering: .relaxed) else { return }
        send(WebSocketFrame.encode(.close, WebSocketFrame.closePayload(code, reason)))
        Glibc.shutdown(connection.socket, Int32(Glibc.SHUT_RDWR))
    }

    /// Closes the socket through libmicrohttpd; the reactor calls it once.
    func finish() {
        closing.store(true, ordering: .relaxed)
        connection.close()
        hub.remove(self)
    }

    // MARK: Reading

    /// Parses what is buffered and what the socket has now, up to a batch; the rest waits
    /// in the kernel (the reactor comes back while the socket stays readable). False when
    /// the stream is over.
    private func readAvailable(into messages: inout [Incoming], initial: Bool, scratch chunk: inout [UInt8]) -> Bool {
        var reads = 0
        while true {
            var offset = 0
            while messages.count < Self.maxBatch {
                switch WebSocketFrame.parse(input[offset...], maxPayload: maxMessage, allowCompressed: deflate != nil) {
                case .needMore:
                    break
                case .fail(let code, let why):
                    fail(code, why)
                    return false
                case .frame(let f, let n):
                    offset += n
                    guard handle(f, into: &messages) else { return false }
                    continue
                }
                break
            }
            if offset > 0 { input.removeFirst(offset) }
            if messages.count >= Self.maxBatch || (initial && reads == 0 && input.isEmpty && !messages.isEmpty) { return true }
            if reads >= 16 { return true }
            let n = recv(connection.socket, &chunk, chunk.count, Int32(MSG_DONTWAIT))
            reads += 1
            if n == 0 { return false }  // the peer went away
            if n < 0 { return errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR }
            input.append(contentsOf: chunk[0..<n])
        }
    }

    /// Control frames are answered at once; data frames are assembled into messages.
    private func handle(_ f: WebSocketFrame.Frame, into messages: inout [Incoming]) -> Bool {
        switch f.opcode {
        case .ping:
            send(WebSocketFrame.encode(.pong, f.payload))
        case .pong:
            break
        case .close:
            let (_, failure) = WebSocketFrame.validateClose(f.payload)
            if let (code, why) = failure { fail(code, why); return false }
            let code = f.payload.count >= 2 ? f.payload : WebSocketFrame.closePayload(.normal, "")
            send(WebSocketFrame.encode(.close, Array(code.prefix(2))))
            return false
        case .text, .binary:
            if assembling { fail(.protocolError, "a new message began before the last one ended"); return false }
            assembling = true
            fragments = f.payload
            fragmentsCompressed = f.compressed
            isBinary = f.opcode == .binary
            if f.fin { return complete(into: &messages) }
        case .continuation:
            guard assembling else { fail(.protocolError, "a continuation frame with no message"); return false }
            if f.compressed { fail(.protocolError, "RSV1 on a continuation frame"); return false }
            guard fragments.count + f.payload.count <= maxMessage else { fail(.tooBig, "message over \(maxMessage) bytes"); return false }
            fragments.append(contentsOf: f.payload)
            if f.fin { return complete(into: &messages) }
        }
        return true
    }

    private func complete(into messages: inout [Incoming]) -> Bool {
        assembling = false
        var payload = fragments
        fragments = []
        if fragmentsCompressed, let deflate {
            do { payload = try deflate.decompress(payload, limit: maxMessage) } catch {
                if error == .tooLarge {
                    fail(.tooBig, "message inflates past \(maxMessage) bytes")
                } else {
                    fail(.invalidPayload, "message is not valid deflate")
                }
                return false
            }
        }
        if isBinary { messages.append(.binary); return true }
        guard String(validating: payload, as: UTF8.self) != nil else { fail(.invalidPayload, "text message is not UTF-8"); return false }
        messages.append(.text(payload))
        return true
    }

    private func fail(_ code: WebSocketFrame.CloseCode, _ reason: String) {
        hub.logger.debug("stream closed", metadata: ["session": "\(sessionID)", "code": "\(code.rawValue)", "reason": "\(reason)"])
        send(WebSocketFrame.encode(.close, WebSocketFrame.closePayload(code, reason)))
    }

    // MARK: Answering

    private enum Parsed { case constants(JSON, Int), changes(JSON), problem(Problem) }

    private func answer(_ messages: [Incoming]) {
        hub.metrics.streamMessagesIn.increment(by: messages.count)
        var parsed: [Parsed] = []
        for m in messages {
            switch m {
            case .binary:
                parsed.append(.problem(Problem(415, "send changes and constants as text messages")))
            case .text(let bytes):
                guard let json = try? JSONParser.parse(bytes) else { parsed.append(.problem(Problem(400, "the message is not JSON"))); continue }
                guard json.members != nil else {
                    parsed.append(.problem(Problem(422, "a message is a changes or a constants object", pointer: ""))); continue
                }
                if json["ops"] != nil { parsed.append(.changes(json)); continue }
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
        }
        for p in parsed {
            switch p {
            case .problem(let problem):
                reply(problem.json.serialized)
            case .changes(let json):
                apply(.ops(json), coalesced: nil).map(reply)
            case .constants(let json, let n):
                if n > 1 { hub.metrics.streamCoalesced.increment(by: n - 1) }
                apply(.constants(json), coalesced: n > 1 ? n : nil).map(reply)
            }
        }
    }

    /// One change, answered once the store's policy allows: a stream's answers keep their
    /// order, so its reactor waits for a durable write here. nil: the stream was closed.
    private func apply(_ change: LayoutRoutes.Change, coalesced: Int?) -> [UInt8]? {
        var ticket: SessionPersistence.Ticket? = nil
        do throws(Problem) {
            guard let key = SessionKey(sessionID),
                let answer = try hub.layout.store.withSession(
                    key,
                    { box, s throws(Problem) in
                        let (result, t, timing) = try hub.layout.apply(s, change, in: box, timed: timed)
                        ticket = t
                        return WireFormat.change(result, coalesced: coalesced, timing: timing)
                    })
            else {
                return Problem(404, "no session '\(sessionID)' (it was deleted or expired)").json.serialized
            }
            try hub.layout.persistence?.wait(ticket)
            return answer
        } catch {
            if error.movedElsewhere {
                reply(error.json.serialized)
                fail(.tryAgainLater, "the session is served by another replica now: reconnect")
                return nil
            }
            return error.json.serialized
        }
    }

    private func reply(_ body: [UInt8]) {
        hub.metrics.streamMessagesOut.increment()
        if let deflate, body.count > 64 {
            send(WebSocketFrame.encode(.text, deflate.compress(body), compressed: true))
        } else {
            send(WebSocketFrame.encode(.text, body))
        }
    }

    /// Writes all of `bytes`, waiting for the socket when it is full.
    private func send(_ bytes: [UInt8]) {
        writeLock.withLock { _ in
            var off = 0
            while off < bytes.count {
                let n = bytes[off...].withUnsafeBytes { Glibc.send(connection.socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                if n > 0 { off += n; continue }
                if n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) {
                    var pfd = pollfd(fd: connection.socket, events: Int16(POLLOUT), revents: 0)
                    if poll(&pfd, 1, 5000) <= 0 { return }
                    continue
                }
                return
            }
        }
    }
}
