/// Many constraints in flat arrays, for `ConstraintEngine.add(batch:)`: every term one
/// after another, and per constraint where its terms end, its constant, relation and
/// priority. A whole document is written into one of these rather than into one
/// `ConstraintDefinition` a constraint, each with an array of its terms to allocate, fill,
/// read once and free.
public struct ConstraintBatch: Sendable {
    public private(set) var terms: [(variable: Variable, coefficient: Double)] = []
    private var ends: [Int32] = []
    private var constants: [Double] = []
    private var relations: [Relation] = []
    private var priorities: [Double] = []

    public init() {}

    public init(_ definitions: [ConstraintDefinition]) {
        reserveCapacity(constraints: definitions.count, terms: definitions.reduce(0) { $0 + $1.expression.terms.count })
        for d in definitions {  // as they are: their terms neither merged nor filtered
            terms.append(contentsOf: d.expression.terms)
            end(constant: d.expression.constant, relation: d.relation, priority: d.priority)
        }
    }

    public var count: Int { ends.count }

    public mutating func reserveCapacity(constraints: Int, terms: Int) {
        self.terms.reserveCapacity(terms)
        ends.reserveCapacity(constraints)
        constants.reserveCapacity(constraints)
        relations.reserveCapacity(constraints)
        priorities.reserveCapacity(constraints)
    }

    /// Adds `c·v` to the constraint being written (the one `close` will finish), merged
    /// with a term of the same variable it has already.
    public mutating func add(_ v: Variable, _ c: Double) {
        let start = Int(ends.last ?? 0)
        if let k = terms[start...].firstIndex(where: { $0.variable == v }) {
            terms[k].coefficient += c
        } else {
            terms.append((v, c))
        }
    }

    /// Finishes the constraint being written: its terms are those added since the last
    /// close (less any that cancelled to 0).
    public mutating func close(constant: Double, relation: Relation, priority: Double) {
        let start = Int(ends.last ?? 0)
        if terms[start...].contains(where: { $0.coefficient == 0 }) {
            terms.replaceSubrange(start..., with: terms[start...].filter { $0.coefficient != 0 })
        }
        end(constant: constant, relation: relation, priority: priority)
    }

    private mutating func end(constant: Double, relation: Relation, priority: Double) {
        ends.append(Int32(terms.count))
        constants.append(constant)
        relations.append(relation)
        priorities.append(priority)
    }

    /// Constraint i's terms.
    public func terms(_ i: Int) -> ArraySlice<(variable: Variable, coefficient: Double)> {
        terms[(i == 0 ? 0 : Int(ends[i - 1]))..<Int(ends[i])]
    }
    public func constant(_ i: Int) -> Double { constants[i] }
    public func relation(_ i: Int) -> Relation { relations[i] }
    public func priority(_ i: Int) -> Double { priorities[i] }

    /// Constraint i on its own.
    public subscript(i: Int) -> ConstraintDefinition {
        ConstraintDefinition(LinearExpression(terms: Array(terms(i)), constant: constants[i]), relations[i], priority: priorities[i])
    }
}
