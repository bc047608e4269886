/// Writes JSON straight into a byte buffer: the response hot path (changed frames)
/// never goes through Foundation's encoder.
///
/// The buffer is raw memory the writer owns (hence non-copyable): each write checks the
/// room once and stores bytes, where appending to an `[UInt8]` checked uniqueness and
/// capacity per call (a third of a set-constant's JSON cost, callgrind).
public struct JSONWriter: ~Copyable {
    private var base: UnsafeMutablePointer<UInt8>
    private var count = 0
    private var capacity: Int
    /// "A value was written at this level" flags as a bit stack (bit 0 is the innermost
    /// level): no array per writer. Levels pushed past 64 spill their top bit to `deep`.
    private var commaBits: UInt64 = 0
    private var depth = 0
    private var deep: [Bool] = []

    public init(capacity: Int = 256) {
        self.capacity = max(capacity, 64)
        base = .allocate(capacity: self.capacity)
    }

    deinit { base.deallocate() }

    /// The text written so far.
    public var bytes: [UInt8] { Array(UnsafeBufferPointer(start: base, count: count)) }

    // MARK: Raw output

    @inline(__always) private mutating func reserve(_ n: Int) {
        if count + n > capacity { grow(n) }
    }

    private mutating func grow(_ n: Int) {
        let bigger = max(capacity * 2, count + n)
        let p = UnsafeMutablePointer<UInt8>.allocate(capacity: bigger)
        p.update(from: base, count: count)
        base.deallocate()
        base = p
        capacity = bigger
    }

    /// One byte, the room for it already reserved.
    @inline(__always) private mutating func emit(_ c: UInt8) {
        base[count] = c
        count += 1
    }

    private mutating func append(_ c: UInt8) {
        reserve(1)
        emit(c)
    }

    private mutating func append(_ b: UnsafeBufferPointer<UInt8>) {
        guard let from = b.baseAddress, b.count > 0 else { return }
        reserve(b.count)
        (base + count).update(from: from, count: b.count)
        count += b.count
    }

    private mutating func append(_ s: StaticString) { s.withUTF8Buffer { append($0) } }

    // MARK: Structure

    @inline(__always) private mutating func separate() {
        if commaBits & 1 != 0 { append(UInt8(ascii: ",")) }
        commaBits |= 1
    }

    private mutating func push(_ open: UInt8) {
        separate()
        append(open)
        if depth >= 63 { deep.append(commaBits >> 63 != 0) }
        commaBits <<= 1
        depth += 1
    }

    private mutating func pop(_ close: UInt8) {
        depth -= 1
        commaBits >>= 1
        if depth >= 63, let top = deep.popLast(), top { commaBits |= 1 << 63 }
        append(close)
    }

    public mutating func beginObject() { push(UInt8(ascii: "{")) }
    public mutating func endObject() { pop(UInt8(ascii: "}")) }
    public mutating func beginArray() { push(UInt8(ascii: "[")) }
    public mutating func endArray() { pop(UInt8(ascii: "]")) }

    /// A member name; the next value written is its value.
    public mutating func key(_ k: String) {
        separate()
        writeString(k)
        append(UInt8(ascii: ":"))
        commaBits &= ~1
    }

    /// A member name known at compile time to need no escaping (the wire format's own
    /// field names): copied as is.
    public mutating func key(plain k: StaticString) {
        separate()
        putKey(k)
        commaBits &= ~1
    }

    /// `"key":number`: the shape of every field of a frame, the hot path's bulk. Anything
    /// but an exact integer takes the general path.
    public mutating func member(_ k: StaticString, _ v: Double) {
        guard let n = Self.exactInteger(v) else { key(plain: k); number(v); return }
        separate()
        putKey(k)
        putInteger(n)
    }

    /// `"k":` through a local cursor, after one room check.
    @inline(__always) private mutating func putKey(_ k: StaticString) {
        reserve(k.utf8CodeUnitCount + 3)
        var p = base + count
        p.pointee = UInt8(ascii: "\""); p += 1
        k.withUTF8Buffer { for c in $0 { p.pointee = c; p += 1 } }
        p[0] = UInt8(ascii: "\""); p[1] = UInt8(ascii: ":")
        count = p + 2 - base
    }

    // MARK: Values

    public mutating func string(_ s: String) { separate(); writeString(s) }
    public mutating func number(_ v: Double) { separate(); writeNumber(v) }
    public mutating func int(_ v: Int) { separate(); putInteger(Int64(v)) }
    public mutating func bool(_ b: Bool) { separate(); append(b ? "true" : "false") }
    public mutating func null() { separate(); append("null") }

    /// Splices a value that is already JSON text.
    public mutating func raw(_ json: [UInt8]) { separate(); json.withUnsafeBufferPointer { append($0) } }

    public mutating func value(_ v: JSON) {
        switch v {
        case .null: null()
        case .bool(let b): bool(b)
        case .number(let n): number(n)
        case .string(let s): string(s)
        case .array(let a): beginArray(); for x in a { value(x) }; endArray()
        case .object(let m): beginObject(); for (k, x) in m { key(k); value(x) }; endObject()
        }
    }

    private mutating func writeNumber(_ v: Double) {
        guard v.isFinite else { append("null"); return }
        if let n = Self.exactInteger(v) { putInteger(n); return }
        var text = v.description
        text.withUTF8 { append($0) }
    }

    /// `v` as an integer when it is one and small enough to print exactly in decimal.
    private static func exactInteger(_ v: Double) -> Int64? {
        abs(v) < 9.0e15 ? Int64(exactly: v) : nil
    }

    /// A sign and up to 19 digits (Int64.min's magnitude).
    private static let maxIntegerBytes = 20

    /// Writes `n` in decimal, two digits a step.
    private mutating func putInteger(_ n: Int64) {
        reserve(Self.maxIntegerBytes)
        if n < 0 { emit(UInt8(ascii: "-")) }
        var u = n.magnitude
        var digits = 1, m = u
        while m >= 100 { digits += 2; m /= 100 }
        if m >= 10 { digits += 1 }
        count += digits
        var p = base + count
        Self.digitPairs.withUnsafeBufferPointer { pairs in
            while u >= 100 {
                let r = Int(u % 100) * 2
                u /= 100
                p -= 2; p[0] = pairs[r]; p[1] = pairs[r + 1]
            }
            if u >= 10 { let r = Int(u) * 2; p -= 2; p[0] = pairs[r]; p[1] = pairs[r + 1] } else { p -= 1; p[0] = 48 + UInt8(u) }
        }
    }

    /// "00", "01", ... "99": two digits per table read.
    private static let digitPairs: [UInt8] = (0..<100).flatMap { (n: Int) -> [UInt8] in
        [UInt8(48 + n / 10), UInt8(48 + n % 10)]
    }

    private mutating func writeString(_ s: String) {
        var s = s
        s.withUTF8 { utf8 in
            // Ids and keys rarely need escaping: copy them whole when they don't.
            reserve(utf8.count + 2)
            emit(UInt8(ascii: "\""))
            if !utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
                append(utf8)
                append(UInt8(ascii: "\""))
                return
            }
            for c in utf8 { escape(c) }
            append(UInt8(ascii: "\""))
        }
    }

    private mutating func escape(_ c: UInt8) {
        reserve(6)
        switch c {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"): emit(0x5C); emit(c)
        case 0x0A: emit(0x5C); emit(UInt8(ascii: "n"))
        case 0x0D: emit(0x5C); emit(UInt8(ascii: "r"))
        case 0x09: emit(0x5C); emit(UInt8(ascii: "t"))
        case 0..<0x20:
            let hex: StaticString = "0123456789abcdef"
            hex.withUTF8Buffer { h in
                for x in [0x5C, UInt8(ascii: "u"), 48, 48, h[Int(c >> 4)], h[Int(c & 15)]] { emit(x) }
            }
        default: emit(c)
        }
    }
}

extension JSON {
    /// Compact JSON text.
    public var serialized: [UInt8] {
        var w = JSONWriter()
        w.value(self)
        return w.bytes
    }
}
