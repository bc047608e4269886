import HTTPTransport
import JSON
import LayoutServer

/// Requests through the server's whole handler in-process (routing, headers, query,
/// gzip bodies, every route): never a 5xx but the documented 503s, problems are
/// problem+json with a pointer, and a refused change leaves its session's answer to
/// `GET` byte for byte as it was. The input is a request in a small text form:
/// `METHOD PATH`, header lines `Name: value`, a blank line, the body.
final class HTTPCheck {
    nonisolated(unsafe) static let shared = HTTPCheck()
    static let session = "0123456789abcdef0123456789abcdef"
    let server: LayoutdServer

    init() {
        var c = ServerConfiguration()
        c.store = .memory
        c.trustSessionIDHeader = true
        c.maxSessions = 64
        c.maxViewsPerSession = 200
        c.maxConstraintsPerSession = 800
        server = try! LayoutdServer(configuration: c)
        reset()
    }

    /// The session every input may name, made again as the seed corpus knows it.
    func reset() {
        var req = Request(method: "DELETE", path: "/v1/sessions/\(Self.session)", body: [], values: CopiedRequestValues(headers: [:], arguments: [:]))
        _ = server.handle(&req)
        req = Request(
            method: "POST", path: "/v1/sessions", body: Array(Checks.base.utf8),
            values: CopiedRequestValues(headers: ["content-type": "application/json", "x-layoutd-session-id": Self.session], arguments: [:]))
        let r = server.handle(&req)
        precondition(r.status == 201, "the fuzz session: \(r.status)")
    }

    func get() -> [UInt8] {
        var req = Request(method: "GET", path: "/v1/sessions/\(Self.session)", body: [], values: CopiedRequestValues(headers: [:], arguments: [:]))
        return server.handle(&req).body
    }

    func run(_ bytes: [UInt8]) {
        guard let blank = firstBlankLine(bytes) else { return }
        let head = String(decoding: bytes[..<blank.start], as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        guard let line = head.first else { return }
        let parts = line.split(separator: " ", maxSplits: 1)
        guard parts.count == 2 else { return }
        let method = String(parts[0])
        var path = String(parts[1])
        var arguments: [String: String] = [:]
        if let q = path.firstIndex(of: "?") {
            for pair in path[path.index(after: q)...].split(separator: "&") {
                let kv = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                arguments[String(kv[0])] = kv.count > 1 ? String(kv[1]) : ""
            }
            path = String(path[..<q])
        }
        var headers: [String: String] = [:]
        for h in head.dropFirst() {
            guard let colon = h.firstIndex(of: ":") else { continue }
            headers[h[..<colon].lowercased()] = String(h[h.index(after: colon)...].drop { $0 == " " })
        }
        let before = get()
        var req = Request(
            method: method, path: path, body: Array(bytes[blank.end...]), values: CopiedRequestValues(headers: headers, arguments: arguments))
        let r = server.handle(&req)
        if r.status >= 500 && r.status != 503 { violated("status \(r.status) for \(method) \(path): \(String(decoding: r.body, as: UTF8.self))") }
        if r.status >= 400 {
            guard r.contentType == "application/problem+json", let p = try? JSONParser.parse(r.body), p["status"]?.number == Double(r.status) else {
                violated("a \(r.status) that is not problem+json: \(String(decoding: r.body, as: UTF8.self))")
            }
            if path.hasPrefix("/v1/sessions/\(Self.session)"), method != "DELETE", get() != before {
                violated("a refused \(method) \(path) (\(r.status)) altered the session")
            }
        }
        if method == "DELETE" || get().isEmpty || r.status == 201 { reset() }
    }

    private func firstBlankLine(_ b: [UInt8]) -> (start: Int, end: Int)? {
        var i = 0
        while i + 1 < b.count {
            if b[i] == 10 && b[i + 1] == 10 { return (i, i + 2) }
            i += 1
        }
        return b.last == 10 ? (b.count - 1, b.count) : nil
    }
}
