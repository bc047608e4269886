/// Which user variables are not unique over the optimal face. Its directions at the current
/// vertex come from the movable nonbasic columns (free: both signs; restricted with a zero
/// reduced cost at every level: up), each moving the basics along −B⁻¹·a_j. A degenerate
/// basic (restricted at 0, or an artificial) blocks a direction unless an already realised
/// combination strictly increases it (a greedy fixed point). Unused variables count.
///
/// The verdicts are kept until something they depend on changes: a pivot, a row added or
/// removed, a restricted basic reaching or leaving 0. A set-constant that moves values
/// without crossing a limit (a drag, the usual case) keeps them.
struct AmbiguityVerdict {
    var ambiguous: [Variable]
    /// The realised directions: the moving column, its sign, and B⁻¹·a by step.
    var directions: [(column: Int, sign: Double, entries: [Entry])]
}

extension FactoredSolver {
    func ambiguity(tolerance: Double = 1e-9) -> AmbiguityVerdict {
        if let cached = ambiguityCache { return cached }
        var blocking: [Int: Bool] = [:]   // step → equality (true) or ≥ 0 (false)
        for k in 0..<basis.stepCount {
            let v = basis.columnOfStep[k]
            if kind[v] == .fixed { blocking[k] = true } else if (kind[v] == .slack || kind[v] == .error) && value[v] <= Self.eps { blocking[k] = false }
        }
        var ambiguous = Set<Int>()
        var directions: [(column: Int, sign: Double, entries: [Entry])] = []
        for j in kind.indices where !basis.isBasic(j) && kind[j] != .fixed && kind[j] != .dead {
            if columnRows[j].isEmpty {
                if isUser[j] { ambiguous.insert(j) }
                continue
            }
            guard lexSign(j) == 0 else { continue }
            basis.ftran(columnRows[j], into: &columnWork)
            let entries = columnWork.entries()
            for sign in kind[j] == .free ? [1.0, -1.0] : [1.0] { directions.append((j, sign, entries)) }
        }
        var raised = Set<Int>()
        var realised: [(column: Int, sign: Double, entries: [Entry])] = []
        while true {
            var rest: [(column: Int, sign: Double, entries: [Entry])] = []
            var progress = false
            for d in directions {
                let blocked = d.entries.contains { k, a in
                    guard let equality = blocking[k], abs(a) > tolerance else { return false }
                    return equality || (-d.sign * a < 0 && !raised.contains(k))
                }
                if blocked { rest.append(d); continue }
                realised.append(d)
                for (k, a) in d.entries where blocking[k] == false && -d.sign * a > tolerance { raised.insert(k) }
                progress = true
            }
            directions = rest
            if !progress || directions.isEmpty { break }
        }
        for d in realised {
            if isUser[d.column] { ambiguous.insert(d.column) }
            for (k, a) in d.entries where abs(a) > tolerance {
                let v = basis.columnOfStep[k]
                if isUser[v] { ambiguous.insert(v) }
            }
        }
        let verdict = AmbiguityVerdict(ambiguous: ambiguous.sorted().map { Variable(symbol: Symbol(id: Int32($0), kind: .external)) },
                                       directions: realised)
        ambiguityCache = verdict
        return verdict
    }

    public func ambiguousVariables() -> [Variable] { ambiguity().ambiguous }

    /// Another optimal solution that moves the given ambiguous variables (Auto Layout's
    /// `exerciseAmbiguityInLayout`): the realised directions that move them are followed in
    /// turn, each at most `maxStep`, stopping where a restricted basic would turn negative.
    /// Only moved variables are returned; the engine is not changed.
    public func alternativeValues(for variables: [Variable], maxStep: Double = 20) -> [Variable: Double] {
        let verdict = ambiguity()
        let wanted = Set(variables.map { Int($0.id) })
        var values: [Int: Double] = [:]
        func current(_ j: Int) -> Double { values[j] ?? value[j] }
        for d in verdict.directions {
            let moves = wanted.contains(d.column) || d.entries.contains { wanted.contains(basis.columnOfStep[$0.index]) }
            guard moves else { continue }
            // Basics move by −t·sign·a; a restricted one must stay ≥ 0.
            var t = maxStep
            for (k, a) in d.entries {
                let v = basis.columnOfStep[k]
                let rate = -d.sign * a
                if kind[v] != .free && rate < -1e-12 { t = min(t, max(0, current(v)) / -rate) }
            }
            if kind[d.column] != .free { t = min(t, maxStep) }
            guard t > 1e-9 else { continue }
            values[d.column] = current(d.column) + d.sign * t
            for (k, a) in d.entries {
                let v = basis.columnOfStep[k]
                values[v] = current(v) - d.sign * t * a
            }
        }
        // A variable no constraint names moves freely.
        for j in wanted where isUser[j] && columnRows[j].isEmpty && values[j] == nil { values[j] = value[j] + maxStep }
        var out: [Variable: Double] = [:]
        for (j, v) in values where isUser[j] && abs(v - value[j]) > 1e-9 { out[Variable(symbol: Symbol(id: Int32(j), kind: .external))] = v }
        return out
    }
}
