import CheckedNumbers
/// Strings kept as sent, in one byte buffer: the `expr` and `visual` texts of a document's
/// entries. A String each was a 32-byte header and a malloc: on the 1,000-cell feed, ~270
/// bytes a view for ~165 bytes of text. Removing a string leaves a hole; once holes outweigh
/// the live bytes, the owner copies what it still names into a new pool (`copy(_:into:)`).
///
/// Each string is its length (LEB128) and its bytes; a ref is where it starts, 4 bytes (a
/// start and a count were 8 in every entry: 19 bytes a view).
struct StringPool {
    struct Ref: Equatable {
        fileprivate var start: UInt32
        static let empty = Ref(start: .max - 1)
        /// Not in the pool: its owner makes the string (`LayoutDocument.exprText`).
        static let rendered = Ref(start: .max)
        var isInPool: Bool { start < .max - 1 }
    }

    private var bytes: [UInt8] = []
    private var holes = 0

    /// Bytes held, holes included.
    var byteCount: Int { bytes.count }

    /// Worth repacking: more holes than live bytes (and enough of them to matter).
    var wantsRepacking: Bool { holes > 4096 && holes > bytes.count / 2 }

    mutating func add(_ s: String) -> Ref {
        var s = s
        return s.withUTF8 { add($0) }
    }

    mutating func add(_ b: UnsafeBufferPointer<UInt8>) -> Ref {
        guard !b.isEmpty else { return .empty }
        precondition(bytes.count < Int(Ref.empty.start) - b.count - 5, "a string pool holds less than 4 GB")
        let r = Ref(start: UInt32(bytes.count))
        var n = b.count
        while n >= 0x80 {
            bytes.append(UInt8(n & 0x7F) | 0x80)
            n >>= 7
        }
        bytes.append(UInt8(n))
        bytes.append(contentsOf: b)
        return r
    }

    /// Gives back the room appending left (up to as much again): after a whole document.
    mutating func trim() {
        if bytes.capacity > bytes.count + bytes.count / 8 { bytes = bytes.withUnsafeBufferPointer { Array($0) } }
    }

    /// Where string r's bytes are, after its length (which starts at `r.start`).
    private func span(_ r: Ref) -> Range<Int> {
        var k = Int(r.start)
        var n = 0
        var shift = 0
        while true {
            let b = bytes[k]
            k += 1
            n |= Int(b & 0x7F) << shift
            if b < 0x80 { break }
            shift += 7
        }
        return k..<k + n
    }

    mutating func remove(_ r: Ref) {
        guard r.isInPool else { return }
        holes += span(r).upperBound - Int(r.start)
    }

    subscript(r: Ref) -> String {
        guard r.isInPool else { return "" }
        return bytes.withUnsafeBufferPointer { String(decoding: $0[span(r)], as: UTF8.self) }
    }

    /// String `r` copied into `other`: its ref there.
    func copy(_ r: Ref, into other: inout StringPool) -> Ref {
        guard r.isInPool else { return r }
        return bytes.withUnsafeBufferPointer { other.add(UnsafeBufferPointer(rebasing: $0[span(r)])) }
    }
}
