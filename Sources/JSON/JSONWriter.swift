public import CheckedNumbers
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

    /// `"key":number`: one number member.
    public mutating func member(_ k: StaticString, _ v: Double) {
        separate()
        putKey(k)
        withCursor(room: Cursor.numberRoom) { $0.number(v) }
    }

    /// `"k":` through a local cursor, after one room check.
    @inline(__always) private mutating func putKey(_ k: StaticString) {
        withCursor(room: k.utf8CodeUnitCount + 3) { c in
            c.put(UInt8(ascii: "\""))
            c.put(k)
            c.put(UInt8(ascii: "\""))
            c.put(UInt8(ascii: ":"))
        }
    }

    /// A member whose value has a shape the caller knows, written in place: `k` (escaped as
    /// needed), then `value` writes through a cursor with `room` bytes, the caller's bound.
    /// A frame is one: with its four numbers it was 1,157 instructions through `key` and four
    /// `member`s, each checking room and structure (1,000-cell feed, callgrind).
    public mutating func member(_ k: String, room: Int, _ value: (inout Cursor) -> Void) {
        separate()
        Self.withUTF8(of: k) { name in
            withCursor(room: Cursor.stringRoom(name.count) + 1 + room) { c in
                c.string(name)
                c.put(UInt8(ascii: ":"))
                value(&c)
            }
        }
    }

    /// A string's UTF-8 read where it is (a copy to take `withUTF8` was a retain and a
    /// release a frame's id).
    @inline(__always) private static func withUTF8(of s: String, _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        if s.utf8.withContiguousStorageIfAvailable(body) == nil {
            var s = s
            s.withUTF8(body)
        }
    }

    /// Writes through a cursor at the end, `room` bytes reserved.
    @inline(__always) private mutating func withCursor(room: Int, _ body: (inout Cursor) -> Void) {
        reserve(room)
        var c = Cursor(base + count)
        body(&c)
        count = c.p - base
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

    private mutating func writeNumber(_ v: Double) { withCursor(room: Cursor.numberRoom) { $0.number(v) } }

    private mutating func putInteger(_ n: Int64) { withCursor(room: Cursor.numberRoom) { $0.integer(n) } }

    private mutating func writeString(_ s: String) {
        Self.withUTF8(of: s) { utf8 in withCursor(room: Cursor.stringRoom(utf8.count)) { $0.string(utf8) } }
    }

    /// Where the writer stores bytes: a bare pointer, the room already reserved (each store
    /// is one move, no check).
    /// Inlinable: the writer's caller puts its literals and numbers in place (called, each
    /// was a third of a frame's cost).
    @frozen public struct Cursor {
        @usableFromInline var p: UnsafeMutablePointer<UInt8>
        @usableFromInline init(_ p: UnsafeMutablePointer<UInt8>) { self.p = p }

        /// The most a number takes: `Double.description`'s longest is 24 (`-2.2250738585072014e-308`).
        public static let numberRoom = 32

        /// The most a string of `n` UTF-8 bytes takes: quotes, and each byte escaped as `\u00XX`.
        public static func stringRoom(_ n: Int) -> Int { 6 * n + 2 }

        @inlinable @inline(__always) public mutating func put(_ c: UInt8) {
            p.pointee = c
            p += 1
        }

        /// A literal: copied in at most two word stores when it has 4 to 16 bytes (the
        /// frame's keys: a `memmove` call each was a third of a frame's cost).
        @inlinable @inline(__always) public mutating func put(_ s: StaticString) {
            let n = s.utf8CodeUnitCount
            guard s.hasPointerRepresentation, n >= 4, n <= 16 else {
                s.withUTF8Buffer { for c in $0 { put(c) } }
                return
            }
            let from = UnsafeRawPointer(s.utf8Start), to = UnsafeMutableRawPointer(p)
            if n >= 8 {
                to.storeBytes(of: from.loadUnaligned(as: UInt64.self), as: UInt64.self)
                (to + n - 8).storeBytes(of: (from + n - 8).loadUnaligned(as: UInt64.self), as: UInt64.self)
            } else {
                to.storeBytes(of: from.loadUnaligned(as: UInt32.self), as: UInt32.self)
                (to + n - 4).storeBytes(of: (from + n - 4).loadUnaligned(as: UInt32.self), as: UInt32.self)
            }
            p += n
        }

        /// A number: an exact integer in decimal, anything else as Swift prints it (the
        /// shortest text that reads back the same), `null` if not finite.
        @inlinable public mutating func number(_ v: Double) {
            // Exact integers small enough to print exactly in decimal: frames, mostly.
            // (A conversion and compares: `Int64(exactly:)` called `trunc`.)
            if abs(v) < 9.0e15, let n = Int64(checked: v), Double(n) == v { integer(n); return }
            guard v.isFinite else { put("null"); return }
            var text = v.description
            text.withUTF8 { b in
                p.update(from: b.baseAddress!, count: b.count)
                p += b.count
            }
        }

        /// `n` in decimal, two digits a step.
        @inlinable public mutating func integer(_ n: Int64) {
            if n < 0 { put(UInt8(ascii: "-")) }
            var u = n.magnitude
            var digits = 1, m = u
            while m >= 100 { digits += 2; m /= 100 }
            if m >= 10 { digits += 1 }
            p += digits
            var q = p
            // A literal, not a computed table: no lazy global to check on every number.
            let pairs = UnsafeRawPointer(Self.digitPairs.utf8Start)
            while u >= 100 {
                let r = Int(u % 100) * 2
                u /= 100
                q -= 2
                UnsafeMutableRawPointer(q).storeBytes(of: pairs.loadUnaligned(fromByteOffset: r, as: UInt16.self), as: UInt16.self)
            }
            if u >= 10 {
                UnsafeMutableRawPointer(q - 2).storeBytes(of: pairs.loadUnaligned(fromByteOffset: Int(u) * 2, as: UInt16.self), as: UInt16.self)
            } else {
                q[-1] = 48 + UInt8(u)
            }
        }

        /// "00", "01", ... "99": two digits a load.
        @usableFromInline static let digitPairs: StaticString = """
            00010203040506070809101112131415161718192021222324252627282930313233343536373839\
            40414243444546474849505152535455565758596061626364656667686970717273747576777879\
            8081828384858687888990919293949596979899
            """

        /// A string's UTF-8 bytes, quoted and escaped.
        public mutating func string(_ utf8: UnsafeBufferPointer<UInt8>) {
            put(UInt8(ascii: "\""))
            // Ids and keys rarely need escaping: copied and checked in one pass (no branch a
            // byte), escaped again from the start when one does.
            var special: UInt8 = 0
            for (i, c) in utf8.enumerated() {
                p[i] = c
                special |= (c < 0x20 ? 1 : 0) | (c == UInt8(ascii: "\"") ? 1 : 0) | (c == UInt8(ascii: "\\") ? 1 : 0)
            }
            if special != 0 {
                for c in utf8 { escape(c) }
            } else {
                p += utf8.count
            }
            put(UInt8(ascii: "\""))
        }

        private mutating func escape(_ c: UInt8) {
            switch c {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"): put(0x5C); put(c)
            case 0x0A: put(0x5C); put(UInt8(ascii: "n"))
            case 0x0D: put(0x5C); put(UInt8(ascii: "r"))
            case 0x09: put(0x5C); put(UInt8(ascii: "t"))
            case 0..<0x20:
                let hex: StaticString = "0123456789abcdef"
                hex.withUTF8Buffer { h in
                    for x in [0x5C, UInt8(ascii: "u"), 48, 48, h[Int(c >> 4)], h[Int(c & 15)]] { put(x) }
                }
            default: put(c)
            }
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
