import CMicroHTTPD
import CheckedNumbers
import Glibc

/// A peer's IP address as 128 bits (IPv4 as IPv4-mapped IPv6), hashable without allocating.
public struct ClientAddress: Hashable, Sendable {
    var high: UInt64, low: UInt64

    init?(_ sa: UnsafePointer<sockaddr>) {
        switch Int32(sa.pointee.sa_family) {
        case AF_INET:
            let v4 = sa.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { UInt32(bigEndian: $0.pointee.sin_addr.s_addr) }
            self.init(v4: v4)
        case AF_INET6:
            let bytes = sa.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { p in withUnsafeBytes(of: p.pointee.sin6_addr) { Array($0) } }
            self.init(bytes: bytes)
        default:
            return nil
        }
    }

    init(v4: UInt32) { high = 0; low = 0xFFFF_0000_0000 | UInt64(v4) }

    /// A textual IPv4 or IPv6 address.
    init?(text: String) {
        guard let (a, _) = Self.parse(text) else { return nil }
        self = a
    }

    /// A textual address, and whether it was written as IPv4.
    static func parse(_ text: String) -> (ClientAddress, isV4: Bool)? {
        var v4 = in_addr(), v6 = in6_addr()
        if inet_pton(AF_INET, text, &v4) == 1 { return (ClientAddress(v4: UInt32(bigEndian: v4.s_addr)), true) }
        if inet_pton(AF_INET6, text, &v6) == 1 { return (ClientAddress(bytes: withUnsafeBytes(of: v6) { Array($0) }), false) }
        return nil
    }

    init(bytes: [UInt8]) {
        high = bytes[0..<8].reduce(0) { $0 << 8 | UInt64($1) }
        low = bytes[8..<16].reduce(0) { $0 << 8 | UInt64($1) }
    }
}

/// An address or a CIDR range (`10.0.0.0/8`, `fd00::/8`, `127.0.0.1`): who counts as a trusted proxy.
public struct AddressRange: Sendable, Equatable {
    var base: ClientAddress
    /// Leading bits that must match, of 128 (an IPv4 prefix counts from bit 96).
    var bits: Int

    public init?(_ text: String) {
        let parts = text.split(separator: "/", maxSplits: 1).map(String.init)
        guard let host = parts.first, !host.isEmpty else { return nil }
        var prefix: Int? = nil
        if parts.count == 2 { guard let p = Int(parts[1]), p >= 0 else { return nil }; prefix = p }
        guard let (address, isV4) = ClientAddress.parse(host) else { return nil }
        let width = isV4 ? 32 : 128
        guard (prefix ?? width) <= width else { return nil }
        base = address
        bits = (isV4 ? 96 : 0) + (prefix ?? width)
    }

    func contains(_ a: ClientAddress) -> Bool {
        func mask(_ n: Int) -> UInt64 { n <= 0 ? 0 : n >= 64 ? .max : ~(UInt64.max >> UInt64(n)) }
        return (a.high ^ base.high) & mask(bits) == 0 && (a.low ^ base.low) & mask(bits - 64) == 0
    }
}
