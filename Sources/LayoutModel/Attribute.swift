import CheckedNumbers
public import ConstraintSolver
/// The attributes of the contract and the anchor rules between them.
public enum Attribute: String, Sendable, CaseIterable {
    case left, right, top, bottom, leading, trailing, width, height, centerX, centerY
    case firstBaseline, lastBaseline
    case leftMargin, rightMargin, topMargin, bottomMargin, leadingMargin, trailingMargin
    case centerXWithinMargins, centerYWithinMargins

    public var axis: Axis {
        switch self {
        case .left, .right, .leading, .trailing, .width, .centerX, .leftMargin, .rightMargin,
            .leadingMargin, .trailingMargin, .centerXWithinMargins:
            return .horizontal
        default:
            return .vertical
        }
    }

    /// (Inlined, as is `resolved`: a call each, twice an atom in the translation.)
    @inline(__always) public var isDimension: Bool { self == .width || self == .height }

    /// leading/trailing (and their margins) follow the layout direction.
    public var isDirectional: Bool {
        self == .leading || self == .trailing || self == .leadingMargin || self == .trailingMargin
    }

    /// left/right (and their margins) are absolute.
    public var isAbsoluteHorizontal: Bool {
        self == .left || self == .right || self == .leftMargin || self == .rightMargin
    }

    /// The absolute attribute a directional one stands for in a direction.
    @inline(__always) func resolved(_ d: LayoutDirection) -> Attribute {
        switch (self, d) {
        case (.leading, .ltr): return .left
        case (.trailing, .ltr): return .right
        case (.leading, .rtl): return .right
        case (.trailing, .rtl): return .left
        case (.leadingMargin, .ltr): return .leftMargin
        case (.trailingMargin, .ltr): return .rightMargin
        case (.leadingMargin, .rtl): return .rightMargin
        case (.trailingMargin, .rtl): return .leftMargin
        default: return self
        }
    }
}

/// `view.attribute`.
public struct Anchor: Equatable, Hashable, Sendable, CustomStringConvertible {
    public var view: String
    public var attribute: Attribute
    public init(view: String, attribute: Attribute) { self.view = view; self.attribute = attribute }
    public var description: String { "\(view).\(attribute.rawValue)" }

    /// Parses `view.attribute`; nil with a reason when malformed.
    /// Read as UTF-8 ('.' is ASCII): a Character scan for it was a tenth of decoding a document.
    static func parse(_ s: String) -> Result<Anchor, SyntaxError> {
        guard let dot = s.utf8.lastIndex(of: UInt8(ascii: ".")) else {
            return .failure(SyntaxError(position: 0, message: "'\(s)' is not of the form view.attribute"))
        }
        let view = String(s[..<dot]), attr = String(s[s.utf8.index(after: dot)...])
        guard !view.isEmpty else { return .failure(SyntaxError(position: 0, message: "'\(s)' names no view")) }
        guard let a = Attribute(rawValue: attr) else { return .failure(SyntaxError(position: 0, message: "unknown attribute '\(attr)' in '\(s)'")) }
        return .success(Anchor(view: view, attribute: a))
    }
}

/// The engine's relation is the document's: one enum for both.
public typealias Relation = ConstraintSolver.Relation

/// One engine constraint in layout terms: `first relation multiplier × second + constant`.
public struct AtomicConstraint: Hashable, Sendable {
    public var first: Anchor
    public var relation: Relation
    public var second: Anchor?
    public var multiplier: Double
    public var constant: Double
    public var priority: Double

    public init(
        first: Anchor, relation: Relation, second: Anchor?, multiplier: Double = 1, constant: Double = 0, priority: Double = Priority.required
    ) {
        self.first = first; self.relation = relation; self.second = second
        self.multiplier = multiplier; self.constant = constant; self.priority = priority
    }

    /// The anchor rules of typed layout anchors; a reason when broken.
    func anchorRuleViolation() -> String? {
        guard let rule = AnchorRule.broken(first.attribute, second?.attribute, multiplier: multiplier) else { return nil }
        switch rule {
        case .locationTimesZero: return "a multiplier of 0 leaves the location \(first) with only a constant"
        case .locationAlone: return "the location \(first) needs a second item: a location cannot be given only a constant"
        case .locationToDimension: return "\(first) and \(second!): a location cannot be related to a dimension"
        case .otherAxis: return "\(first) and \(second!): a location cannot be related to a location of the other axis"
        case .mixedDirections: return "\(first) and \(second!): leading/trailing cannot be mixed with left/right in one constraint"
        }
    }

    public var description: String {
        var s = "\(first) \(relation.rawValue)"
        if let second {
            if multiplier != 1 { s += " \(fmt(multiplier)) *" }
            s += " \(second)"
            if constant > 0 { s += " + \(fmt(constant))" } else if constant < 0 { s += " - \(fmt(-constant))" }
        } else {
            s += " \(fmt(constant))"
        }
        if priority < Priority.required { s += " @\(fmt(priority))" }
        return s
    }
}

func fmt(_ v: Double) -> String {
    if v == v.rounded() && abs(v) < 1e15, let n = Int64(checked: v) { return String(n) }
    return String(v)
}

/// A constraint's parts, its views as names or as refs: `first relation multiplier × second + constant`.
struct ConstraintParts<View> {
    var first: View
    var firstAttribute: Attribute
    var relation: Relation
    var second: (view: View, attribute: Attribute)?
    var multiplier: Double
    var constant: Double
    var priority: Double
}

/// The anchor rules of typed layout anchors: a location needs a second item (times a nonzero
/// multiplier) of its own kind and axis, and leading/trailing never meet left/right.
enum AnchorRule {
    case locationAlone, locationTimesZero, locationToDimension, otherAxis, mixedDirections

    /// The rule a constraint between these attributes breaks, if any (`b` nil: no second item).
    static func broken(_ a: Attribute, _ b: Attribute?, multiplier: Double) -> AnchorRule? {
        guard let b, multiplier != 0 else {
            if !a.isDimension { return multiplier == 0 && b != nil ? .locationTimesZero : .locationAlone }
            return nil
        }
        if a.isDimension != b.isDimension { return .locationToDimension }
        if !a.isDimension && a.axis != b.axis { return .otherAxis }
        if (a.isDirectional && b.isAbsoluteHorizontal) || (a.isAbsoluteHorizontal && b.isDirectional) { return .mixedDirections }
        return nil
    }
}
