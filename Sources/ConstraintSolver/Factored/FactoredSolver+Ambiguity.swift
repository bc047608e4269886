import CheckedNumbers
import WorkBudget
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
    /// The realised directions: the moving column and its sign (B⁻¹·a is solved for when
    /// another layout is asked for).
    var directions: [(column: Int, sign: Double)]
}

extension FactoredSolver {
    func ambiguity(tolerance: Double = 1e-9) -> AmbiguityVerdict {
        if let cached = ambiguityCache { return cached }
        settleDependents()
        // The directions to decide: movable nonbasic columns with a zero reduced cost at
        // every level (a column in no row moves alone: its variable is ambiguous outright),
        // each column once in `columns` (u), its directions by sign in `candidates`.
        var isAmbiguous = [Bool](repeating: false, count: kind.count)
        var columns: [Int] = []
        var candidates: [(u: Int, sign: Double)] = []
        var cellRows: [Int32] = [], cells: [Entry] = []  // the candidates' cells: row, and (u, value)
        for j in kind.indices where !basis.isBasic(j) && kind[j] != .fixed && kind[j] != .dead && !dependents.contains(column: j) {
            if columnRows[j].isEmpty {
                if isUser[j] { isAmbiguous[j] = true }
                continue
            }
            guard lexSign(j) == 0 else { continue }
            let u = columns.count
            columns.append(j)
            candidates.append((u, 1.0))
            if kind[j] == .free { candidates.append((u, -1.0)) }
            for r in columnRows[j] {
                cellRows.append(r)
                cells.append(Entry(u, cell(Int(r), j)!))
            }
        }
        let cellsOfRow = SparseLists(grouping: cells, by: cellRows, lists: rows.listCount)
        // The blocking steps: artificials (equalities) and restricted basics at 0, numbered
        // as found (flat arrays, not dictionaries and sets: the 1,000-cell feed's verdict
        // 49 → 29 M instructions).
        var isEquality: [Bool] = []  // by blocker: an artificial (else a basic at 0, ≥ 0)
        // A direction's entries at the blocking steps are all that decides whether it is
        // realised: (B⁻¹a_j)_z = (e_zᵀB⁻¹)·a_j, the pivot row of z at column j. Those rows are
        // local (a slack at 0 depends on its own few rows), where the columns B⁻¹a_j of a
        // stack's heights reach every cell below: computing every column made the verdicts
        // quadratic on stacked feeds (1,000 cells: 1,017,000 entries for 5,000 directions).
        // Only the candidates' entries of a pivot row are made, from their own cells, into
        // flat arrays grouped once (the whole row over every nonbasic column, and sparse lists
        // grown by column, were 8 of the 1,000-cell feed's 27 M instructions).
        var hitColumns: [Int32] = [], hits: [Entry] = []  // by candidate column u: (blocker, value)
        var rho: [Entry] = []  // a blocker's row of B⁻¹, by constraint row
        // Whether each candidate column's direction up (down) is blocked while nothing is raised,
        // and how many directions are not: once none is, nothing is realised in the fixed
        // point's first round, so none ever is, and no later blocker can change that (the
        // stacked 1,000-cell feed's last 3,000 steps and its fixed point, ~0.8 M instructions).
        var blockedUp = [Bool](repeating: false, count: columns.count), blockedDown = blockedUp
        var open = candidates.count
        func record(_ u: Int, _ b: Int, _ a: Double) {
            hitColumns.append(Int32(u))
            hits.append(Entry(b, a))
            if (isEquality[b] || a > 0) && !blockedUp[u] {
                blockedUp[u] = true
                open -= 1
            }
            if (isEquality[b] || a < 0) && !blockedDown[u] {
                blockedDown[u] = true
                if kind[columns[u]] == .free { open -= 1 }  // the only columns with a direction down
            }
        }
        func hit(_ equality: Bool) {
            let b = isEquality.count
            isEquality.append(equality)
            alphaWork.reset(size: columns.count)
            for e in rho {
                for q in cellsOfRow.positions(e.index) {
                    let c = cellsOfRow[position: q]
                    alphaWork.add(c.index, e.value * c.value)
                }
            }
            for u in alphaWork.pattern where abs(alphaWork[u]) > tolerance { record(u, b, alphaWork[u]) }
        }
        // Blockers whose row two rows show first; the others are solved only if a direction
        // is still unblocked then: when none is, nothing is realised in the fixed point's
        // first round, so none ever is (the stacked 1,000-cell feed's last 1,000 solves, ~2.5 M).
        var solved: [Int] = []
        for z in 0..<basis.stepCount where open > 0 {
            // Past the thread's work budget the request's answer is thrown away: no verdict,
            // none kept (60,000 rows: 1.5 s of a debug build, which kept a drain's cancel waiting).
            if z & 1023 == 1023 && WorkBudget.exhausted() { return AmbiguityVerdict(ambiguous: [], directions: []) }
            let v = basis.columnOfStep[z]
            let equality = kind[v] == .fixed
            guard equality || ((kind[v] == .slack || kind[v] == .error) && value[v] <= Self.eps) else { continue }
            if inverseRowFromTwoRows(of: v, into: &rho) { hit(equality) } else { solved.append(z) }
        }
        if open > 0 && verdictSolvesDirections ?? (solved.count > 4 * columns.count) {
            // Far fewer directions than blockers left: each direction solved whole (B⁻¹a_j) and
            // read at the blockers. Heights chained cell to cell beside an optional aspect ratio
            // have one direction and a blocker a cell, each blocker's row of B⁻¹ as long as the
            // chain: a solve each was n² (4,000 cells: 70% of the one-shot layout).
            var blockerOfStep = [Int32](repeating: -1, count: basis.stepCount)
            for z in solved {
                blockerOfStep[z] = Int32(isEquality.count)
                isEquality.append(kind[basis.columnOfStep[z]] == .fixed)
            }
            for u in columns.indices {
                basis.ftran(column(columns[u]), into: &columnWork)
                for k in columnWork.pattern where blockerOfStep[k] >= 0 && abs(columnWork[k]) > tolerance {
                    record(u, Int(blockerOfStep[k]), columnWork[k])
                }
            }
        } else if open > 0 {
            for z in solved where open > 0 {
                rho.clear()
                basis.btran(CollectionOfOne(Entry(z, 1.0)), into: &rowWork)
                for k in rowWork.pattern where abs(rowWork[k]) > BasisFactor.drop { rho.append(Entry(basis.rowOfStep[k], rowWork[k])) }
                hit(kind[basis.columnOfStep[z]] == .fixed)
            }
        }
        var realised: [(column: Int, sign: Double)] = []
        // Every direction blocked while nothing is raised: none is realised.
        if open > 0 {
            // By candidate column: the blockers of its directions, (blocker, value).
            let blockers = SparseLists(grouping: hits, by: hitColumns, lists: columns.count)
            var raised = [Bool](repeating: false, count: isEquality.count)
            while true {
                var rest: [(u: Int, sign: Double)] = []
                var progress = false
                for d in candidates {
                    let blocked = blockers.positions(d.u).contains { q in
                        let e = blockers[position: q]
                        return isEquality[e.index] || (-d.sign * e.value < 0 && !raised[e.index])
                    }
                    if blocked { rest.append(d); continue }
                    realised.append((columns[d.u], d.sign))
                    for q in blockers.positions(d.u) {
                        let e = blockers[position: q]
                        if !isEquality[e.index] && -d.sign * e.value > tolerance { raised[e.index] = true }
                    }
                    progress = true
                }
                candidates = rest
                if !progress || candidates.isEmpty { break }
            }
        }
        markMoved(realised: realised, &isAmbiguous, tolerance: tolerance)
        let verdict = AmbiguityVerdict(
            ambiguous: isAmbiguous.indices.filter { isAmbiguous[$0] }.map { Variable(symbol: Symbol(id: Int32($0), kind: .external)) },
            directions: realised)
        ambiguityCache = verdict
        return verdict
    }

    /// Basic column v's row of B⁻¹ (by constraint row) into `out` (emptied first), where two
    /// rows show it: v in one row r only, with at most one other basic x there, and x the only
    /// basic of another row r′ (a size's hugging beside its compression resistance). Then
    /// y = (e_r − (a_rx / a_r′x)·e_r′) / a_rv has yᵀB = e_vᵀ: that row exactly, with no solve.
    /// False (out empty) for any other shape. 5,000 of the 1,000-cell feed's 6,000 blockers
    /// have it; their solves were ~8 of the verdict's 17.8 M instructions.
    func inverseRowFromTwoRows(of v: Int, into out: inout [Entry]) -> Bool {
        out.clear()
        // Read by position: a row or a column list as a slice was a retain and a release.
        let vRows = columnRows.positions(v)
        guard vRows.count == 1 else { return false }
        let r = Int(columnRows[position: vRows.lowerBound])
        var av = 0.0, x = -1, ax = 0.0
        for q in rows.positions(r) {
            let c = rows[position: q]
            if c.index == v {
                av = c.value
            } else if basis.isBasic(c.index) {
                guard x < 0 else { return false }
                (x, ax) = (c.index, c.value)
            }
        }
        guard av != 0 else { return false }
        out.append(Entry(r, 1 / av))
        guard x >= 0 else { return true }
        for p in columnRows.positions(x) {
            let r2 = Int(columnRows[position: p])
            guard r2 != r else { continue }
            var a2 = 0.0, alone = true
            for q in rows.positions(r2) {
                let c = rows[position: q]
                if c.index == x { a2 = c.value } else if basis.isBasic(c.index) { alone = false; break }
            }
            if alone && a2 != 0 {
                out.append(Entry(r2, -(ax / a2) / av))
                return true
            }
        }
        out.clear()
        return false
    }

    /// The variables the realised directions move, found at once: one move along all of them,
    /// each column with a weight of its own (a direction's sign does not matter: the same
    /// variables move either way), a single solve for the basics and the dependents' rows after
    /// it (with the columns in no row, which move alone). A variable that any direction moves
    /// moves in the sum unless its moves cancel, which weights drawn at random (53 bits, by
    /// column) make a chance of about 10⁻⁹. A solve a direction walked a chain's positions once
    /// each: quadratic on a feed of cells nothing sizes (a change to one: 19, 64, 359 ms at 1k,
    /// 2k, 4k). Golden-ratio weights were not enough: w₁ + w₄ = w₂ + w₃ cancelled.
    private func markMoved(realised directions: [(column: Int, sign: Double)], _ isAmbiguous: inout [Bool], tolerance: Double) {
        let weight = Self.weight
        var delta = dependents.isEmpty ? [] : [Double](repeating: 0, count: kind.count)
        var sum: [Entry] = []
        var last = -1
        for d in directions where d.column != last {  // a free column's two signs come together
            last = d.column
            let w = weight(d.column)
            if isUser[d.column] { isAmbiguous[d.column] = true }
            if !delta.isEmpty { delta[d.column] += w }
            for e in column(d.column) { sum.append(Entry(e.index, w * e.value)) }
        }
        if !sum.isEmpty {
            basis.ftran(sum, into: &columnWork)
            for k in columnWork.pattern {
                let v = basis.columnOfStep[k], x = columnWork[k]
                if abs(x) > tolerance && isUser[v] { isAmbiguous[v] = true }
                if !delta.isEmpty { delta[v] -= x }
            }
        }
        guard !dependents.isEmpty else { return }
        for j in kind.indices where isUser[j] && columnRows[j].isEmpty && !basis.isBasic(j) && !dependents.contains(column: j) {
            delta[j] += weight(j)
        }
        dependentMoves(&delta, tolerance: tolerance, into: &isAmbiguous)
    }

    /// Column j's weight in a move along many directions at once, in [1, 2): splitmix64 of
    /// the column, so that a verdict is the same each time it is made.
    static func weight(_ j: Int) -> Double {
        var z = UInt64(j) &+ 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        z ^= z >> 31
        return 1 + Double(z >> 11) / Double(1 << 53)
    }

    public func ambiguousVariables() -> [Variable] { lendingWork { ambiguity().ambiguous } }

    /// Another optimal solution that moves the given ambiguous variables (Auto Layout's
    /// `exerciseAmbiguityInLayout`): the realised directions that move them are followed in
    /// turn, each at most `maxStep`, stopping where a restricted basic would turn negative.
    /// Only moved variables are returned; the engine is not changed.
    public func alternativeValues(for variables: [Variable], maxStep: Double = 20) -> [Variable: Double] {
        lendingWork { alternatives(for: variables, maxStep: maxStep) }
    }

    private func alternatives(for variables: [Variable], maxStep: Double) -> [Variable: Double] {
        settleDependents()  // the verdict may be kept from before values moved
        let verdict = ambiguity()
        let wanted = Set(variables.map { Int($0.id) })
        var values: [Int: Double] = [:]
        func current(_ j: Int) -> Double { values[j] ?? value[j] }
        var followed = Set<Int>()
        // A dependent moves with whatever it is computed from: every direction is followed.
        let wantsDependent = wanted.contains { dependents.contains(column: $0) }
        for d in verdict.directions {
            // A free column is realised both ways; following both would cancel out.
            guard !followed.contains(d.column) else { continue }
            basis.ftran(column(d.column), into: &columnWork)
            let d = (column: d.column, sign: d.sign, entries: columnWork.entries())
            let moves =
                wantsDependent || wanted.contains(d.column) || d.entries.contains { wanted.contains(basis.columnOfStep[$0.index]) }
            guard moves else { continue }
            // Basics move by −t·sign·a; a restricted one must stay ≥ 0.
            var t = maxStep
            for e in d.entries {
                let (k, a) = (e.index, e.value)
                let v = basis.columnOfStep[k]
                let rate = -d.sign * a
                if kind[v] != .free && rate < -1e-12 { t = min(t, max(0, current(v)) / -rate) }
            }
            guard t > 1e-9 else { continue }
            followed.insert(d.column)
            values[d.column] = current(d.column) + d.sign * t
            for e in d.entries {
                let (k, a) = (e.index, e.value)
                let v = basis.columnOfStep[k]
                values[v] = current(v) - d.sign * t * a
            }
        }
        // A variable no constraint names moves freely (every one, when a wanted dependent may
        // be computed from it), each by its own part of maxStep, so that what is computed from
        // several of them moves too (a − b moved nothing when both moved by maxStep).
        for j in wantsDependent ? Array(kind.indices) : Array(wanted)
        where isUser[j] && columnRows[j].isEmpty && !basis.isBasic(j) && values[j] == nil && !dependents.contains(column: j) {
            values[j] = value[j] + maxStep * Self.weight(j) / 2
        }
        // Dependents follow what they are computed from.
        if !dependents.isEmpty {
            var delta = [Double](repeating: 0, count: kind.count)
            for (j, v) in values { delta[j] = v - value[j] }
            var moved = [Bool](repeating: false, count: kind.count)
            dependentMoves(&delta, tolerance: 1e-9, into: &moved)
            for j in moved.indices where moved[j] { values[j] = value[j] + delta[j] }
        }
        var out: [Variable: Double] = [:]
        for (j, v) in values where isUser[j] && abs(v - value[j]) > 1e-9 { out[Variable(symbol: Symbol(id: Int32(j), kind: .external))] = v }
        return out
    }
}
