/// Writes JSON straight into a byte buffer: the response hot path (changed frames)
/// never goes through Foundation's encoder.
public struct JSONWriter {
    public private(set) var bytes: [UInt8] = []
    /// "A value was written at this level" flags as a bit stack (bit 0 is the innermost
    /// level): no array per writer. Levels pushed past 64 spill their top bit to `deep`.
    private var commaBits: UInt64 = 0
    private var depth = 0
    private var deep: [Bool] = []

    public init(capacity: Int = 256) { bytes.reserveCapacity(capacity) }

    private mutating func separate() {
        if commaBits & 1 != 0 { bytes.append(UInt8(ascii: ",")) }
        commaBits |= 1
    }

    private mutating func push(_ open: UInt8) {
        separate()
        bytes.append(open)
        if depth >= 63 { deep.append(commaBits >> 63 != 0) }
        commaBits <<= 1
        depth += 1
    }

    private mutating func pop(_ close: UInt8) {
        depth -= 1
        commaBits >>= 1
        if depth >= 63, let top = deep.popLast(), top { commaBits |= 1 << 63 }
        bytes.append(close)
    }

    public mutating func beginObject() { push(UInt8(ascii: "{")) }
    public mutating func endObject() { pop(UInt8(ascii: "}")) }
    public mutating func beginArray() { push(UInt8(ascii: "[")) }
    public mutating func endArray() { pop(UInt8(ascii: "]")) }

    /// A member name; the next value written is its value.
    public mutating func key(_ k: String) {
        separate()
        writeString(k)
        bytes.append(UInt8(ascii: ":"))
        commaBits &= ~1
    }

    /// A member name known at compile time to need no escaping (the wire format's own
    /// field names): copied as is.
    public mutating func key(plain k: StaticString) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        k.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.append(UInt8(ascii: "\""))
        bytes.append(UInt8(ascii: ":"))
        commaBits &= ~1
    }

    /// `"key":number`, built on the stack and appended once: the shape of every field of
    /// a frame, the hot path's bulk. Anything unusual takes the general path.
    public mutating func member(_ k: StaticString, _ v: Double) {
        guard k.utf8CodeUnitCount <= 40, v == v.rounded(), abs(v) < 9.0e15 else { key(plain: k); number(v); return }
        let comma = commaBits & 1 != 0
        commaBits |= 1
        var buffer: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &buffer) { b in
            var i = 0
            if comma { b[i] = UInt8(ascii: ","); i += 1 }
            b[i] = UInt8(ascii: "\""); i += 1
            k.withUTF8Buffer { for c in $0 { b[i] = c; i += 1 } }
            b[i] = UInt8(ascii: "\""); b[i + 1] = UInt8(ascii: ":"); i += 2
            i = Self.put(Int64(v), into: b, at: i)
            bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: b[..<i]))
        }
    }

    public mutating func string(_ s: String) { separate(); writeString(s) }
    public mutating func number(_ v: Double) { separate(); writeNumber(v) }
    public mutating func int(_ v: Int) { separate(); bytes.append(contentsOf: String(v).utf8) }
    public mutating func bool(_ b: Bool) { separate(); bytes.append(contentsOf: (b ? "true" : "false").utf8) }
    public mutating func null() { separate(); bytes.append(contentsOf: "null".utf8) }

    /// Splices a value that is already JSON text.
    public mutating func raw(_ json: [UInt8]) { separate(); bytes.append(contentsOf: json) }

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
        guard v.isFinite else { bytes.append(contentsOf: "null".utf8); return }
        if v == v.rounded(), abs(v) < 9.0e15 {
            // Formatted on the stack, then appended in one go.
            var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)
            withUnsafeMutableBytes(of: &digits) { d in
                bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: d[..<Self.put(Int64(v), into: d, at: 0)]))
            }
            return
        }
        bytes.append(contentsOf: v.description.utf8)
    }

    /// Writes `n` (|n| < 9e15: at most 17 bytes with the sign) at `i` of `b`; returns the
    /// index after it.
    private static func put(_ n: Int64, into b: UnsafeMutableRawBufferPointer, at i: Int) -> Int {
        var i = i, n = n
        if n < 0 { b[i] = UInt8(ascii: "-"); i += 1; n = -n }
        var digits = 1, m = n / 10
        while m > 0 { digits += 1; m /= 10 }
        var j = i + digits
        let end = j
        repeat { j -= 1; b[j] = UInt8(48 + n % 10); n /= 10 } while n > 0
        return end
    }

    private mutating func writeString(_ s: String) {
        bytes.append(UInt8(ascii: "\""))
        // Ids and keys rarely need escaping: copy them whole when they don't.
        var s = s
        let plain = s.withUTF8 { utf8 -> Bool in
            for c in utf8 where c < 0x20 || c == UInt8(ascii: "\"") || c == UInt8(ascii: "\\") { return false }
            bytes.append(contentsOf: utf8)
            return true
        }
        if plain { bytes.append(UInt8(ascii: "\"")); return }
        for c in s.utf8 {
            switch c {
            case UInt8(ascii: "\""): bytes.append(0x5C); bytes.append(c)
            case UInt8(ascii: "\\"): bytes.append(0x5C); bytes.append(c)
            case 0x0A: bytes.append(0x5C); bytes.append(UInt8(ascii: "n"))
            case 0x0D: bytes.append(0x5C); bytes.append(UInt8(ascii: "r"))
            case 0x09: bytes.append(0x5C); bytes.append(UInt8(ascii: "t"))
            case 0..<0x20:
                let hex: [UInt8] = Array("0123456789abcdef".utf8)
                bytes.append(contentsOf: [0x5C, UInt8(ascii: "u"), 48, 48, hex[Int(c >> 4)], hex[Int(c & 15)]])
            default: bytes.append(c)
            }
        }
        bytes.append(UInt8(ascii: "\""))
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
