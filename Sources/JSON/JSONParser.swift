import CheckedNumbers
#if canImport(Glibc)
    import Glibc
#endif

public struct JSONParseError: Error, Sendable, Equatable {
    public let offset: Int
    public let message: String
}

/// A strict RFC 8259 parser over bytes: no Foundation on the request path.
public struct JSONParser {
    // Visible to the module's inlinable reader steps (inlined into the document reader, each
    // step was a call: 10 M instructions of the 1,000-cell feed's read).
    @usableFromInline let bytes: UnsafeBufferPointer<UInt8>
    @usableFromInline var i = 0
    @usableFromInline var depth = 0
    @usableFromInline static let maxDepth = 256

    public static func parse(_ data: [UInt8]) throws(JSONParseError) -> JSON {
        try data.withUnsafeBufferPointer { (buf) throws(JSONParseError) -> JSON in
            var p = JSONParser(bytes: buf)
            p.skipSpace()
            let v = try p.value()
            p.skipSpace()
            if p.i != buf.count { throw p.fail("unexpected data after the JSON value") }
            return v
        }
    }

    public static func parse(_ text: String) throws(JSONParseError) -> JSON {
        try parse(Array(text.utf8))
    }

    private init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    @usableFromInline func fail(_ m: String) -> JSONParseError { JSONParseError(offset: i, message: m) }

    @inlinable @inline(__always) mutating func skipSpace() {
        while i < bytes.count {
            let c = bytes[i]
            if c == 0x20 || c == 0x0A || c == 0x0D || c == 0x09 { i += 1 } else { break }
        }
    }

    @usableFromInline mutating func value() throws(JSONParseError) -> JSON {
        guard i < bytes.count else { throw fail("unexpected end of input") }
        switch bytes[i] {
        case UInt8(ascii: "{"): return try object()
        case UInt8(ascii: "["): return try array()
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try number())
        default: throw fail("unexpected character")
        }
    }

    private mutating func literal(_ word: String) throws(JSONParseError) {
        for c in word.utf8 {
            guard i < bytes.count, bytes[i] == c else { throw fail("invalid literal") }
            i += 1
        }
    }

    @inlinable @inline(__always) mutating func enter() throws(JSONParseError) {
        depth += 1
        if depth > Self.maxDepth { throw fail("nesting deeper than \(Self.maxDepth)") }
    }

    private mutating func object() throws(JSONParseError) -> JSON {
        try enter()
        i += 1
        var members: [(key: String, value: JSON)] = []
        var seen = Set<String>()
        skipSpace()
        if i < bytes.count && bytes[i] == UInt8(ascii: "}") { i += 1; depth -= 1; return .object(members) }
        // Room for the usual few members at once: appending grew each object's array 1 → 2 → 4,
        // an allocation a step (1,000-cell feed: parse 50.2 → 41.5 M instructions).
        members.reserveCapacity(4)
        while true {
            skipSpace()
            guard i < bytes.count, bytes[i] == UInt8(ascii: "\"") else { throw fail("expected a member name") }
            let key = try string()
            skipSpace()
            guard i < bytes.count, bytes[i] == UInt8(ascii: ":") else { throw fail("expected ':'") }
            i += 1
            skipSpace()
            // A repeated name is refused: readers disagree on which one counts (the first,
            // the last), and a proxy and the server reading one body two ways is a smuggling
            // risk. A few members are compared in turn; a long object keeps a set.
            if members.count < 16 {
                for m in members where m.key == key { throw fail("the member name \"\(key.prefix(64))\" is repeated") }
            } else {
                if members.count == 16 { seen = Set(members.map(\.key)) }
                guard seen.insert(key).inserted else { throw fail("the member name \"\(key.prefix(64))\" is repeated") }
            }
            members.append((key, try value()))
            skipSpace()
            guard i < bytes.count else { throw fail("unexpected end of input") }
            if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
            if bytes[i] == UInt8(ascii: "}") { i += 1; depth -= 1; return .object(members) }
            throw fail("expected ',' or '}'")
        }
    }

    private mutating func array() throws(JSONParseError) -> JSON {
        try enter()
        i += 1
        var items: [JSON] = []
        skipSpace()
        if i < bytes.count && bytes[i] == UInt8(ascii: "]") { i += 1; depth -= 1; return .array(items) }
        items.reserveCapacity(4)
        while true {
            skipSpace()
            items.append(try value())
            skipSpace()
            guard i < bytes.count else { throw fail("unexpected end of input") }
            if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
            if bytes[i] == UInt8(ascii: "]") { i += 1; depth -= 1; return .array(items) }
            throw fail("expected ',' or ']'")
        }
    }

    @usableFromInline mutating func number() throws(JSONParseError) -> Double {
        let start = i
        let negative = bytes[i] == UInt8(ascii: "-")
        if negative { i += 1 }
        guard i < bytes.count else { throw fail("invalid number") }
        // The integer part's value as it is scanned (wrapping past 18 digits, where it is not used).
        var whole: Int64 = 0
        if bytes[i] == UInt8(ascii: "0") {
            i += 1
        } else if (UInt8(ascii: "1")...UInt8(ascii: "9")).contains(bytes[i]) {
            while i < bytes.count, case let d = bytes[i] &- 48, d < 10 {
                whole = whole &* 10 &+ Int64(d)
                i += 1
            }
        } else {
            throw fail("invalid number")
        }
        // Short integers need no strtod and no second pass (the common case: constants, frames,
        // sizes; ~40 instructions a number saved).
        if i - start <= 15 && (i == bytes.count || (bytes[i] != UInt8(ascii: ".") && bytes[i] | 0x20 != UInt8(ascii: "e"))) {
            return Double(negative ? -whole : whole)
        }
        if i < bytes.count && bytes[i] == UInt8(ascii: ".") {
            i += 1
            guard i < bytes.count && isDigit(bytes[i]) else { throw fail("invalid number") }
            while i < bytes.count && isDigit(bytes[i]) { i += 1 }
        }
        if i < bytes.count && (bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E")) {
            i += 1
            if i < bytes.count && (bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-")) { i += 1 }
            guard i < bytes.count && isDigit(bytes[i]) else { throw fail("invalid number") }
            while i < bytes.count && isDigit(bytes[i]) { i += 1 }
        }
        var buf = [CChar](repeating: 0, count: i - start + 1)
        for k in start..<i { buf[k - start] = CChar(bitPattern: bytes[k]) }
        let v = strtod(buf, nil)
        guard v.isFinite else { throw JSONParseError(offset: start, message: "number out of range") }
        return v
    }

    private func isDigit(_ c: UInt8) -> Bool { c >= 48 && c <= 57 }

    @usableFromInline mutating func string() throws(JSONParseError) -> String {
        i += 1
        let start = i
        // Fast path: no escapes. Only a string with a byte above ASCII needs validating; the
        // scan that looked for one was 5 M instructions of a 1,000-cell feed's 54 M parse.
        // Eight plain bytes at a time first (none a quote, a backslash, a control character or
        // beyond ASCII), then byte by byte from the first word that has one; the index is a
        // local, not the parser's field (the scan was 12.3 of the parse's 41.5 M instructions).
        var k = plainWords(from: start)
        let n = bytes.count
        var bits: UInt8 = 0
        while k < n {
            let c = bytes[k]
            if c == UInt8(ascii: "\"") {
                let text = UnsafeBufferPointer(rebasing: bytes[start..<k])
                i = k + 1
                if bits < 0x80 { return Self.asciiString(text) }
                guard let s = String(validating: text, as: UTF8.self) else {
                    throw JSONParseError(offset: start, message: "invalid UTF-8 in string")
                }
                return s
            }
            if c == UInt8(ascii: "\\") { break }
            if c < 0x20 { i = k; throw fail("control character in string") }
            bits |= c
            k += 1
        }
        i = k
        var out = [UInt8](UnsafeBufferPointer(rebasing: bytes[start..<i]))
        while i < bytes.count {
            let c = bytes[i]
            if c == UInt8(ascii: "\"") {
                i += 1
                guard let s = String(validating: out, as: UTF8.self) else { throw JSONParseError(offset: start, message: "invalid UTF-8 in string") }
                return s
            }
            if c < 0x20 { throw fail("control character in string") }
            if c != UInt8(ascii: "\\") { out.append(c); i += 1; continue }
            i += 1
            guard i < bytes.count else { break }
            let e = bytes[i]
            i += 1
            switch e {
            case UInt8(ascii: "\""): out.append(0x22)
            case UInt8(ascii: "\\"): out.append(0x5C)
            case UInt8(ascii: "/"): out.append(0x2F)
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = try hex4()
                if (0xD800...0xDBFF).contains(scalar) {
                    guard i + 1 < bytes.count, bytes[i] == UInt8(ascii: "\\"), bytes[i + 1] == UInt8(ascii: "u") else {
                        throw fail("unpaired surrogate")
                    }
                    i += 2
                    let low = try hex4()
                    guard (0xDC00...0xDFFF).contains(low) else { throw fail("unpaired surrogate") }
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                } else if (0xDC00...0xDFFF).contains(scalar) {
                    throw fail("unpaired surrogate")
                }
                out.append(contentsOf: Array(String(Character(Unicode.Scalar(scalar)!)).utf8))
            default: throw fail("invalid escape")
            }
        }
        throw fail("unterminated string")
    }

    /// Where the first quote, backslash, control character or byte beyond ASCII from k is,
    /// read eight bytes a word (or the last whole word's end): a string's plain run.
    /// Inlined: a call a string was ~0.9 M instructions of the 1,000-cell feed's 54,000.
    /// The high bit of each byte of w that is a quote, a backslash, below 0x20 or above 0x7F
    /// (exact up to the lowest: only there can a borrow start).
    @inlinable @inline(__always) static func specialBytes(_ w: UInt64) -> UInt64 {
        let quote = w ^ 0x2222_2222_2222_2222, backslash = w ^ 0x5C5C_5C5C_5C5C_5C5C
        // A byte of zero in x sets its high bit in (x - 1…) & ~x; below 0x20 likewise.
        let special =
            (quote &- 0x0101_0101_0101_0101) & ~quote | (backslash &- 0x0101_0101_0101_0101) & ~backslash
            | (w &- 0x2020_2020_2020_2020) & ~w | w
        return special & 0x8080_8080_8080_8080
    }

    @inlinable @inline(__always) func plainWords(from start: Int) -> Int {
        guard let base = bytes.baseAddress else { return start }
        var k = start
        while k + 8 <= bytes.count {
            let w = UnsafeRawPointer(base + k).loadUnaligned(as: UInt64.self)
            // The lowest flagged byte is exact (a borrow only runs up from a flagged byte): the
            // scan resumes at it, not at its word (a word's tail byte by byte was ~1.5 M
            // instructions of the 1,000-cell feed's 40,000 strings).
            let flags = Self.specialBytes(w)
            if flags != 0 { return k + flags.trailingZeroBitCount >> 3 }
            k += 8
        }
        return k
    }

    private mutating func hex4() throws(JSONParseError) -> UInt32 {
        guard i + 4 <= bytes.count else { throw fail("invalid \\u escape") }
        var v: UInt32 = 0
        for _ in 0..<4 {
            let c = bytes[i]
            let d: UInt32
            switch c {
            case 48...57: d = UInt32(c - 48)
            case 65...70: d = UInt32(c - 55)
            case 97...102: d = UInt32(c - 87)
            default: throw fail("invalid \\u escape")
            }
            v = v << 4 | d
            i += 1
        }
        return v
    }
}

// MARK: Reading in place

/// A pull reader over the same grammar: the document path walks a body's objects and arrays
/// in place, builds only what it keeps, and takes a `JSON` tree of just the values it hands
/// to the general decoders. Any error, or a shape the caller does not read in place (a name
/// with an escape), throws: the caller then parses the whole body, which answers it exactly.
extension JSONParser {
    /// Where the reader is, to come back to (an element read again as a tree).
    public struct Mark {
        @usableFromInline let i, depth: Int
        @usableFromInline init(i: Int, depth: Int) { (self.i, self.depth) = (i, depth) }
    }

    public static func reading<R, E: Error>(_ data: [UInt8], _ body: (inout JSONParser) throws(E) -> R) throws(E) -> R {
        try data.withUnsafeBufferPointer { (buf) throws(E) -> R in
            var p = JSONParser(bytes: buf)
            return try body(&p)
        }
    }

    @inlinable public var mark: Mark { Mark(i: i, depth: depth) }
    @inlinable public mutating func rewind(to m: Mark) { i = m.i; depth = m.depth }
    /// Bytes left after the reader's place: what sizes a guess of what is to come.
    @inlinable public var remaining: Int { bytes.count - i }

    /// The next byte after any space, nil at the end.
    /// (Always inlined, as are the small steps around it: calls, two a `beginObject`, were
    /// ~0.9 M instructions of the 1,000-cell feed's reading.)
    @inlinable @inline(__always) public mutating func peek() -> UInt8? {
        skipSpace()
        return i < bytes.count ? bytes[i] : nil
    }

    /// Takes `{`; true when a member follows (an empty object's `}` is taken too).
    @inlinable @inline(__always) public mutating func beginObject() throws(JSONParseError) -> Bool {
        try begin(UInt8(ascii: "{"), UInt8(ascii: "}"), "expected an object")
    }

    /// Takes `[`; true when an element follows.
    @inlinable @inline(__always) public mutating func beginArray() throws(JSONParseError) -> Bool {
        try begin(UInt8(ascii: "["), UInt8(ascii: "]"), "expected an array")
    }

    @inlinable @inline(__always) mutating func begin(_ open: UInt8, _ close: UInt8, _ expected: StaticString) throws(JSONParseError) -> Bool {
        guard peek() == open else { throw fail(expected.description) }
        try enter()
        i += 1
        if peek() == close { i += 1; depth -= 1; return false }
        return true
    }

    /// A member's name and its `:`, as the body's own bytes (valid until `reading` returns).
    /// A name with an escape or beyond ASCII throws: no name the reader compares has one.
    @inlinable public mutating func key() throws(JSONParseError) -> UnsafeBufferPointer<UInt8> {
        guard let name = readPlainString() else { throw fail("expected a member name of plain ASCII") }
        guard peek() == UInt8(ascii: ":") else { throw fail("expected ':'") }
        i += 1
        return name
    }

    /// After a member's value: true at `,` (another member follows), false at `}`.
    @inlinable @inline(__always) public mutating func nextMember() throws(JSONParseError) -> Bool {
        try next(UInt8(ascii: "}"), "expected ',' or '}'")
    }

    /// After an element: true at `,`, false at `]`.
    @inlinable @inline(__always) public mutating func nextElement() throws(JSONParseError) -> Bool {
        try next(UInt8(ascii: "]"), "expected ',' or ']'")
    }

    @inlinable @inline(__always) mutating func next(_ close: UInt8, _ expected: StaticString) throws(JSONParseError) -> Bool {
        switch peek() {
        case UInt8(ascii: ","): i += 1; return true
        case close: i += 1; depth -= 1; return false
        default: throw fail(expected.description)
        }
    }

    /// The next value, whole, as a tree.
    public mutating func readValue() throws(JSONParseError) -> JSON {
        skipSpace()
        return try value()
    }

    /// The next value, which must be a string. A plain one (an id, a name) is copied from the
    /// bytes `readPlainString` finds, inline: through `string`'s own scan it was ~110
    /// instructions more (14,000 strings in the 1,000-cell feed).
    @inlinable public mutating func readString() throws(JSONParseError) -> String {
        if let b = readPlainString() { return Self.asciiString(b) }
        guard peek() == UInt8(ascii: "\"") else { throw fail("expected a string") }
        return try string()
    }

    /// A string of these ASCII bytes, copied in as they are: `String(decoding:)` took the
    /// repairing decoder's path, ~190 instructions a short id.
    @inlinable @inline(__always) public static func asciiString(_ b: UnsafeBufferPointer<UInt8>) -> String {
        String(unsafeUninitializedCapacity: b.count) {
            _ = $0.initialize(fromContentsOf: b)
            return b.count
        }
    }

    /// The next value's bytes, when it is a string of plain ASCII (no escape, no control
    /// character): the body's own bytes, valid until `reading` returns. Nil, the reader not
    /// moved, for any other value (`readString` then reads it).
    @inlinable @inline(__always) public mutating func readPlainString() -> UnsafeBufferPointer<UInt8>? {
        guard peek() == UInt8(ascii: "\"") else { return nil }
        // A string ending within its first word (a key, a short id) read inline; a longer one by
        // the loop (a call and its setup were ~25 of the ~100 instructions of each of the
        // 1,000-cell feed's 26,000 keys).
        let start = i + 1
        if start + 8 <= bytes.count, let base = bytes.baseAddress {
            let w = UnsafeRawPointer(base + start).loadUnaligned(as: UInt64.self)
            let flags = Self.specialBytes(w)
            if flags != 0 {
                let k = start + flags.trailingZeroBitCount >> 3
                if bytes[k] == UInt8(ascii: "\"") {
                    i = k + 1
                    return UnsafeBufferPointer(rebasing: bytes[start..<k])
                }
            }
        }
        return readLongPlainString()
    }

    /// `readPlainString` past the first word: the scan, a word at a time, then byte by byte.
    @inlinable mutating func readLongPlainString() -> UnsafeBufferPointer<UInt8>? {
        let start = i + 1, n = bytes.count
        var k = plainWords(from: start)
        while k < n {
            let c = bytes[k]
            if c == UInt8(ascii: "\"") {
                i = k + 1
                return UnsafeBufferPointer(rebasing: bytes[start..<k])
            }
            if c == UInt8(ascii: "\\") || c < 0x20 || c >= 0x80 { return nil }
            k += 1
        }
        return nil
    }

    /// The next value when it is a number; nil, the reader not moved, for any other.
    @inlinable public mutating func readNumber() throws(JSONParseError) -> Double? {
        guard let c = peek(), c == UInt8(ascii: "-") || c &- 48 < 10 else { return nil }
        return try number()
    }

    /// Only space is left.
    @inlinable public mutating func finish() throws(JSONParseError) {
        if peek() != nil { throw fail("unexpected data after the JSON value") }
    }
}
