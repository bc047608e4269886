import CheckedNumbers
import Foundation
import Synchronization

/// One WebSocket after its handshake: frames parsed, control frames answered, fragments
/// joined, permessage-deflate undone, and whole messages handed to the handler. When its
/// reactor finds the socket readable it reads every frame there is (up to a batch), then
/// hands the batch over. What arrives meanwhile waits in the kernel's socket buffer: memory
/// per connection stays bounded, and TCP backpressure slows a client that outruns the handler.
public final class WebSocketConnection: @unchecked Sendable {
    private let connection: UpgradedConnection
    let handler: any WebSocketHandler
    private let deflate: PerMessageDeflate?
    private let maxMessage: Int
    private unowned let server: WebSocketServer
    private var input: [UInt8]
    private var fragments: [UInt8] = []
    private var fragmentsCompressed = false
    private var isBinary = false
    private var assembling = false
    private var failure: (WebSocketFrame.CloseCode, String)? = nil
    private let closing = Atomic<Bool>(false)
    /// Held while a frame is written, so frames from the reactor and a closing thread never interleave.
    private let writeLock = Mutex(())
    /// Answers at least this long are compressed when deflate was negotiated (smaller ones gain nothing).
    private static let compressFrom = 65

    /// Messages read per batch at most (the rest waits in the socket).
    public static let maxBatch = 256
    /// When (monotonic nanoseconds) the peer last sent anything, a ping included: a stream
    /// silent past the server's idle timeout is closed (reactor thread only).
    var lastHeard = monotonicNanos()

    init(connection: UpgradedConnection, handler: any WebSocketHandler, deflate: PerMessageDeflate?, maxMessage: Int, server: WebSocketServer) {
        self.server = server
        self.connection = connection
        self.handler = handler
        self.deflate = deflate
        self.maxMessage = maxMessage
        self.input = connection.initial
    }

    var socket: Int32 { connection.socket }

    /// Whether the connection is closing: a handler stops answering a batch once it is.
    public var isClosing: Bool { closing.load(ordering: .relaxed) }

    /// A text message to the peer, compressed when that was negotiated and worth it.
    public func send(text body: [UInt8]) {
        if let deflate, body.count >= Self.compressFrom {
            write(WebSocketFrame.encode(.text, deflate.compress(body), compressed: true))
        } else {
            write(WebSocketFrame.encode(.text, body))
        }
    }

    /// Ends the connection from the server's side: a close frame now, the socket once the
    /// reactor is done with the batch under way.
    public func close(_ code: WebSocketFrame.CloseCode, _ reason: String) {
        fail(code, reason)
        closing.store(true, ordering: .relaxed)
    }

    /// Closes from any thread (server shutdown): a close frame, then the socket shut both
    /// ways, which wakes the reactor to finish it.
    func shutdown(_ code: WebSocketFrame.CloseCode, _ reason: String) {
        guard !closing.exchange(true, ordering: .relaxed) else { return }
        write(WebSocketFrame.encode(.close, WebSocketFrame.closePayload(code, reason)))
        Glibc.shutdown(connection.socket, Int32(Glibc.SHUT_RDWR))
    }

    enum Progress { case closed, idle, more }

    /// Called by the reactor when the socket is readable (and once at the start, for bytes
    /// that came with the upgrade): reads what is there without blocking, then hands the
    /// messages over in order. `.more` when a full batch left bytes buffered here (epoll would
    /// not say so again): the reactor comes back without waiting. `scratch` is the reactor's
    /// receive buffer, shared by its connections (one thread).
    func onReadable(initial: Bool = false, scratch: inout [UInt8]) -> Progress {
        if isClosing { return .closed }
        var messages: [WebSocketMessage] = []
        let open = readAvailable(into: &messages, initial: initial, scratch: &scratch)
        if !messages.isEmpty { handler.received(messages, on: self) }
        if !open || isClosing { return .closed }
        return messages.count >= Self.maxBatch && !input.isEmpty ? .more : .idle
    }

    /// Closes the socket through libmicrohttpd; the reactor calls it once.
    func finish() {
        closing.store(true, ordering: .relaxed)
        connection.close()
        // The handler first: whoever waits for the count to drop sees what it did on close.
        handler.closed(self, failure: failure)
        server.remove(self)
    }

    // MARK: Reading

    /// Parses what is buffered and what the socket has now, up to a batch; the rest waits in
    /// the kernel (the reactor comes back while the socket stays readable). False when the
    /// connection is over.
    private func readAvailable(into messages: inout [WebSocketMessage], initial: Bool, scratch chunk: inout [UInt8]) -> Bool {
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
            lastHeard = monotonicNanos()
            input.append(contentsOf: chunk[0..<n])
        }
    }

    /// Control frames are answered at once; data frames are joined into messages.
    private func handle(_ f: WebSocketFrame.Frame, into messages: inout [WebSocketMessage]) -> Bool {
        switch f.opcode {
        case .ping:
            write(WebSocketFrame.encode(.pong, f.payload))
        case .pong:
            break
        case .close:
            let (_, failure) = WebSocketFrame.validateClose(f.payload)
            if let (code, why) = failure { fail(code, why); return false }
            let code = f.payload.count >= 2 ? f.payload : WebSocketFrame.closePayload(.normal, "")
            write(WebSocketFrame.encode(.close, Array(code.prefix(2))))
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

    private func complete(into messages: inout [WebSocketMessage]) -> Bool {
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
        if isBinary { messages.append(.binary(payload)); return true }
        guard String(validating: payload, as: UTF8.self) != nil else { fail(.invalidPayload, "text message is not UTF-8"); return false }
        messages.append(.text(payload))
        return true
    }

    /// A close frame with the code and reason, remembered for the handler's `closed`.
    private func fail(_ code: WebSocketFrame.CloseCode, _ reason: String) {
        if failure == nil { failure = (code, reason) }
        write(WebSocketFrame.encode(.close, WebSocketFrame.closePayload(code, reason)))
    }

    // MARK: Writing

    /// Writes all of `bytes`, waiting for the socket when it is full (5 s at most).
    private func write(_ bytes: [UInt8]) {
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
