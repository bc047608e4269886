import CheckedNumbers

extension FactoredSolver {
    /// A basis for every row at once: a Markowitz elimination on the free columns picks
    /// one row per free variable, preferring rows likely to hold with equality (required
    /// `==`, then optional `==` by level, then inequalities); every other row gets its
    /// slack, else an error, else a [0,0] artificial. Factored once; values and duals
    /// computed from scratch.
    func crash() throws(Unsatisfiable) {
        ambiguityCache = nil
        dropTombs()
        let kinds = kind  // read in place, not through `self` for each cell
        let (free, _) = liveRows { kinds[$0] == .free }
        var rank = [Int](repeating: 0, count: rows.listCount)
        var slackSign = [Double](repeating: 0, count: rows.listCount)
        var impure = [Bool](repeating: false, count: rows.listCount)
        var pins = PinnedPairs(columns: kind.count)
        var links: [Int] = []  // optional equalities of two free columns
        for i in 0..<rows.listCount where rowLive[i] {
            var hasSlack = false, error: Int? = nil, sign = 0.0
            for k in rows.positions(i) {
                let (j, a) = (rows[position: k].index, rows[position: k].value)
                if kind[j] == .slack { (hasSlack, sign) = (true, a < 0 ? -1 : 1) } else if kind[j] == .error && error == nil { error = j }
                if kind[j] != .free { impure[i] = true }
            }
            slackSign[i] = sign
            let level = error.map { levelIndex(costPriority[$0]) }
            // Required `==` (0), then optional rows by level, higher first, an `==` before an
            // inequality of its level (1…14), required inequalities last (15): an optional
            // inequality is tight at the value it asks for, a required one is only a bound.
            // By level first, a label's compression at 750 defines its height before the stack's
            // tie-break at 1 that asks the same value, which otherwise cost a degenerate pivot
            // (1,000-cell stack feeds: 1,000 to 2,000 pivots fewer of 2,000 to 5,000).
            rank[i] = level.map { 1 + 2 * min($0, 6) + (hasSlack ? 1 : 0) } ?? (hasSlack ? Elimination.requiredInequality : 0)
            // An optional `size == 0` (a stack's "as thin as its content" at 25, a fitting
            // size's compression at 50) is almost never met: the content holds the size up.
            // Taken first as the singleton it is, it made every containment row below it
            // infeasible, a dual pivot each (8.5 a cell in a feed of stacks aligned top).
            // Such a row waits until no other row can take its column.
            if level != nil && !hasSlack && rhs[i] == 0 && free.count(i) == 1 { rank[i] += Elimination.deferred }
            if level != nil && !hasSlack && free.count(i) == 2 { links.append(i) }
            if let level, hasSlack, free.count(i) == 1, case let only = free[position: free.positions(i).lowerBound],
                let upper = pins.pair(i, level: level, only, lower: only.value * sign < 0, asks: rhs[i] / only.value)
            {
                rank[upper] -= 1
            }
        }
        // Between the crash's phases, the thread's work budget: a drain's cancel is seen within
        // one (60,000 rows: 1.6 s between checks of a debug build otherwise).
        try Self.checkBudget()
        var elimination = Elimination(rows: free, columns: kind.count, rank: rank, bounds: (rhs, slackSign), impure: impure)
        if !links.isEmpty { elimination.chainLinks = chainLinks(links, free) }
        var factors = elimination.run()
        try Self.checkBudget()
        var chosen = [Bool](repeating: false, count: rows.listCount)
        for p in factors.pivots { chosen[p.row] = true }
        // A free column whose entries all cancelled was never pivoted: it is nonbasic (an
        // unconstrained direction) and not part of B, so it leaves the U rows it is in.
        var isPivotColumn = [Bool](repeating: false, count: kind.count)
        for p in factors.pivots { isPivotColumn[p.column] = true }
        for k in factors.pivots.indices { factors.u.removeAll(in: k) { !isPivotColumn[$0.index] } }
        // Rows of required equalities only that the elimination emptied are redundant: their
        // artificials stay basic at 0, known so without a solve each (`cleanupArtificials`).
        var redundant: [Int] = []
        // Every other row gets its own logical (or an artificial): a column in that row
        // only, the smallest slack, else the smallest error. The free columns are all
        // eliminated from those rows already, so the crash's elimination plus one diagonal
        // step a row is the LU of the whole basis: no second factorization (it was 15% of a build).
        for i in 0..<rows.listCount where rowLive[i] && !chosen[i] {
            var slack = Int.max, error = Int.max
            for k in rows.positions(i) {
                let j = rows[position: k].index
                guard columnRows.count(j) == 1 else { continue }
                if kind[j] == .slack { slack = min(slack, j) } else if kind[j] == .error { error = min(error, j) }
            }
            let q: Int
            if slack != .max || error != .max {
                q = slack != .max ? slack : error
            } else {
                q = newColumn(.fixed)
                appendToRow(i, q, 1)
                pendingFixed.append(q)
                if !elimination.impure[i] { redundant.append(q) }
            }
            factors.append(Elimination.Pivot(row: i, column: q, pivot: cell(i, q)!))
        }
        basis.reset()
        releaseDropped()
        basis.install(factors)
        factorizations += 1
        try Self.checkBudget()
        var rhsEntries: [Entry] = []
        for i in 0..<rows.listCount where rowLive[i] && rhs[i] != 0 { rhsEntries.append(Entry(i, rhs[i])) }
        basis.ftran(rhsEntries, into: &columnWork)
        if reassignZeroArtificials(redundant: Set(redundant)) { basis.ftran(rhsEntries, into: &columnWork) }
        // A negative basic slack or error swaps to its opposite-signed twin in the same row
        // (both are found in that row only, so only the step's diagonal changes).
        var swapped = false
        for k in 0..<basis.stepCount {
            let v = basis.columnOfStep[k]
            guard kind[v] == .slack || kind[v] == .error, columnWork[k] < -Self.eps else { continue }
            let i = Int(columnRows[v].first!), a = cell(i, v)!
            if let twin = rows[i].map(\.index).sorted().first(where: {
                kind[$0] == .error && $0 != v && cell(i, $0)! * a < 0 && columnRows[$0].count == 1
            }) {
                basis.swapSingleton(step: k, to: twin, diagonal: cell(i, twin)!)
                swapped = true
            }
        }
        if swapped { basis.ftran(rhsEntries, into: &columnWork) }
        // At 0 (else the equalities disagree, for the simplex to settle), a redundant row's
        // artificial is done: each asked a solve along its chain to find it had no way out (a
        // grid whose widths are chained box to box, a redundant row each pair: n²).
        let done = Set(redundant.filter { abs(columnWork[basis.stepOfColumn[$0]]) <= Self.eps })
        if !done.isEmpty { pendingFixed.removeAll { done.contains($0) } }
        // Values and duals from scratch.
        infeasible.removeAll()
        for j in value.indices where !basis.isBasic(j) && value[j] != 0 && !dependents.contains(column: j) { setValue(j, 0) }
        for k in 0..<basis.stepCount { setValue(basis.columnOfStep[k], columnWork[k]) }
        try Self.checkBudget()
        recomputeDuals()
    }

    /// The optional equalities of two free columns that make chains (`a == b @750`, `b == c
    /// @750`…): each column in two such rows at most, one of the pair in two. A column in more
    /// is a star's hub, whose links setting every member from it keep a star's build short; a
    /// pair alone (an aspect ratio) is no chain.
    func chainLinks(_ links: [Int], _ free: SparseLists<Entry>) -> [Bool] {
        var count = [UInt8](repeating: 0, count: kind.count)
        for i in links { for e in free[i] where count[e.index] < 3 { count[e.index] += 1 } }
        var chain = [Bool](repeating: false, count: rows.listCount)
        for i in links where !free[i].contains(where: { count[$0.index] > 2 }) && free[i].contains(where: { count[$0.index] == 2 }) {
            chain[i] = true
        }
        return chain
    }

    /// Every level's duals and reduced costs from scratch for the current basis (one solve
    /// back a level), and the candidates they make: the crash's, and a lazy solve's (`solve`).
    func recomputeDuals() {
        let columnsOfLevel = columnsByLevel()
        columnLevels.clear()
        for level in levelPriority.indices {
            var cb: [Entry] = []
            for j in columnsOfLevel[level] where basis.isBasic(j) { cb.append(Entry(basis.stepOfColumn[j], 1)) }
            cb.sort { $0.index < $1.index }
            var y: [Entry] = []
            if !cb.isEmpty {
                basis.btran(cb, into: &rowWork)
                y = rho()
            }
            // Each vector's storage reserved for the largest id it will hold: grown write by
            // write, the duals and reduced costs were 4% of a 1,000-cell nested screen's build.
            var yd = LevelVector(mayHash: manyLevels)
            if let top = y.max(by: { $0.index < $1.index }) { yd.reserveCapacity(top.index + 1) }
            for e in y { yd[e.index] = e.value }
            duals[level] = yd
            // Unset, a column's reduced cost is its cost: 1 for a nonbasic error of the level in
            // some row, but 0 for a basic or rowless one.
            reduced[level] = LevelVector(mayHash: manyLevels)
            var top = -1
            for j in columnsOfLevel[level] where basis.isBasic(j) || columnRows[j].isEmpty { top = j }
            for r in y { for e in rows[r.index] where e.index > top && !basis.isBasic(e.index) { top = e.index } }
            if top >= 0 { reduced[level].reserveCapacity(top + 1) }
            for j in columnsOfLevel[level] where basis.isBasic(j) || columnRows[j].isEmpty { setReducedCost(level, j, 0) }
            for r in y {
                for e in rows[r.index] where !basis.isBasic(e.index) {
                    addReducedCost(level, e.index, -r.value * e.value)
                }
            }
        }
        candidates.removeAll()
        for j in kind.indices where !basis.isBasic(j) && !columnRows[j].isEmpty { checkCandidate(j) }
    }

    /// A required equality the elimination left without a free column (an optional row's
    /// singleton took it first) holds an artificial. At 0, it blocks every primal step whose
    /// column reaches its row, at t = 0: one degenerate step each, each as long as what the
    /// step moves (fillEqually stacks whose heights are chained `@750`: one a cell, each along
    /// the chain). The row takes back one of its free columns from the optional row that took
    /// it, which keeps its own error basic instead; the basis is factored again once.
    func reassignZeroArtificials(redundant: Set<Int>) -> Bool {
        var swaps: [(artificial: Int, error: Int)] = []
        var used = Set<Int>()
        for f in pendingFixed where !redundant.contains(f) && basis.isBasic(f) && abs(columnWork[basis.stepOfColumn[f]]) <= Self.eps {
            let i = Int(columnRows[f].first!)
            search: for e in rows[i] where kind[e.index] == .free && basis.isBasic(e.index) {
                let o = basis.rowOfStep[basis.stepOfColumn[e.index]]
                guard o != i, !used.contains(o) else { continue }
                for x in rows[o] where kind[x.index] == .error && columnRows.count(x.index) == 1 && !basis.isBasic(x.index) {
                    swaps.append((f, x.index))
                    used.insert(o)
                    break search
                }
            }
        }
        guard !swaps.isEmpty else { return false }
        var basic = [Bool](repeating: false, count: kind.count)
        for k in 0..<basis.stepCount { basic[basis.columnOfStep[k]] = true }
        for (f, e) in swaps { (basic[f], basic[e]) = (false, true) }
        let (live, count) = liveRows { basic[$0] }
        do throws(SingularBasis) { try basis.factor(rows: live, live: count, columns: kind.count) } catch { return false }
        factorizations += 1
        return true
    }
}

/// Two optional inequalities of one level on one free column that ask the same value from
/// either side (a view hugging and resisting compression at the same priority) ask it as an
/// `==` of that level: the upper one is ranked as that level's `==`, before its inequalities,
/// the lower one left slack at 0. Ranked as inequalities, taken by row id, a label's
/// compression came first and the equalities gave the stack's spare width to the view pinned
/// both ways (a table row's detail, a nested row's badge), breaking its row at its level: a
/// primal pivot a row to repair. The upper one binds because a stack's spare room pushes its
/// other views wider; taking the lower one cost a degenerate pivot a row. 1,000-row table:
/// 2,000 pivots to none, 309 to 230 M instructions.
struct PinnedPairs {
    /// By column, the last candidate not yet paired: its row (−1: none), its level twice plus
    /// one, negated for a lower bound, and the value it asks. A slot a column, not a list:
    /// a view's hugging and compression come in turn; a list of a build's 13,000 candidates
    /// cost 1% of a stack feed's build.
    private var slots: [(row: Int32, side: Int32, asks: Double)]

    init(columns: Int) { slots = Array(repeating: (-1, 0, 0), count: columns) }

    /// Row i (`only` its one free cell) as a candidate; the upper row of the pair it makes, if any.
    mutating func pair(_ i: Int, level: Int, _ only: Entry, lower: Bool, asks: Double) -> Int? {
        let side = Int32(truncatingIfNeeded: 2 * level + 1) * (lower ? -1 : 1)
        let slot = slots[only.index]
        if slot.row >= 0 && slot.side == -side && slot.asks == asks {
            slots[only.index].row = -1
            return lower ? Int(slot.row) : i
        }
        slots[only.index] = (Int32(truncatingIfNeeded: i), side, asks)
        return nil
    }
}
