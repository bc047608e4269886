import Foundation
import HTTPTransport
import Synchronization

/// Who is asking: the tenant an API key names, or anyone on a server without keys.
struct Caller: Sendable {
    let tenant: Tenants.Tenant?
    /// The SHA-256 of the key it came with: what a revocation looks for in its open streams.
    var keyDigest: [UInt8]? = nil
    /// What a session made by this caller is owned by ("" without keys).
    var owner: String { tenant?.name ?? "" }
    static let anyone = Caller(tenant: nil)
}

/// `--auth-file`: the tenants and their keys, re-read on SIGHUP (a bad file keeps the one in
/// force), and each tenant's request rate. Without a file the server is open.
final class AccessControl: Sendable {
    let path: String?
    private let current: Mutex<Tenants?>
    private let buckets = Mutex<[String: TokenBucket]>([:])

    /// Reads the file; a server does not start on a bad one.
    init(path: String?) throws(Tenants.Invalid) {
        self.path = path
        current = Mutex(try path.map { p throws(Tenants.Invalid) in try Self.read(p) })
    }

    var isOpen: Bool { path == nil }

    /// Reads the file again: nil when it is now in force, else why it was not (the old one stays).
    func reload() -> String? {
        guard let path else { return nil }
        do throws(Tenants.Invalid) {
            let tenants = try Self.read(path)
            current.withLock { $0 = tenants }
            return nil
        } catch { return "\(path): \(error)" }
    }

    var tenantNames: [String] { current.withLock { $0?.tenants.map(\.name) ?? [] } }

    enum Refusal: Error { case noKey, unknownKey }

    /// The caller an `Authorization` header names: anyone on an open server; else a tenant's
    /// key as `Bearer KEY`, or a refusal.
    func caller(authorization: String?) -> Result<Caller, Refusal> {
        guard let tenants = current.withLock({ $0 }) else { return .success(.anyone) }
        guard let key = bearerKey(authorization) else { return .failure(.noKey) }
        guard let tenant = tenants.tenant(forKey: key) else { return .failure(.unknownKey) }
        return .success(Caller(tenant: tenant, keyDigest: Digest.sha256(key)))
    }

    /// Whether the caller's key is still one of its tenant's (after a reload): a stream or a
    /// ticket of a revoked key is closed or dropped.
    func isCurrent(_ caller: Caller) -> Bool {
        guard let tenants = current.withLock({ $0 }) else { return true }
        guard let name = caller.tenant?.name, let digest = caller.keyDigest else { return false }
        return tenants.tenants.contains { t in t.name == name && t.keys.contains { Digest.equal($0, digest) } }
    }

    /// Takes one request from the tenant's rate: nil when admitted, else the seconds until it would be.
    func admit(_ caller: Caller, now: UInt64 = monotonicNanos()) -> Double? {
        guard let t = caller.tenant, let rate = t.quotas.requestsPerSecond else { return nil }
        return buckets.withLock { b in
            var bucket = b[t.name] ?? TokenBucket(rate: rate, now: now)
            if bucket.rate != rate { bucket = TokenBucket(rate: rate, now: now) }  // the file changed it
            defer { b[t.name] = bucket }
            return bucket.take(now: now)
        }
    }

    private static func read(_ path: String) throws(Tenants.Invalid) -> Tenants {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw Tenants.Invalid(message: "cannot be read", pointer: "")
        }
        return try Tenants(file: Array(data))
    }
}

/// The key of `Authorization: Bearer KEY` (the scheme's name in any case), nil without one.
func bearerKey(_ authorization: String?) -> [UInt8]? {
    guard let header = authorization, header.count > 7, header.prefix(7).lowercased() == "bearer " else { return nil }
    let key = header.dropFirst(7).trimmingCharacters(in: .whitespaces)
    return key.isEmpty ? nil : Array(key.utf8)
}

/// A request rate: `rate` a second on average, bursts of up to a second's worth.
struct TokenBucket {
    let rate: Double
    private var tokens: Double
    private var at: UInt64

    init(rate: Double, now: UInt64) {
        self.rate = rate
        tokens = max(1, rate)
        at = now
    }

    /// nil when a token was taken, else the seconds until one is there.
    mutating func take(now: UInt64) -> Double? {
        tokens = min(max(1, rate), tokens + Double(now &- at) / 1e9 * rate)
        at = now
        if tokens >= 1 {
            tokens -= 1
            return nil
        }
        return (1 - tokens) / rate
    }
}

/// Single-use, short-lived tickets for a browser's WebSocket, which cannot carry an
/// `Authorization` header: a page asks for one with its key (`POST .../stream-ticket`) and
/// opens `.../stream?ticket=T` within `lifetime`. A ticket names one session and one
/// caller, and works once, so one seen in a log or a proxy's URL is already spent.
final class StreamTickets: Sendable {
    static let lifetimeNanos: UInt64 = 30_000_000_000
    private let issued = Mutex<[String: (caller: Caller, session: String, until: UInt64)]>([:])

    func issue(for caller: Caller, session: String, now: UInt64 = monotonicNanos()) -> String {
        var g = SystemRandomNumberGenerator()
        let ticket = (0..<4).map { _ in String(g.next() as UInt64, radix: 16) }.joined(separator: "-")
        issued.withLock { t in
            t = t.filter { $0.value.until > now }  // the expired go as new ones come
            t[ticket] = (caller, session, now + Self.lifetimeNanos)
        }
        return ticket
    }

    /// Drops the tickets whose caller `keep` refuses (a revoked key's): how many.
    @discardableResult
    func revoke(unless keep: (Caller) -> Bool) -> Int {
        issued.withLock { t in
            let before = t.count
            t = t.filter { keep($0.value.caller) }
            return before - t.count
        }
    }

    /// The ticket's caller, once: nil when it is unknown, spent, expired or for another session.
    func redeem(_ ticket: String, session: String, now: UInt64 = monotonicNanos()) -> Caller? {
        guard let t = issued.withLock({ $0.removeValue(forKey: ticket) }), t.until > now, t.session == session else { return nil }
        return t.caller
    }
}
