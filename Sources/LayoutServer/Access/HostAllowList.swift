import HTTPTransport

/// `--allowed-hosts`, on a server without keys: a page on another site can make a browser
/// send requests to this one by pointing its own DNS name at 127.0.0.1 (DNS rebinding), and
/// read the answers, since to the browser they are same-origin. Such requests carry that name
/// in `Host`. Refused: any name not listed. Always let by: an IP literal (no name to
/// rebind), `localhost`, no `Host` at all (HTTP/1.0), and a `--trusted-proxies` connection
/// (the proxy is the server's public face, reached by its public name). `*` turns the check off.
struct HostAllowList: Sendable {
    let names: Set<String>
    let any: Bool

    init(_ names: [String]) {
        any = names.contains("*")
        self.names = Set(names.map { $0.lowercased() } + ["localhost"])
    }

    func admits(_ host: String?) -> Bool {
        guard !any, let host, !host.isEmpty else { return true }
        let name = Self.name(host.lowercased())
        return names.contains(name) || Self.isAddressLiteral(name) || name.hasSuffix(".localhost")
    }

    /// The host without its port (`[::1]:8080` → `[::1]`, `a.example:80` → `a.example`).
    static func name(_ host: String) -> String {
        if host.hasPrefix("["), let close = host.firstIndex(of: "]") { return String(host[...close]) }
        if let colon = host.lastIndex(of: ":") { return String(host[..<colon]) }
        return host
    }

    static func isAddressLiteral(_ name: String) -> Bool {
        if name.hasPrefix("[") && name.hasSuffix("]") { return true }
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts.allSatisfy { p in !p.isEmpty && p.count <= 3 && p.allSatisfy(\.isASCII) && p.allSatisfy(\.isNumber) }
    }

    func refusal(_ host: String) -> Problem {
        Problem(403, "Host \(host.prefix(100)) is not one this server answers without keys (--allowed-hosts; IP addresses and localhost are)")
    }
}
