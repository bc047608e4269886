import CZlib

/// Raw deflate (RFC 7692's permessage-deflate framing: no header, the sync-flush tail dropped),
/// straight through zlib's API: the tests' independent check of the server's compression.
public enum RawDeflate {
    public static func compress(_ input: [UInt8]) -> [UInt8] {
        var s = z_stream()
        deflateInit2_(&s, 6, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size))
        defer { deflateEnd(&s) }
        var out = [UInt8](repeating: 0, count: input.count + 64)
        var inp = input
        let n = inp.withUnsafeMutableBufferPointer { i in
            out.withUnsafeMutableBufferPointer { o in
                s.next_in = i.baseAddress; s.avail_in = uInt(i.count); s.next_out = o.baseAddress; s.avail_out = uInt(o.count)
                deflate(&s, Z_SYNC_FLUSH)
                return o.count - Int(s.avail_out)
            }
        }
        return Array(out[0..<(n - 4)])  // drop 00 00 ff ff
    }

    public static func decompress(_ input: [UInt8]) -> [UInt8] {
        var s = z_stream()
        inflateInit2_(&s, -15, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size))
        defer { inflateEnd(&s) }
        var inp = input + [0, 0, 0xFF, 0xFF]
        var out = [UInt8](repeating: 0, count: 1 << 20)
        let n = inp.withUnsafeMutableBufferPointer { i in
            out.withUnsafeMutableBufferPointer { o in
                s.next_in = i.baseAddress; s.avail_in = uInt(i.count); s.next_out = o.baseAddress; s.avail_out = uInt(o.count)
                inflate(&s, Z_SYNC_FLUSH)
                return o.count - Int(s.avail_out)
            }
        }
        return Array(out[0..<n])
    }
}
