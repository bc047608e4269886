import Foundation
import HTTPTransport
import Synchronization

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
