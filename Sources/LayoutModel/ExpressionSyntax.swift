import CheckedNumbers
import ConstraintSolver
/// The one-line constraint syntax: `a.x == b.y * 2 + 8 @750`, `icon.width == 2 * icon.height`,
/// `title.width >= 100`. Errors name the character position.
public enum ExpressionSyntax {
    public typealias Failure = SyntaxError

    private enum Token: Equatable {
        case item(String), number(Double), op(String)
    }

    public static func parse(_ text: String) throws(Failure) -> AtomicConstraint {
        if let quick = parseQuickly(text) { return quick }
        return try parseTokens(text)
    }

    /// Every expression, through tokens: what errors come from, with their positions.
    static func parseTokens(_ text: String) throws(Failure) -> AtomicConstraint {
        let tokens = try tokenize(text)
        var i = 0
        func at(_ k: Int) -> (Token, Int)? { k < tokens.count ? tokens[k] : nil }
        func fail(_ m: String) -> Failure { Failure(position: at(i)?.1 ?? text.count, message: m) }

        guard case .item(let lhs)? = at(i)?.0 else { throw fail("expected view.attribute at the start") }
        let first: Anchor
        switch Anchor.parse(lhs) {
        case .success(let a): first = a;
        case .failure(let m): throw Failure(position: 0, message: m.message)
        }
        i += 1
        guard case .op(let r)? = at(i)?.0, let relation = Relation(rawValue: r) else { throw fail("expected ==, <= or >=") }
        i += 1

        var second: Anchor? = nil
        var multiplier = 1.0
        var constant = 0.0
        var priority = Priority.required
        var sign = 1.0
        var expectTerm = true
        while let (t, pos) = at(i) {
            if case .op("@") = t {
                i += 1
                guard case .number(let p)? = at(i)?.0 else { throw fail("expected a priority after @") }
                guard p >= 1 && p <= Priority.required else { throw fail("a priority is from 1 to 1000") }
                priority = p
                i += 1
                guard at(i) == nil else { throw fail("nothing may follow the priority") }
                break
            }
            if !expectTerm {
                guard case .op(let o) = t, o == "+" || o == "-" else { throw Failure(position: pos, message: "expected + or - between terms") }
                sign = o == "-" ? -1 : 1
                expectTerm = true
                i += 1
                continue
            }
            if case .op("-") = t { sign = -sign; i += 1; continue }
            // term := number | item | number * item | item * number | item / number
            var coefficient = sign
            var item: String? = nil
            if case .number(let n) = t {
                coefficient *= n
                i += 1
                if case .op("*")? = at(i)?.0, case .item(let s)? = at(i + 1)?.0 { item = s; i += 2 }
            } else if case .item(let s) = t {
                item = s
                i += 1
            } else {
                throw Failure(position: pos, message: "expected a number or view.attribute")
            }
            if item != nil {
                if case .op("*")? = at(i)?.0, case .number(let n)? = at(i + 1)?.0 {
                    coefficient *= n; i += 2
                } else if case .op("/")? = at(i)?.0, case .number(let n)? = at(i + 1)?.0 {
                    guard n != 0 else { throw Failure(position: at(i + 1)!.1, message: "division by zero") }
                    coefficient /= n; i += 2
                }
            }
            if let item {
                guard second == nil else { throw Failure(position: pos, message: "only one view.attribute may stand on the right") }
                switch Anchor.parse(item) {
                case .success(let a): second = a;
                case .failure(let m): throw Failure(position: pos, message: m.message)
                }
                multiplier = coefficient
            } else {
                constant += coefficient
            }
            sign = 1
            expectTerm = false
        }
        if expectTerm { throw fail("expected a number or view.attribute after \(relation.rawValue)") }
        return AtomicConstraint(first: first, relation: relation, second: second, multiplier: multiplier, constant: constant, priority: priority)
    }

    /// ASCII text (the usual case) is tokenized as bytes: `Character` classification costs a
    /// Unicode property lookup per character and was 18% of building a 1,000-cell session.
    /// Other text keeps the Character path, so ids in any script and positions (in
    /// characters) are as before.
    private static func tokenize(_ text: String) throws(Failure) -> [(Token, Int)] {
        var text = text
        if let ascii = text.withUTF8({ b in bytesAreCharacters(b) ? Array(b) : nil }) { return try tokenize(ascii) }
        return try tokenize(Array(text))
    }

    private static func tokenize<U: TokenUnit>(_ c: [U]) throws(Failure) -> [(Token, Int)] {
        var out: [(Token, Int)] = []
        out.reserveCapacity(8)
        var i = 0
        while i < c.count {
            let ch = c[i]
            if ch == U.space || ch == U.tab { i += 1; continue }
            let start = i
            if ch.isDigit || (ch == U.dot && i + 1 < c.count && c[i + 1].isDigit) {
                while i < c.count && (c[i].isDigit || c[i] == U.dot) { i += 1 }
                if i < c.count && (c[i] == U.lowerE || c[i] == U.upperE) {
                    i += 1
                    if i < c.count && (c[i] == U.plus || c[i] == U.minus) { i += 1 }
                    while i < c.count && c[i].isDigit { i += 1 }
                }
                guard let v = Double(U.string(c[start..<i])) else { throw Failure(position: start, message: "invalid number") }
                out.append((.number(v), start))
            } else if ch.isLetter || ch == U.underscore {
                while i < c.count
                    && (c[i].isLetter || c[i].isDigit || c[i] == U.underscore || c[i] == U.dot
                        || (c[i] == U.minus && i + 1 < c.count && (c[i + 1].isLetter || c[i + 1].isDigit)))
                { i += 1 }
                out.append((.item(U.string(c[start..<i])), start))
            } else if ch == U.equal || ch == U.less || ch == U.greater {
                guard i + 1 < c.count && c[i + 1] == U.equal else { throw Failure(position: i, message: "expected ==, <= or >=") }
                out.append((.op(U.string(c[i...i + 1])), start))
                i += 2
            } else if ch == U.plus || ch == U.minus || ch == U.star || ch == U.slash || ch == U.at {
                out.append((.op(U.string(c[i...i])), start))
                i += 1
            } else {
                throw Failure(position: i, message: "unexpected character '\(U.string(c[i...i]))'")
            }
        }
        return out
    }
}

/// Whether a text's bytes are its Characters one for one, so that a position counted in bytes
/// is one in characters: ASCII and no CR (CR LF is one Character; a format with one reported
/// an error past its end, found by the vfl fuzz target).
func bytesAreCharacters(_ bytes: some Sequence<UInt8>) -> Bool { bytes.allSatisfy { $0 < 0x80 && $0 != 0x0D } }

/// `[+|-]digits[.digits]` of at most 15 ASCII digits, with a digit after its dot if it has
/// one: M / 10ᵏ with M and 10ᵏ exact, so one division rounds it exactly as `Double(String)`
/// does, with no string made. Anything else (longer, an exponent, another script): nil.
func exactDecimal<C: Collection>(_ units: C) -> Double? where C.Element: TokenUnit {
    var k = units.startIndex
    let negative = k != units.endIndex && units[k] == .minus
    if negative || (k != units.endIndex && units[k] == .plus) { k = units.index(after: k) }
    var mantissa: Int64 = 0, digits = 0, fraction = 0, seenDot = false
    while k != units.endIndex {
        if let d = units[k].asciiDigit {
            digits += 1
            guard digits <= 15 else { return nil }
            mantissa = mantissa * 10 + d
            if seenDot { fraction += 1 }
        } else if units[k] == .dot && !seenDot {
            seenDot = true
        } else {
            return nil
        }
        k = units.index(after: k)
    }
    guard digits > 0, !seenDot || fraction > 0 else { return nil }
    // A whole number (most are) reads no table: a global's first-use check and a division saved.
    let v = fraction == 0 ? Double(mantissa) : Double(mantissa) / powersOfTen[fraction]
    return negative ? -v : v
}

private let powersOfTen: [Double] = (0...15).map { k in (0..<k).reduce(1.0) { r, _ in r * 10 } }

/// What the expression tokenizer reads: ASCII bytes or Characters, classified alike.
protocol TokenUnit: Equatable {
    var isDigit: Bool { get }
    /// The value of an ASCII digit (0…9), else nil.
    var asciiDigit: Int64? { get }
    var isLetter: Bool { get }
    static func string(_ s: ArraySlice<Self>) -> String
    static func unit(_ c: Unicode.Scalar) -> Self
}

extension TokenUnit {
    static var space: Self { unit(" ") }
    static var tab: Self { unit("\t") }
    static var dot: Self { unit(".") }
    static var underscore: Self { unit("_") }
    static var lowerE: Self { unit("e") }
    static var upperE: Self { unit("E") }
    static var plus: Self { unit("+") }
    static var minus: Self { unit("-") }
    static var star: Self { unit("*") }
    static var slash: Self { unit("/") }
    static var at: Self { unit("@") }
    static var equal: Self { unit("=") }
    static var less: Self { unit("<") }
    static var greater: Self { unit(">") }
}

extension UInt8: TokenUnit {
    static func unit(_ c: Unicode.Scalar) -> UInt8 { UInt8(ascii: c) }
    var isDigit: Bool { self &- 48 < 10 }
    var asciiDigit: Int64? { self &- 48 < 10 ? Int64(self &- 48) : nil }
    var isLetter: Bool { (self | 0x20) &- 97 < 26 }
    static func string(_ s: ArraySlice<UInt8>) -> String { String(decoding: s, as: UTF8.self) }
}

extension Character: TokenUnit {
    static func unit(_ c: Unicode.Scalar) -> Character { Character(c) }
    var isDigit: Bool { isNumber }
    var asciiDigit: Int64? { asciiValue?.asciiDigit }
    static func string(_ s: ArraySlice<Character>) -> String { String(s) }
}
