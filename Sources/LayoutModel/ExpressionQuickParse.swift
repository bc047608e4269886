import CheckedNumbers
import ConstraintSolver

/// The common expression read straight from its bytes, with no tokens and no strings but the
/// view names: ASCII, `view.attr op [term (+|-) term …] [@priority]`, each term `view.attr`,
/// `number`, `number * view.attr`, `view.attr * number` or `view.attr / number`. Anything
/// else (another script, an exponent, a number of more than 15 digits, any error) answers
/// nil, and the tokenizing parser then gives the same constraint or the error with its
/// position. The tokenizer's path cost 7.4 K instructions an expression (1,000-cell feed).
extension ExpressionSyntax {
    static func parseQuickly(_ text: String) -> AtomicConstraint? {
        guard let c = parts(text, names: StringNames()) else { return nil }
        return AtomicConstraint(
            first: Anchor(view: c.first, attribute: c.firstAttribute), relation: c.relation,
            second: c.second.map { Anchor(view: $0.view, attribute: $0.attribute) }, multiplier: c.multiplier,
            constant: c.constant, priority: c.priority)
    }

    /// The quick parse, its views named by `names` (nil where `names` knows a view not).
    static func parts<N: QuickNames>(_ text: String, names: N) -> ConstraintParts<N.View>? {
        var text = text
        return text.withUTF8 { parts(bytes: $0, names: names) }
    }

    static func parts<N: QuickNames>(bytes: UnsafeBufferPointer<UInt8>, names: N) -> ConstraintParts<N.View>? {
        var parser = QuickParser(bytes: bytes, names: names)
        return parser.parse()
    }
}

/// What the quick parser makes of a view's name, from its bytes: a `String`, or the view's
/// ref in a document (no string at all).
protocol QuickNames {
    associatedtype View
    func view(_ name: UnsafeBufferPointer<UInt8>) -> View?
}

private struct StringNames: QuickNames {
    func view(_ name: UnsafeBufferPointer<UInt8>) -> String? { String(decoding: name, as: UTF8.self) }
}

private struct QuickParser<Names: QuickNames> {
    let b: UnsafeBufferPointer<UInt8>
    let names: Names
    var i = 0

    init(bytes: UnsafeBufferPointer<UInt8>, names: Names) { (b, self.names) = (bytes, names) }

    mutating func parse() -> ConstraintParts<Names.View>? {
        guard let first = anchor() else { return nil }
        skipSpaces()
        guard i + 1 < b.count, b[i + 1] == UInt8(ascii: "=") else { return nil }
        let relation: Relation
        switch b[i] {
        case UInt8(ascii: "="): relation = .equal
        case UInt8(ascii: "<"): relation = .lessOrEqual
        case UInt8(ascii: ">"): relation = .greaterOrEqual
        default: return nil
        }
        i += 2
        var second: (view: Names.View, attribute: Attribute)? = nil
        var multiplier = 1.0, constant = 0.0, priority = Priority.required
        var sign = 1.0
        var expectTerm = true
        while true {
            skipSpaces()
            guard i < b.count else { break }
            let c = b[i]
            if c == UInt8(ascii: "@") {
                i += 1
                guard let p = number(), p >= 1 && p <= Priority.required else { return nil }
                skipSpaces()
                guard i == b.count else { return nil }
                priority = p
                break
            }
            if !expectTerm {
                guard c == UInt8(ascii: "+") || c == UInt8(ascii: "-") else { return nil }
                sign = c == UInt8(ascii: "-") ? -1 : 1
                expectTerm = true
                i += 1
                continue
            }
            if c == UInt8(ascii: "-") {
                sign = -sign
                i += 1
                continue
            }
            var coefficient = sign
            var item: (view: Names.View, attribute: Attribute)? = nil
            if c.isDigit || c == UInt8(ascii: ".") {
                guard let n = number() else { return nil }
                coefficient *= n
                if consume(UInt8(ascii: "*")) {
                    guard let a = anchor() else { return nil }
                    item = a
                }
            } else {
                guard let a = anchor() else { return nil }
                item = a
            }
            if item != nil {
                // `*` or `/` next, spaces looked past once (the loop skips them anyway).
                skipSpaces()
                if i < b.count && b[i] == UInt8(ascii: "*") {
                    i += 1
                    guard let n = number() else { return nil }
                    coefficient *= n
                } else if i < b.count && b[i] == UInt8(ascii: "/") {
                    i += 1
                    guard let n = number(), n != 0 else { return nil }
                    coefficient /= n
                }
            }
            if let item {
                guard second == nil else { return nil }
                second = item
                multiplier = coefficient
            } else {
                constant += coefficient
            }
            sign = 1
            expectTerm = false
        }
        guard !expectTerm else { return nil }
        return ConstraintParts(
            first: first.view, firstAttribute: first.attribute, relation: relation, second: second, multiplier: multiplier,
            constant: constant, priority: priority)
    }

    mutating func skipSpaces() {
        while i < b.count && (b[i] == UInt8(ascii: " ") || b[i] == UInt8(ascii: "\t")) { i += 1 }
    }

    /// The operator `op` next (after spaces), consumed; else nothing moves.
    mutating func consume(_ op: UInt8) -> Bool {
        let start = i
        skipSpaces()
        guard i < b.count && b[i] == op else {
            i = start
            return false
        }
        i += 1
        return true
    }

    /// An item as the tokenizer reads it (a letter or `_`, then letters, digits, `_`, `.`, and
    /// `-` before a letter or digit), split at its last dot.
    mutating func anchor() -> (view: Names.View, attribute: Attribute)? {
        skipSpaces()
        guard i < b.count, b[i].isLetter || b[i] == UInt8(ascii: "_") else { return nil }
        let start = i
        var dot: Int
        (i, dot) = b.nameRun(from: i)
        while i < b.count {
            let c = b[i]
            if c.isWordByte {
                i += 1
            } else if c == UInt8(ascii: ".") {
                dot = i
                i += 1
            } else if c == UInt8(ascii: "-") && i + 1 < b.count && (b[i + 1].isLetter || b[i + 1].isDigit) {
                i += 1
            } else {
                break
            }
        }
        guard dot > start, let a = Attribute(bytes: UnsafeBufferPointer(rebasing: b[dot + 1..<i])),
            let view = names.view(UnsafeBufferPointer(rebasing: b[start..<dot]))
        else { return nil }
        return (view, a)
    }

    /// A decimal (`exactDecimal`) of digits and at most one dot; one followed by another dot or
    /// an exponent: nil.
    mutating func number() -> Double? {
        skipSpaces()
        let start = i
        var seenDot = false
        while i < b.count, b[i].isDigit || (b[i] == UInt8(ascii: ".") && !seenDot) {
            if b[i] == UInt8(ascii: ".") { seenDot = true }
            i += 1
        }
        if i < b.count, b[i] == UInt8(ascii: ".") || b[i] | 0x20 == UInt8(ascii: "e") { return nil }
        return exactDecimal(b[start..<i])
    }
}

extension UnsafeBufferPointer<UInt8> {
    /// From `k`, the run of ASCII letters, digits, `_` and `.` read eight bytes at a time: where
    /// it stops (at its first other byte, or a word before the end: the byte loop goes on from
    /// there) and its last dot (-1: none). Byte by byte, a name was ~11 instructions a byte
    /// (320,000 name bytes in the 1,000-cell feed's expressions).
    @inline(__always) func nameRun(from start: Int) -> (end: Int, dot: Int) {
        guard let base = baseAddress else { return (start, -1) }
        let ones: UInt64 = 0x0101_0101_0101_0101, high: UInt64 = 0x8080_8080_8080_8080
        var k = start, dot = -1
        while k + 8 <= count {
            let w = UnsafeRawPointer(base + k).loadUnaligned(as: UInt64.self)
            // Per byte, exact below the first byte at or above 0x80 (only such a byte carries
            // into the next, and it stops the run): x in lo...hi sets the byte's high bit.
            func within(_ x: UInt64, _ lo: UInt8, _ hi: UInt8) -> UInt64 { (x &+ UInt64(0x80 - lo) &* ones) & ~(x &+ UInt64(0x7F - hi) &* ones) }
            let x = w | 0x2020_2020_2020_2020  // letters lowered; `_` becomes 0x7F (as DEL does)
            let control = (w &- 0x2020_2020_2020_2020) & ~w  // below 0x20: 0x0E reads as a dot, 0x10… as digits
            let dots = within(x, 0x2E, 0x2E) & ~control
            let run = (within(x, 0x61, 0x7A) | within(x, 0x30, 0x39) & ~control | dots | within(w, 0x5F, 0x5F)) & ~w & high
            let stop = ~run & high
            let n = stop == 0 ? 8 : stop.trailingZeroBitCount >> 3
            let before = n == 8 ? dots & high : dots & high & ((1 << (UInt64(n) << 3)) &- 1)
            if before != 0 { dot = k + (63 - before.leadingZeroBitCount) >> 3 }
            k += n
            if n < 8 { break }
        }
        return (k, dot)
    }
}

extension UInt8 {
    /// An ASCII letter, digit or `_`: one bit of a 128-bit mask, where three tests a byte were
    /// ~14 instructions (264,000 name bytes in the 1,000-cell feed's expressions).
    @inline(__always) var isWordByte: Bool {
        let mask: UInt64 = self < 64 ? 0x03FF_0000_0000_0000 : 0x07FF_FFFE_87FF_FFFE
        return self < 128 && (mask >> UInt64(self & 63)) & 1 != 0
    }
}

extension Attribute {
    /// The attribute its name's bytes spell, if any: the one name its length and first byte
    /// (and, between the centers, its seventh) allow, then compared in full (a scan of packed
    /// names was ~170 instructions an anchor; 22,000 anchors in the 1,000-cell feed). Compared
    /// with the name's static bytes: the raw value as a `String` was ~80 instructions more.
    init?(bytes b: UnsafeBufferPointer<UInt8>) {
        guard b.count >= 3 else { return nil }
        let candidate: Attribute, name: StaticString
        switch (b.count, b[0]) {
        case (3, UInt8(ascii: "t")): (candidate, name) = (.top, "top")
        case (4, UInt8(ascii: "l")): (candidate, name) = (.left, "left")
        case (5, UInt8(ascii: "r")): (candidate, name) = (.right, "right")
        case (5, UInt8(ascii: "w")): (candidate, name) = (.width, "width")
        case (6, UInt8(ascii: "b")): (candidate, name) = (.bottom, "bottom")
        case (6, UInt8(ascii: "h")): (candidate, name) = (.height, "height")
        case (7, UInt8(ascii: "l")): (candidate, name) = (.leading, "leading")
        case (7, UInt8(ascii: "c")): (candidate, name) = b[6] == UInt8(ascii: "X") ? (.centerX, "centerX") : (.centerY, "centerY")
        case (8, UInt8(ascii: "t")): (candidate, name) = (.trailing, "trailing")
        case (9, UInt8(ascii: "t")): (candidate, name) = (.topMargin, "topMargin")
        case (10, UInt8(ascii: "l")): (candidate, name) = (.leftMargin, "leftMargin")
        case (11, UInt8(ascii: "r")): (candidate, name) = (.rightMargin, "rightMargin")
        case (12, UInt8(ascii: "l")): (candidate, name) = (.lastBaseline, "lastBaseline")
        case (12, UInt8(ascii: "b")): (candidate, name) = (.bottomMargin, "bottomMargin")
        case (13, UInt8(ascii: "f")): (candidate, name) = (.firstBaseline, "firstBaseline")
        case (13, UInt8(ascii: "l")): (candidate, name) = (.leadingMargin, "leadingMargin")
        case (14, UInt8(ascii: "t")): (candidate, name) = (.trailingMargin, "trailingMargin")
        case (20, UInt8(ascii: "c")):
            (candidate, name) =
                b[6] == UInt8(ascii: "X") ? (.centerXWithinMargins, "centerXWithinMargins") : (.centerYWithinMargins, "centerYWithinMargins")
        default: return nil
        }
        guard b.spells(name) else { return nil }
        self = candidate
    }
}
