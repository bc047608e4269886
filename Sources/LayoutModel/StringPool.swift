/// Strings kept as sent, in one byte buffer: the `expr` and `visual` texts of a document's
/// entries. A String each was a 32-byte header and a malloc: on the 1,000-cell feed, ~270
/// bytes a view for ~165 bytes of text. Removing a string leaves a hole; the owner repacks
/// (`repacked`) once holes outweigh the live bytes.
struct StringPool {
    struct Ref: Equatable {
        var start: UInt32
        var count: UInt32
        static let empty = Ref(start: 0, count: 0)
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
        bytes.withUnsafeBufferPointer { String(decoding: $0[Int(r.start)..<Int(r.start + r.count)], as: UTF8.self) }
    }

    /// A pool of only the strings `refs` name (in place: each ref is rewritten).
    func repacked(_ refs: inout [Ref]) -> StringPool {
        var out = StringPool()
        out.bytes.reserveCapacity(bytes.count - holes)
        bytes.withUnsafeBufferPointer { b in
            for k in refs.indices {
                refs[k] = out.add(UnsafeBufferPointer(rebasing: b[Int(refs[k].start)..<Int(refs[k].start + refs[k].count)]))
            }
        }
        return out
    }
}
