import HTTPTransport
import Foundation
import XCTest
@testable import LayoutServer

/// A raw HTTP/1.1 client over a loopback socket: what goes over the wire is exactly what
/// the test wrote (no transparent gzip, no retries). Keeps the connection alive.
final class HTTPTestClient {
    struct Reply {
        var status: Int
        var headers: [String: String]
        var body: [UInt8]
        var text: String { String(decoding: body, as: UTF8.self) }
        var json: Any? { try? JSONSerialization.jsonObject(with: Data(body), options: [.fragmentsAllowed]) }
        var object: [String: Any] { json as? [String: Any] ?? [:] }
    }

    let port: UInt16
    private(set) var fd: Int32 = -1
    private var buffer: [UInt8] = []

    let host: String
    init(port: UInt16, host: String = "127.0.0.1") { self.port = port; self.host = host }
    deinit { disconnect() }

    func connect() {
        let r: Int32
        if host.contains(":") {
            fd = socket(AF_INET6, Int32(SOCK_STREAM.rawValue), 0)
            var addr = sockaddr_in6()
            addr.sin6_family = sa_family_t(AF_INET6)
            addr.sin6_port = port.bigEndian
            inet_pton(AF_INET6, host, &addr.sin6_addr)
            r = withUnsafePointer(to: &addr) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in6>.size)) }
            }
        } else {
            fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var addr = sockaddr_in()
            addr.sin_family = sa_family_t(AF_INET)
            addr.sin_port = port.bigEndian
            addr.sin_addr.s_addr = inet_addr(host)
            r = withUnsafePointer(to: &addr) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
        }
        precondition(r == 0, "connect to \(host) failed")
        var tv = timeval(tv_sec: 20, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        buffer = []
    }

    /// Closes the socket once (a second close could hit a descriptor the server, in this
    /// same process, has since been given).
    func disconnect() {
        if fd >= 0 { close(fd); fd = -1 }
    }

    /// Connects and sends a POST's headers and the first `sent` bytes of its body: a request
    /// under way. `finish` sends the rest.
    func begin(_ path: String, json body: String, sent: Int) {
        connect()
        let bytes = Array(body.utf8)
        send(
            Array("POST \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: \(bytes.count)\r\n\r\n".utf8)
                + bytes.prefix(sent))
        unsent = Array(bytes.dropFirst(sent))
    }

    func finish() -> Reply {
        send(unsent)
        unsent = []
        return readReply()
    }
    private var unsent: [UInt8] = []

    func send(_ bytes: [UInt8]) {
        var off = 0
        while off < bytes.count {
            let n = bytes[off...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            precondition(n > 0, "send failed")
            off += n
        }
    }

    func request(_ method: String, _ path: String, headers: [String: String] = [:], body: [UInt8]? = nil, json: String? = nil) -> Reply {
        if fd < 0 { connect() }
        var h = headers
        var payload = body
        if let json { payload = Array(json.utf8); if h["Content-Type"] == nil { h["Content-Type"] = "application/json" } }
        var head = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        for (k, v) in h { head += "\(k): \(v)\r\n" }
        if let payload { head += "Content-Length: \(payload.count)\r\n" }
        head += "\r\n"
        send(Array(head.utf8) + (payload ?? []))
        return readReply(head: method == "HEAD")
    }

    func readByte() -> UInt8? {
        if buffer.isEmpty {
            var chunk = [UInt8](repeating: 0, count: 65536)
            let n = recv(fd, &chunk, chunk.count, 0)
            if n <= 0 { return nil }
            buffer = Array(chunk[0..<n])
        }
        return buffer.removeFirst()
    }

    /// Waits for the first byte of what the server sends next, leaving it to be read.
    func waitForData() {
        if let b = readByte() { buffer.insert(b, at: 0) }
    }

    func readLine() -> String? {
        var line: [UInt8] = []
        while let b = readByte() {
            if b == 10 { return String(decoding: line.last == 13 ? line.dropLast() : line[...], as: UTF8.self) }
            line.append(b)
        }
        return line.isEmpty ? nil : String(decoding: line, as: UTF8.self)
    }

    func readReply(head: Bool = false) -> Reply {
        guard let status = readLine() else { return Reply(status: 0, headers: [:], body: []) }
        let code = Int(status.split(separator: " ")[1]) ?? 0
        var headers: [String: String] = [:]
        while let l = readLine(), !l.isEmpty {
            let parts = l.split(separator: ":", maxSplits: 1)
            headers[parts[0].lowercased()] = parts.count > 1 ? parts[1].trimmingCharacters(in: .whitespaces) : ""
        }
        var body: [UInt8] = []
        if !head, let n = headers["content-length"].flatMap({ Int($0) }) {
            body.reserveCapacity(n)
            while body.count < n, let b = readByte() { body.append(b) }
        }
        if headers["connection"]?.lowercased() == "close" { disconnect() }
        return Reply(status: code, headers: headers, body: body)
    }
}

/// A real layoutd on a free loopback port.
/// Polls `condition` until it holds (true) or `seconds` pass (false): a test waits for the
/// event, never for a fixed time.
func waitFor(seconds: Double = 5, _ condition: () -> Bool) -> Bool {
    let end = Date().addingTimeInterval(seconds)
    while Date() < end { if condition() { return true }; usleep(10_000) }
    return condition()
}

final class TestServer {
    let server: LayoutdServer
    init(_ configure: (inout ServerConfiguration) -> Void = { _ in }) throws {
        var c = ServerConfiguration()
        c.http.port = 0
        c.http.threads = 2
        configure(&c)
        server = try! LayoutdServer(configuration: c)
        try server.start()
    }
    var port: UInt16 { server.port }
    func client() -> HTTPTestClient { HTTPTestClient(port: port) }
    deinit { server.drain() }
}

let cardDocument = """
    {"views":[{"id":"card","frame":{"x":0,"y":0,"width":375,"height":120}},
              {"id":"avatar","parent":"card"},
              {"id":"title","parent":"card","intrinsicSize":{"width":120,"height":20}}],
     "constraints":[{"id":"avatarLeading","expr":"avatar.leading == card.leading + 8"},
                    {"id":"avatarWidth","expr":"avatar.width == 40"},{"expr":"avatar.height == avatar.width"},{"expr":"avatar.top == card.top + 8"},
                    {"id":"row","visual":"H:[avatar]-12-[title]-(>=8)-|","options":["alignAllCenterY"]}]}
    """
