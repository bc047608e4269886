/// Strings kept as sent, in one byte buffer: the `expr` and `visual` texts of a document's
/// entries. A String each was a 32-byte header and a malloc: on the 1,000-cell feed, ~270
/// bytes a view for ~165 bytes of text. Removing a string leaves a hole; once holes outweigh
/// the live bytes, the owner copies what it still names into a new pool (`copy(_:into:)`).
struct StringPool {
    struct Ref: Equatable {
        var start: UInt32
        var count: UInt32
        static let empty = Ref(start: 0, count: 0)
        /// Not in the pool: its owner makes the string (`LayoutDocument.exprText`).
        static let rendered = Ref(start: .max, count: 0)
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
        let r = Ref(start: UInt32(bytes.count), count: UInt32(b.count))
        bytes.append(contentsOf: b)
        return r
    }

    /// Gives back the room appending left (up to as much again): after a whole document.
    mutating func trim() {
        if bytes.capacity > bytes.count + bytes.count / 8 { bytes = bytes.withUnsafeBufferPointer { Array($0) } }
    }

    mutating func remove(_ r: Ref) { holes += Int(r.count) }

    subscript(r: Ref) -> String {
        guard r.count > 0 else { return "" }
        return bytes.withUnsafeBufferPointer { String(decoding: $0[Int(r.start)..<Int(r.start + r.count)], as: UTF8.self) }
    }

    /// String `r` copied into `other`: its ref there.
    func copy(_ r: Ref, into other: inout StringPool) -> Ref {
        guard r.count > 0 else { return r }
        return bytes.withUnsafeBufferPointer { other.add(UnsafeBufferPointer(rebasing: $0[Int(r.start)..<Int(r.start + r.count)])) }
    }
}
