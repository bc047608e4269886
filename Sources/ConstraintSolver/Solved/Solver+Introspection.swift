import CheckedNumbers
/// What the engine can tell about itself: counters, the constraints behind a value,
/// and a readable tableau for debugging.
public struct SolverStats: Sendable, Equatable {
    public var rows: Int
    public var columns: Int
    public var constraints: Int
    public var broken: Int
    public var priorityLevels: Int
    public var pivots: Int
    /// Rows written since the counter was last reset (see `resetTouchedRows`).
    public var touchedRows: Int
}

extension Solver {
    /// Rows and columns only: what a gauge needs around every change, without `stats`' counts.
    public var tableauSize: (rows: Int, columns: Int) { (liveRows, liveColumns) }

    /// O(1): the counts are kept as the tableau changes.
    public var stats: SolverStats {
        SolverStats(
            rows: liveRows, columns: liveColumns, constraints: records.count,
            broken: dormant.isEmpty ? 0 : brokenConstraints.count, priorityLevels: objective.levels.count,
            pivots: pivotCount, touchedRows: touchedRows)
    }

    func resetTouchedRows() -> Int {
        defer { touchedRows = 0 }
        return touchedRows
    }

    /// The constraints that determine `v`: those whose markers its row depends on (their
    /// constants move it). A parametric variable is determined by nothing: then the
    /// constraints naming it are the ones to look at.
    public func constraintsAffecting(_ v: Variable) -> [ConstraintHandle] {
        let slot = rowOf[v.symbol.index]
        guard slot >= 0 else {
            let i = v.symbol.index
            return (constraintsOf[i].elements + brokenOf[i].elements).sorted().map { ConstraintHandle(raw: $0) }
        }
        var out = Set<Int32>()
        for c in rows[Int(slot)].cells where markerOwner[c.symbol.index] >= 0 {
            out.insert(markerOwner[c.symbol.index])
        }
        return out.sorted().map { ConstraintHandle(raw: $0) }
    }

    /// The tableau, one row a line: `x3 = 10 + 1·d5 - 0.5·s7`.
    func dumpTableau() -> String {
        func name(_ s: Symbol) -> String {
            let p: String
            switch s.kind {
            case .external: p = "v";
            case .slack: p = "s";
            case .error: p = "e";
            case .dummy: p = "d"
            }
            return p + String(s.id)
        }
        var lines: [String] = []
        for (i, b) in basicOf.enumerated() where b.isValid {
            var line = "\(name(b)) = \(rows[i].constant)"
            for c in rows[i].cells { line += " \(c.coefficient < 0 ? "-" : "+") \(abs(c.coefficient))·\(name(c.symbol))" }
            lines.append(line)
        }
        for l in objective.levels {
            let terms = l.coefficients.sorted { $0.key < $1.key }.map { "\($0.value)·#\($0.key)" }
            lines.append("objective@\(l.priority): " + terms.joined(separator: " + "))
        }
        return lines.sorted().joined(separator: "\n")
    }
}
