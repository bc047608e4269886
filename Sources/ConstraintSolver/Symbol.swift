import CheckedNumbers
/// A tableau symbol. The kind lives in the low two bits so rows can sort and
/// compare symbols as plain integers; the id (upper bits) indexes per-symbol arrays.
@usableFromInline struct Symbol: Hashable, Comparable, Sendable {
    enum Kind: UInt32 {
        case external = 0  // a user variable: unrestricted
        case slack = 1  // inequality marker (and the artificial variable): >= 0
        case error = 2  // optional-constraint error: >= 0, in the objective
        case dummy = 3  // required-equality marker: always 0, never pivots
    }

    @usableFromInline let raw: UInt32

    init(id: Int32, kind: Kind) { raw = UInt32(id) << 2 | kind.rawValue }
    private init(raw: UInt32) { self.raw = raw }

    /// Marks a free row slot.
    static let invalid = Symbol(raw: .max)
    var isValid: Bool { raw != .max }

    @inlinable var id: Int32 { Int32(bitPattern: raw >> 2) }
    var index: Int { Int(raw >> 2) }
    var kind: Kind { Kind(rawValue: raw & 3)! }
    var isExternal: Bool { raw & 3 == 0 }
    var isDummy: Bool { raw & 3 == 3 }
    /// Slack and error symbols are the only ones the simplex may pivot in.
    var isPivotable: Bool { let k = raw & 3; return k == 1 || k == 2 }
    /// A restricted basic row must keep a non-negative constant.
    var isRestricted: Bool { raw & 3 != 0 }

    @usableFromInline static func < (a: Symbol, b: Symbol) -> Bool { a.raw < b.raw }
}
