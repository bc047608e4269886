import CZlib
import CheckedNumbers

/// RFC 7692 permessage-deflate with no context takeover either way: each message is
/// compressed on its own, so a stream keeps no compression window between messages.
public final class PerMessageDeflate {
    /// The response header for an acceptable offer in `Sec-WebSocket-Extensions`, with the
    /// server window to use; nil when there is no acceptable offer.
    public static func negotiate(_ header: String?) -> (response: String, serverWindowBits: Int32)? {
        guard let header else { return nil }
        for offer in header.split(separator: ",") {
            let parts = offer.split(separator: ";").map { $0.trimming(" ") }
            guard parts.first == "permessage-deflate" else { continue }
            var bits: Int32 = 15
            var ok = true
            var seen = Set<String>()
            for p in parts.dropFirst() {
                let kv = p.split(separator: "=", maxSplits: 1).map { $0.trimming("\"") }
                guard seen.insert(kv[0]).inserted else { ok = false; break }
                switch kv[0] {
                case "server_no_context_takeover", "client_no_context_takeover": ok = ok && kv.count == 1
                case "server_max_window_bits":
                    guard kv.count == 2, let n = Int32(kv[1]), (9...15).contains(n) else { ok = false; break }
                    bits = n
                case "client_max_window_bits":
                    if kv.count == 2, Int32(kv[1]).map({ !(8...15).contains($0) }) ?? true { ok = false }
                default: ok = false
                }
            }
            guard ok else { continue }
            var response = "permessage-deflate; server_no_context_takeover; client_no_context_takeover"
            if bits < 15 { response += "; server_max_window_bits=\(bits)" }
            return (response, bits)
        }
        return nil
    }

    private let deflater = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
    private let inflater = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)

    public init(serverWindowBits: Int32) {
        deflater.initialize(to: z_stream())
        inflater.initialize(to: z_stream())
        _ = layoutd_deflate_init(deflater, 6, -serverWindowBits)
        _ = layoutd_inflate_init(inflater, -15)
    }

    deinit {
        deflateEnd(deflater)
        inflateEnd(inflater)
        deflater.deallocate()
        inflater.deallocate()
    }

    private static let tail: [UInt8] = [0x00, 0x00, 0xFF, 0xFF]

    public func compress(_ input: [UInt8]) -> [UInt8] {
        defer { deflateReset(deflater) }
        var out = Zlib.deflateAll(deflater, input, flush: Z_SYNC_FLUSH)
        if out.suffix(4) == Self.tail[...] { out.removeLast(4) }
        return out
    }

    /// Inflates one message, refusing more than `limit` bytes.
    public func decompress(_ input: [UInt8], limit: Int) throws(Zlib.Failure) -> [UInt8] {
        defer { inflateReset(inflater) }
        return try Zlib.inflateAll(inflater, input + Self.tail, limit: limit, requireEnd: false)
    }
}
