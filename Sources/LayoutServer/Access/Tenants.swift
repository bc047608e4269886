import CheckedNumbers
import HTTPTransport
import JSON

/// Who may act, read from `--auth-file`: tenants, each with API keys stored as SHA-256
/// digests (never the keys) and quotas (a missing one is unlimited).
///
///     {"tenants": [{"name": "team-a", "keys": ["sha256:<64 hex digits>"],
///                   "quotas": {"sessions": 100, "viewsPerSession": 5000, "constraintsPerSession": 20000,
///                              "requestsPerSecond": 200, "memoryShare": 0.25}}]}
struct Tenants: Sendable {
    struct Tenant: Sendable {
        let name: String
        let keys: [[UInt8]]
        let quotas: Quotas
    }

    struct Quotas: Sendable, Equatable {
        var sessions: Int? = nil
        var viewsPerSession: Int? = nil
        var constraintsPerSession: Int? = nil
        var requestsPerSecond: Double? = nil
        /// The fraction of `--memory-budget-mb` the tenant's sessions in memory may hold.
        var memoryShare: Double? = nil
    }

    let tenants: [Tenant]

    /// Why a file is refused: what is wrong and where (a JSON pointer).
    struct Invalid: Error, CustomStringConvertible {
        let message: String
        let pointer: String
        var description: String { pointer.isEmpty ? message : "\(message) at \(pointer)" }
    }

    init(tenants: [Tenant]) { self.tenants = tenants }

    init(file bytes: [UInt8]) throws(Invalid) {
        let root: JSON
        do { root = try JSONParser.parse(bytes) } catch { throw Invalid(message: "not JSON: \(error.message) at byte \(error.offset)", pointer: "") }
        guard let list = root["tenants"]?.array else { throw Invalid(message: "\"tenants\" must be an array", pointer: "/tenants") }
        var tenants: [Tenant] = []
        var names = Set<String>(), digests = Set<[UInt8]>()
        for (i, t) in list.enumerated() {
            let at = "/tenants/\(i)"
            guard let name = t["name"]?.string, Self.isLabelSafe(name) else {
                throw Invalid(message: "a tenant's name is 1 to 64 letters, digits, '-', '_' or '.'", pointer: at + "/name")
            }
            guard names.insert(name).inserted else { throw Invalid(message: "tenant '\(name)' is named twice", pointer: at + "/name") }
            guard let keys = t["keys"]?.array else { throw Invalid(message: "\"keys\" must be an array", pointer: at + "/keys") }
            var parsed: [[UInt8]] = []
            for (k, key) in keys.enumerated() {
                guard let s = key.string, let digest = Self.digest(s) else {
                    throw Invalid(message: "a key is \"sha256:\" and the 64 hex digits of the key's SHA-256", pointer: at + "/keys/\(k)")
                }
                guard digests.insert(digest).inserted else { throw Invalid(message: "this key is listed twice", pointer: at + "/keys/\(k)") }
                parsed.append(digest)
            }
            var quotas = Quotas()
            if let q = t["quotas"] {
                guard q.members != nil else { throw Invalid(message: "\"quotas\" must be an object", pointer: at + "/quotas") }
                quotas.sessions = try Self.count(q["sessions"], at + "/quotas/sessions")
                quotas.viewsPerSession = try Self.count(q["viewsPerSession"], at + "/quotas/viewsPerSession")
                quotas.constraintsPerSession = try Self.count(q["constraintsPerSession"], at + "/quotas/constraintsPerSession")
                if let r = q["requestsPerSecond"] {
                    guard let n = r.number, n > 0, n.isFinite else {
                        throw Invalid(message: "requestsPerSecond is a positive number", pointer: at + "/quotas/requestsPerSecond")
                    }
                    quotas.requestsPerSecond = n
                }
                if let r = q["memoryShare"] {
                    guard let n = r.number, n > 0, n <= 1 else {
                        throw Invalid(
                            message: "memoryShare is a fraction of the memory budget, above 0 and at most 1", pointer: at + "/quotas/memoryShare")
                    }
                    quotas.memoryShare = n
                }
            }
            tenants.append(Tenant(name: name, keys: parsed, quotas: quotas))
        }
        self.tenants = tenants
    }

    /// The tenant holding this API key: its SHA-256 compared with every key in the file, each
    /// comparison in constant time, so how long it takes says nothing of which key came close.
    func tenant(forKey key: [UInt8]) -> Tenant? {
        let digest = Digest.sha256(key)
        var found: Tenant? = nil
        for t in tenants { for k in t.keys where Digest.equal(k, digest) { found = t } }
        return found
    }

    /// Tenant names become metric labels and log fields: kept to a safe alphabet.
    static func isLabelSafe(_ s: String) -> Bool {
        (1...64).contains(s.utf8.count)
            && s.utf8.allSatisfy { c in (c >= 48 && c <= 57) || (c | 0x20 >= 97 && c | 0x20 <= 122) || c == 45 || c == 95 || c == 46 }
    }

    private static func digest(_ s: String) -> [UInt8]? {
        guard s.hasPrefix("sha256:") else { return nil }
        let hex = Array(s.utf8.dropFirst(7))
        guard hex.count == 64 else { return nil }
        var out: [UInt8] = []
        for i in stride(from: 0, to: 64, by: 2) {
            guard let h = nibble(hex[i]), let l = nibble(hex[i + 1]) else { return nil }
            out.append(h << 4 | l)
        }
        return out
    }

    private static func nibble(_ c: UInt8) -> UInt8? {
        switch c {
        case 48...57: return c - 48
        case 97...102: return c - 87
        case 65...70: return c - 55
        default: return nil
        }
    }

    private static func count(_ v: JSON?, _ pointer: String) throws(Invalid) -> Int? {
        guard let v else { return nil }
        guard let n = v.number, n >= 0, n == n.rounded(), n < 1e15, let count = Int(checked: n) else {
            throw Invalid(message: "a quota is a whole number, 0 or more", pointer: pointer)
        }
        return count
    }
}
