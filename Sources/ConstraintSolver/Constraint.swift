/// A user variable. The solver hands these out; the layer above names them.
public struct Variable: Hashable, Comparable, Sendable {
    @usableFromInline let symbol: Symbol
    /// Inlined, with `==`, where the layer above reads variables (a call each was ~10
    /// instructions of every term a document's translation merges).
    @inlinable public var id: Int32 { symbol.id }
    @inlinable public static func == (a: Variable, b: Variable) -> Bool { a.symbol.raw == b.symbol.raw }
    public static func < (a: Variable, b: Variable) -> Bool { a.symbol < b.symbol }
}

public enum Relation: String, Sendable {
    case equal = "=="
    case lessOrEqual = "<="
    case greaterOrEqual = ">="
}

/// `Σ coefficient·variable + constant`.
public struct LinearExpression: Sendable {
    public var terms: [(variable: Variable, coefficient: Double)]
    public var constant: Double

    public init(_ terms: [(Variable, Double)] = [], constant: Double = 0) {
        self.terms = terms.map { (variable: $0.0, coefficient: $0.1) }
        self.constant = constant
    }

    /// Takes the terms as they are (no copy).
    public init(terms: [(variable: Variable, coefficient: Double)], constant: Double = 0) {
        self.terms = terms
        self.constant = constant
    }
}

public enum Priority {
    public static let required: Double = 1000
}

/// `expression relation 0` at a priority in 1…1000 (1000 = required).
public struct ConstraintDefinition: Sendable {
    public var expression: LinearExpression
    public var relation: Relation
    public var priority: Double

    public init(_ expression: LinearExpression, _ relation: Relation, priority: Double = Priority.required) {
        self.expression = expression
        self.relation = relation
        self.priority = priority
    }

    public var isRequired: Bool { priority >= Priority.required }
}

/// The solver's name for an added constraint; stable until removed.
public struct ConstraintHandle: Hashable, Comparable, Sendable {
    public let raw: Int32
    /// A handle the engine gave, from its `raw` (a caller may store handles packed).
    public init(raw: Int32) { self.raw = raw }
    public static func < (a: ConstraintHandle, b: ConstraintHandle) -> Bool { a.raw < b.raw }
}

/// Where a constraint stands in the engine.
public enum ConstraintState: Equatable, Sendable {
    case active
    /// Required, but satisfied already by the others: it adds no row. Kept so it can be
    /// enforced again when what made it redundant goes away.
    case redundant
    /// Required, but in conflict with the others: broken so the engine could go on.
    case broken(conflicts: [ConstraintHandle])
}
