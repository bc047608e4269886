import CZlib
import CheckedNumbers

/// How bytes lie in the store: zlib-compressed past a size (documents compress 5-10×;
/// small journal entries do not, and their compression would cost more than it saves),
/// with a CRC-32 of what is stored, so a torn or corrupt record is told from a good one.
enum StoredBytes {
    static let compressFrom = 4096

    /// (stored bytes, raw size or 0 when stored as is, checksum)
    static func encode(_ raw: [UInt8]) -> (bytes: [UInt8], rawSize: Int, checksum: Int) {
        var bytes = raw
        var rawSize = 0
        if raw.count >= compressFrom {
            var out = [UInt8](repeating: 0, count: Int(compressBound(uLong(raw.count))))
            var n = uLongf(out.count)
            // Level 1: a 1,000-cell document in ~2 ms to a fifth of its size; higher levels
            // gain little on JSON and cost several times the time.
            if compress2(&out, &n, raw, uLong(raw.count), 1) == Z_OK, Int(n) < raw.count {
                out.removeSubrange(Int(n)...)
                bytes = out
                rawSize = raw.count
            }
        }
        return (bytes, rawSize, checksum(bytes))
    }

    /// The raw bytes, or nil when the checksum or the compression does not hold.
    static func decode(_ bytes: [UInt8], rawSize: Int, checksum expected: Int) -> [UInt8]? {
        guard checksum(bytes) == expected else { return nil }
        guard rawSize > 0 else { return bytes }
        var out = [UInt8](repeating: 0, count: rawSize)
        var n = uLongf(rawSize)
        guard uncompress(&out, &n, bytes, uLong(bytes.count)) == Z_OK, Int(n) == rawSize else { return nil }
        return out
    }

    static func checksum(_ bytes: [UInt8]) -> Int {
        Int(bytes.withUnsafeBufferPointer { crc32(0, $0.baseAddress, uInt($0.count)) })
    }
}
