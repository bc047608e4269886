/// Who is asking: the tenant an API key names, or anyone on a server without keys.
struct Caller: Sendable {
    let tenant: Tenants.Tenant?
    /// The SHA-256 of the key it came with: what a revocation looks for in its open streams.
    var keyDigest: [UInt8]? = nil
    /// What a session made by this caller is owned by ("" without keys).
    var owner: String { tenant?.name ?? "" }
    static let anyone = Caller(tenant: nil)
}
