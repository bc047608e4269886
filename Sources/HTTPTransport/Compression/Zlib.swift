import CZlib
import CheckedNumbers

/// The two loops every zlib user here needs, on a stream that is already initialised
/// (gzip or raw deflate): all input through deflate into one buffer, and inflate with a
/// ceiling on the output.
public enum Zlib {
    public enum Failure: Error { case corrupt, tooLarge }

    static func deflateAll(_ stream: UnsafeMutablePointer<z_stream>, _ input: [UInt8], flush: Int32) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: Int(deflateBound(stream, uLong(input.count))) + 32)
        let written: Int = input.withUnsafeBufferPointer { i in
            out.withUnsafeMutableBufferPointer { o in
                stream.pointee.next_in = UnsafeMutablePointer(mutating: i.baseAddress)
                stream.pointee.avail_in = uInt(i.count)
                stream.pointee.next_out = o.baseAddress
                stream.pointee.avail_out = uInt(o.count)
                _ = deflate(stream, flush)
                return o.count - Int(stream.pointee.avail_out)
            }
        }
        out.removeSubrange(written...)
        return out
    }

    /// Inflates until the input is used up or the stream ends; more than `limit` bytes of
    /// output is `.tooLarge` (zip bombs), a stream that ends early or has trailing bytes when
    /// `requireEnd` is `.corrupt`.
    static func inflateAll(_ stream: UnsafeMutablePointer<z_stream>, _ input: [UInt8], limit: Int, requireEnd: Bool) throws(Failure) -> [UInt8] {
        var out: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16384)
        let failure: Failure? = input.withUnsafeBufferPointer { i -> Failure? in
            stream.pointee.next_in = UnsafeMutablePointer(mutating: i.baseAddress)
            stream.pointee.avail_in = uInt(i.count)
            while true {
                var status: Int32 = Z_OK
                let produced: Int = chunk.withUnsafeMutableBufferPointer { c in
                    stream.pointee.next_out = c.baseAddress
                    stream.pointee.avail_out = uInt(c.count)
                    status = inflate(stream, Z_SYNC_FLUSH)
                    return c.count - Int(stream.pointee.avail_out)
                }
                let stalled = status == Z_BUF_ERROR && produced == 0
                if status != Z_OK && status != Z_STREAM_END && !stalled { return .corrupt }
                out.append(contentsOf: chunk[0..<produced])
                if out.count > limit { return .tooLarge }
                if status == Z_STREAM_END { return requireEnd && stream.pointee.avail_in != 0 ? .corrupt : nil }
                if stream.pointee.avail_in == 0 && (produced < chunk.count || stalled) { return requireEnd ? .corrupt : nil }
            }
        }
        if let failure { throw failure }
        return out
    }
}
