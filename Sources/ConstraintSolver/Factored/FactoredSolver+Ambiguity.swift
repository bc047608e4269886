/// Which user variables are not unique over the optimal face. Its directions at the current
/// vertex come from the movable nonbasic columns (free: both signs; restricted with a zero
/// reduced cost at every level: up), each moving the basics along −B⁻¹·a_j. A degenerate
/// basic (restricted at 0, or an artificial) blocks a direction unless an already realised
/// combination strictly increases it (a greedy fixed point). Unused variables count.
extension FactoredSolver {
    public func ambiguousVariables(tolerance: Double = 1e-9) -> [Variable] {
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
        var realised: [(column: Int, entries: [Entry])] = []
        while true {
            var rest: [(column: Int, sign: Double, entries: [Entry])] = []
            var progress = false
            for d in directions {
                let blocked = d.entries.contains { k, a in
                    guard let equality = blocking[k], abs(a) > tolerance else { return false }
                    return equality || (-d.sign * a < 0 && !raised.contains(k))
                }
                if blocked { rest.append(d); continue }
                realised.append((d.column, d.entries))
                for (k, a) in d.entries where blocking[k] == false && -d.sign * a > tolerance { raised.insert(k) }
                progress = true
            }
            directions = rest
            if !progress || directions.isEmpty { break }
        }
        for (j, entries) in realised {
            if isUser[j] { ambiguous.insert(j) }
            for (k, a) in entries where abs(a) > tolerance {
                let v = basis.columnOfStep[k]
                if isUser[v] { ambiguous.insert(v) }
            }
        }
        return ambiguous.sorted().map { Variable(symbol: Symbol(id: Int32($0), kind: .external)) }
    }
}
