import CZlib

/// RFC 7692 permessage-deflate with no context takeover either way: each message is
/// compressed on its own, so a stream keeps no compression window between messages.
final class PerMessageDeflate {
    /// The response header for an acceptable offer in `Sec-WebSocket-Extensions`, with the
    /// server window to use; nil when there is no acceptable offer.
    static func negotiate(_ header: String?) -> (response: String, serverWindowBits: Int32)? {
        guard let header else { return nil }
        for offer in header.split(separator: ",") {
            let parts = offer.split(separator: ";").map { $0.trimmingCharacters(in: " ") }
            guard parts.first == "permessage-deflate" else { continue }
            var bits: Int32 = 15
            var ok = true
            var seen = Set<String>()
            for p in parts.dropFirst() {
                let kv = p.split(separator: "=", maxSplits: 1).map { String($0).trimmingCharacters(in: "\"") }
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

    init(serverWindowBits: Int32) {
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

    func compress(_ input: [UInt8]) -> [UInt8] {
        defer { deflateReset(deflater) }
        var out = [UInt8](repeating: 0, count: Int(deflateBound(deflater, uLong(input.count))) + 16)
        let n: Int = input.withUnsafeBufferPointer { i in
            out.withUnsafeMutableBufferPointer { o in
                deflater.pointee.next_in = UnsafeMutablePointer(mutating: i.baseAddress)
                deflater.pointee.avail_in = uInt(i.count)
                deflater.pointee.next_out = o.baseAddress
                deflater.pointee.avail_out = uInt(o.count)
                _ = deflate(deflater, Z_SYNC_FLUSH)
                return o.count - Int(deflater.pointee.avail_out)
            }
        }
        out.removeSubrange(n...)
        if out.suffix(4) == Self.tail[...] { out.removeLast(4) }
        return out
    }

    /// Inflates one message, refusing more than `limit` bytes.
    func decompress(_ input: [UInt8], limit: Int) throws(Gzip.Failure) -> [UInt8] {
        var tooLarge = false
        guard let out = inflateMessage(input, limit: limit, tooLarge: &tooLarge) else { throw tooLarge ? .tooLarge : .corrupt }
        return out
    }

    private func inflateMessage(_ input: [UInt8], limit: Int, tooLarge: inout Bool) -> [UInt8]? {
        defer { inflateReset(inflater) }
        let data = input + Self.tail
        var out: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16384)
        return data.withUnsafeBufferPointer { i -> [UInt8]? in
            inflater.pointee.next_in = UnsafeMutablePointer(mutating: i.baseAddress)
            inflater.pointee.avail_in = uInt(i.count)
            while true {
                var status: Int32 = Z_OK
                let produced: Int = chunk.withUnsafeMutableBufferPointer { c in
                    inflater.pointee.next_out = c.baseAddress
                    inflater.pointee.avail_out = uInt(c.count)
                    status = inflate(inflater, Z_SYNC_FLUSH)
                    return c.count - Int(inflater.pointee.avail_out)
                }
                if status != Z_OK && status != Z_STREAM_END && !(status == Z_BUF_ERROR && produced == 0 && inflater.pointee.avail_in == 0) { return nil }
                out.append(contentsOf: chunk[0..<produced])
                if out.count > limit { tooLarge = true; return nil }
                if inflater.pointee.avail_in == 0 && produced < chunk.count { return out }
                if status == Z_STREAM_END { return out }
            }
        }
    }
}

extension String {
    func trimmingCharacters(in c: Character) -> String { self[...].trimmingCharacters(in: c) }
}
