import CheckedNumbers
/// Many constraints in flat arrays, for `ConstraintEngine.add(batch:)`: every term one
/// after another, and per constraint where its terms end, its constant, relation and
/// priority. A whole document is written into one of these rather than into one
/// `ConstraintDefinition` a constraint, each with an array of its terms to allocate, fill,
/// read once and free.
public struct ConstraintBatch: Sendable {
    public var terms: [(variable: Variable, coefficient: Double)] { termStore }
    @usableFromInline var termStore: [(variable: Variable, coefficient: Double)] = []
    /// Per constraint: where its terms end, its constant, relation and priority, in one
    /// record (four arrays were four appends a constraint: ~90 instructions, 30,000
    /// constraints in the 1,000-cell feed).
    @usableFromInline var rows: [Row] = []
    /// Where the constraint being written starts in `terms` (kept: read from the last row's
    /// end, an optional, it was ~15 instructions of every term's `add`).
    @usableFromInline var start = 0
    /// Per constraint, the order conflicts break in (smaller first; UIKit's, which the layout
    /// model knows); empty: the newest of a conflicting set breaks.
    public var breakOrder: [Int64] = []

    @usableFromInline struct Row: Sendable {
        @usableFromInline var end: Int32
        @usableFromInline var relation: Relation
        @usableFromInline var constant: Double
        @usableFromInline var priority: Double
        @usableFromInline init(end: Int32, relation: Relation, constant: Double, priority: Double) {
            (self.end, self.relation, self.constant, self.priority) = (end, relation, constant, priority)
        }
    }

    public init() {}

    public init(_ definitions: [ConstraintDefinition]) {
        reserveCapacity(constraints: definitions.count, terms: definitions.reduce(0) { $0 + $1.expression.terms.count })
        for d in definitions {  // as they are: their terms neither merged nor filtered
            termStore.append(contentsOf: d.expression.terms)
            end(constant: d.expression.constant, relation: d.relation, priority: d.priority)
        }
    }

    public var count: Int { rows.count }

    public mutating func reserveCapacity(constraints: Int, terms: Int) {
        termStore.reserveCapacity(terms)
        rows.reserveCapacity(constraints)
    }

    /// Adds `c·v` to the constraint being written (the one `close` will finish), merged
    /// with a term of the same variable it has already. Inlined where a document is
    /// translated, with `close`: two calls a term were ~2 M of the 1,000-cell feed's 5 M here.
    @inlinable @inline(__always) public mutating func add(_ v: Variable, _ c: Double) {
        var k = start
        while k < termStore.count {
            if termStore[k].variable == v {
                termStore[k].coefficient += c
                return
            }
            k += 1
        }
        termStore.append((v, c))
    }

    /// Finishes the constraint being written: its terms are those added since the last
    /// close (less any that cancelled to 0).
    @inlinable @inline(__always) public mutating func close(constant: Double, relation: Relation, priority: Double) {
        var k = start
        while k < termStore.count && termStore[k].coefficient != 0 { k += 1 }
        if k < termStore.count { termStore.replaceSubrange(start..., with: termStore[start...].filter { $0.coefficient != 0 }) }
        end(constant: constant, relation: relation, priority: priority)
    }

    /// Adds `c·v` as a term of its own, unmerged: for a writer that knows no other term of the
    /// constraint has `v` and `c` is not 0 (the quick path of a document's translation).
    @inlinable @inline(__always) public mutating func append(_ v: Variable, _ c: Double) { termStore.append((v, c)) }

    /// Finishes the constraint being written, its terms as they are (`append`'s: none to drop).
    @inlinable @inline(__always) public mutating func end(constant: Double, relation: Relation, priority: Double) {
        rows.append(Row(end: Int32(termStore.count), relation: relation, constant: constant, priority: priority))
        start = termStore.count
    }

    /// Constraint i's terms.
    public func terms(_ i: Int) -> ArraySlice<(variable: Variable, coefficient: Double)> {
        terms[(i == 0 ? 0 : Int(rows[i - 1].end))..<Int(rows[i].end)]
    }
    public func constant(_ i: Int) -> Double { rows[i].constant }
    public func relation(_ i: Int) -> Relation { rows[i].relation }
    public func priority(_ i: Int) -> Double { rows[i].priority }

    /// Constraint i on its own.
    public subscript(i: Int) -> ConstraintDefinition {
        ConstraintDefinition(LinearExpression(terms: Array(terms(i)), constant: rows[i].constant), rows[i].relation, priority: rows[i].priority)
    }
}
