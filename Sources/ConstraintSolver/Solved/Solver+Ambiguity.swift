import CheckedNumbers
import WorkBudget
/// Whether a variable's value is determined, and another optimal solution when not.
///
/// A variable is ambiguous when some parametric symbol in its row (or the variable
/// itself, when parametric) has zero cost in every priority level (dual degeneracy)
/// and can move by a positive step without making a restricted row negative.
extension Solver {
    /// A move shorter than this is no move (a degenerate vertex, not another solution).
    static let stepTolerance = 1e-7

    /// How far a parametric symbol can move in `sign` direction before a restricted row
    /// would turn negative (∞ when nothing limits it).
    private func step(_ s: Symbol, sign: Double, constants: [Int32: Double]) -> Double {
        var t = Double.infinity
        columns[s.index].forEach { slot in
            let i = Int(slot)
            guard basicOf[i].isRestricted else { return }
            let c = rows[i].coefficient(for: s) * sign
            if c < 0 { t = min(t, max(0, constants[slot] ?? rows[i].constant) / -c) }
        }
        return t
    }

    /// A zero-cost move that changes `v`: the symbol to move and the signed step.
    private func freeDirection(_ v: Symbol, constants: [Int32: Double] = [:]) -> (Symbol, Double)? {
        // Runs for every variable a change touched: no arrays built on the way.
        func tryMove(_ s: Symbol) -> (Symbol, Double)? {
            guard !s.isDummy && objective.isZero(s) else { return nil }
            let t = step(s, sign: 1, constants: constants)
            if t > Self.stepTolerance { return (s, t) }
            guard s.isExternal else { return nil }
            let back = step(s, sign: -1, constants: constants)
            return back > Self.stepTolerance ? (s, -back) : nil
        }
        let slot = rowOf[v.index]
        guard slot >= 0 else { return tryMove(v) }
        let cells = rows[Int(slot)].cells
        for cell in cells { if let found = tryMove(cell.symbol) { return found } }
        return nil
    }

    private func refreshAmbiguity() {
        flushMoves()
        var done = 0
        for id in ambiguityPending {
            // A verdict walks the columns of the variable's row: on a long chain each is long
            // (n² in all). Past the request's budget the rest wait, and the work is not an answer.
            if done & 63 == 63 && WorkBudget.exhausted() { break }
            done += 1
            let i = Int(id)
            ambiguityFlag[i] = false
            guard i < rowOf.count, constraintsOf.count > i else { continue }
            let s = Symbol(id: id, kind: .external)
            if reported.count > i, freeDirection(s) != nil { ambiguousIds.insert(id) } else { ambiguousIds.remove(id) }
        }
        if done == ambiguityPending.count { ambiguityPending.removeAll(keepingCapacity: true) } else { ambiguityPending.removeFirst(done) }
    }

    /// The variables that another optimal solution would move. Kept up to date from the
    /// rows changes touched, so the cost follows the change.
    public func ambiguousVariables() -> [Variable] {
        refreshAmbiguity()
        guard !ambiguousIds.isEmpty else { return [] }
        return ambiguousIds.elements.sorted().map { Variable(symbol: Symbol(id: $0, kind: .external)) }
    }

    /// Whether anything is ambiguous or broken: the common answer, no, costs no arrays.
    public var hasDiagnostics: Bool {
        refreshAmbiguity()
        return !ambiguousIds.isEmpty || !dormant.isEmpty
    }

    func isAmbiguous(_ v: Variable) -> Bool {
        refreshAmbiguity()
        return ambiguousIds.contains(v.id)
    }

    /// Another optimal solution that moves the given ambiguous variables (Auto Layout's
    /// `exerciseAmbiguityInLayout`): each free direction is followed in turn, at most
    /// `maxStep`, against the constants the previous moves left. Only moved variables
    /// are returned; the engine itself is not changed.
    public func alternativeValues(for variables: [Variable], maxStep: Double = 20) -> [Variable: Double] {
        var constants: [Int32: Double] = [:]
        var parametric: [Int32: Double] = [:]
        for v in variables {
            guard let (s, t0) = freeDirection(v.symbol, constants: constants) else { continue }
            let t = t0.isInfinite ? maxStep : (t0 > 0 ? min(t0, maxStep) : max(t0, -maxStep))
            if s.isExternal { parametric[s.id, default: 0] += t }
            columns[s.index].forEach { slot in
                let i = Int(slot)
                constants[slot] = (constants[slot] ?? rows[i].constant) + rows[i].coefficient(for: s) * t
            }
        }
        var out: [Variable: Double] = [:]
        for (id, value) in parametric { out[Variable(symbol: Symbol(id: id, kind: .external))] = value }
        for (slot, value) in constants where basicOf[Int(slot)].isExternal {
            out[Variable(symbol: basicOf[Int(slot)])] = value
        }
        return out
    }
}
