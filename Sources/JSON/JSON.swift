/// A JSON value that keeps object members in the order they were sent (documents are
/// returned "as sent", and error pointers follow the request's own shape).
public enum JSON: Sendable, Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSON])
    case object([(key: String, value: JSON)])

    /// Strings and keys are equal when their code points are (RFC 8259 §8.3), not by Swift's
    /// canonical equivalence: `가` and its two jamo are different text to a font, and a
    /// document changed from one to the other has changed.
    public static func == (a: JSON, b: JSON) -> Bool {
        func same(_ x: String, _ y: String) -> Bool { x.utf8.elementsEqual(y.utf8) }
        switch (a, b) {
        case (.null, .null): return true
        case let (.bool(x), .bool(y)): return x == y
        case let (.number(x), .number(y)): return x == y
        case let (.string(x), .string(y)): return same(x, y)
        case let (.array(x), .array(y)): return x == y
        case let (.object(x), .object(y)):
            return x.count == y.count && zip(x, y).allSatisfy { same($0.key, $1.key) && $0.value == $1.value }
        default: return false
        }
    }

    public subscript(key: String) -> JSON? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.key == key }?.value
    }

    public var string: String? { if case .string(let s) = self { return s }; return nil }
    public var number: Double? { if case .number(let n) = self { return n }; return nil }
    public var bool: Bool? { if case .bool(let b) = self { return b }; return nil }
    public var array: [JSON]? { if case .array(let a) = self { return a }; return nil }
    public var members: [(key: String, value: JSON)]? { if case .object(let m) = self { return m }; return nil }
    public var isNull: Bool { if case .null = self { return true }; return false }

    public var typeName: String {
        switch self {
        case .null: return "null"
        case .bool: return "boolean"
        case .number: return "number"
        case .string: return "string"
        case .array: return "array"
        case .object: return "object"
        }
    }
}

/// RFC 6901 escaping for one reference token: each `~` and `/` code point. Not Characters:
/// a `/` that a combining mark follows is one Character with it (`/\u{301}`), and went out
/// unescaped, a pointer a client splits in two.
public func jsonPointerToken(_ s: String) -> String {
    guard s.utf8.contains(where: { $0 == UInt8(ascii: "~") || $0 == UInt8(ascii: "/") }) else { return s }
    var out = String.UnicodeScalarView()
    for c in s.unicodeScalars {
        switch c {
        case "~": out += "~0".unicodeScalars
        case "/": out += "~1".unicodeScalars
        default: out.append(c)
        }
    }
    return String(out)
}
