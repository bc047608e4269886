import CZlib
import Synchronization

/// gzip through zlib. Deflate streams are pooled and reset between uses (an init costs
/// ~45 µs, a reset ~4 µs here); inflation stops at a size limit (zip bombs).
final class Gzip: Sendable {
    enum Failure: Error { case corrupt, tooLarge }

    /// A heap z_stream (it must not move); owned by whoever took it from the pool.
    private struct Stream: @unchecked Sendable { let z: UnsafeMutablePointer<z_stream> }
    private let pool = Mutex<[Stream]>([])
    let level: Int32

    init(level: Int32 = 6) { self.level = level }

    deinit {
        pool.withLock { streams in
            for s in streams { deflateEnd(s.z); s.z.deallocate() }
        }
    }

    func compress(_ input: [UInt8]) -> [UInt8] {
        let taken = pool.withLock { $0.popLast() } ?? {
            let s = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
            s.initialize(to: z_stream())
            _ = layoutd_deflate_init(s, level, 31)
            return Stream(z: s)
        }()
        let stream = taken.z
        defer {
            deflateReset(stream)
            pool.withLock { $0.append(taken) }
        }
        var out = [UInt8](repeating: 0, count: Int(deflateBound(stream, uLong(input.count))) + 32)
        let written: Int = input.withUnsafeBufferPointer { inBuf in
            out.withUnsafeMutableBufferPointer { outBuf in
                stream.pointee.next_in = UnsafeMutablePointer(mutating: inBuf.baseAddress)
                stream.pointee.avail_in = uInt(inBuf.count)
                stream.pointee.next_out = outBuf.baseAddress
                stream.pointee.avail_out = uInt(outBuf.count)
                _ = deflate(stream, Z_FINISH)
                return outBuf.count - Int(stream.pointee.avail_out)
            }
        }
        out.removeSubrange(written...)
        return out
    }

    /// Inflates a gzip body, refusing more than `limit` bytes of output.
    static func decompress(_ input: [UInt8], limit: Int) throws(Failure) -> [UInt8] {
        var s = z_stream()
        guard layoutd_inflate_init(&s, 31) == Z_OK else { throw .corrupt }
        defer { inflateEnd(&s) }
        var out: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16384)
        var status: Int32 = Z_OK
        let result: Failure? = input.withUnsafeBufferPointer { inBuf -> Failure? in
            s.next_in = UnsafeMutablePointer(mutating: inBuf.baseAddress)
            s.avail_in = uInt(inBuf.count)
            while true {
                let produced: Int = chunk.withUnsafeMutableBufferPointer { c in
                    s.next_out = c.baseAddress
                    s.avail_out = uInt(c.count)
                    status = inflate(&s, Z_NO_FLUSH)
                    return c.count - Int(s.avail_out)
                }
                if status != Z_OK && status != Z_STREAM_END && !(status == Z_BUF_ERROR && produced > 0) { return .corrupt }
                out.append(contentsOf: chunk[0..<produced])
                if out.count > limit { return .tooLarge }
                if status == Z_STREAM_END { return s.avail_in == 0 ? nil : .corrupt }
                if produced == 0 && s.avail_in == 0 { return .corrupt }  // truncated
            }
        }
        if let result { throw result }
        return out
    }
}
