import CheckedNumbers
/// Removal without touching the factors: the removed row is made vacuous by a free "tomb"
/// column basic in it alone (so B stays square and nonsingular), and the row and its tomb
/// are dropped at the next factorization.
extension FactoredSolver {
    func tryRemove(_ handle: ConstraintHandle) throws(Unsatisfiable) {
        if tieStars.contains(handle.raw) { try unwindTiesAndRebuild() }
        guard let rec = records.removeValue(forKey: handle.raw) else { return }
        // A handle used again is a new constraint: it has no place in the batch's order.
        forgetBreakOrder(handle.raw)
        ambiguityCache = nil
        maybeRefactor()
        broken.removeAll { $0 == handle.raw }
        let r = rec.row
        handleOfRow[r] = -1  // the handle may be reused before the row is dropped
        if dependents.contains(row: r) { return removeDependentRow(r) }
        let logicals = rows[r].map(\.index).filter { kind[$0] != .free && kind[$0] != .dead && columnRows[$0].count == 1 }.sorted()
        let tomb: Int
        if let t = logicals.first(where: { basis.isBasic($0) }) {
            // A logical of the row is basic: it becomes the tomb and nothing moves.
            if costPriority[t] != 0 {
                let level = levelIndex(costPriority[t])
                basis.btran(CollectionOfOne(Entry(basis.stepOfColumn[t], -1.0)), into: &rowWork)
                for j in dualDelta(level, rho()) { checkCandidate(j) }
                setCost(t, priority: 0)
            }
            kind[t] = .free
            infeasible.remove(t)
            pendingFixed.removeAll { $0 == t }
            tomb = t
        } else {
            tomb = newColumn(.free)
            appendToRow(r, tomb, 1)
            for k in reduced.indices { let y = duals[k][r]; if y != 0 { setReducedCost(k, tomb, -y) } }
            try enterTomb(tomb, row: r)
        }
        tombs.insert(tomb)
        for j in logicals where j != tomb && !basis.isBasic(j) {
            rows.removeAll(in: r) { $0.index == j }
            columnRows.clear(j)
            zeroReducedCosts(j)
            candidates.remove(j)
            pendingFixed.removeAll { $0 == j }
            setValue(j, 0)
            kind[j] = .dead
            freeColumns.append(j)
        }
        try solve()
        try cleanupArtificials()
        if !broken.isEmpty { try retryBroken(after: handle.raw, removedRow: r) }
    }

    /// The tomb column (e_r) enters the basis: by a primal step when the row was binding
    /// (the optimum moves), else by a ratio test in both directions (objective-neutral);
    /// when only free variables depend on the row, one of them leaves and goes to 0.
    private func enterTomb(_ t: Int, row r: Int) throws(Unsatisfiable) {
        if lexSign(t) != 0 {
            // Unbounded only when the row's duals are rounding noise: then enter it as below.
            do { try primalStep(t); return } catch {}
        }
        basis.ftran(CollectionOfOne(Entry(r, 1.0)), into: &columnWork)
        var best: (step: Int, key: (Double, Double, Int))? = nil
        for k in columnWork.pattern {
            let a = columnWork[k], v = basis.columnOfStep[k]
            guard kind[v] != .free, abs(a) > 1e-9 else { continue }
            let step = kind[v] == .fixed ? 0 : max(value[v], 0) / abs(a)
            let key = (step, -abs(a), v)
            if let b = best, !(key < b.key) { continue }
            best = (k, key)
        }
        if best == nil {
            let own = basis.stepOfRow[r]
            var free: (step: Int, key: (Int, Int, Double, Int))? = nil
            for k in columnWork.pattern {
                let a = columnWork[k], v = basis.columnOfStep[k]
                guard abs(a) > 1e-9, !tombs.contains(v) else { continue }
                let key = (k != own ? 1 : 0, cell(r, v) == nil ? 1 : 0, -abs(a), v)
                if let b = free, !(key < b.key) { continue }
                free = (k, key)
            }
            guard let free else { throw Unsatisfiable(reason: "no column leaves for a tomb") }
            best = (free.step, (0, 0, 0))
        }
        let p = best!.step
        let theta = value[basis.columnOfStep[p]] / columnWork[p]
        moveBasics(by: theta)
        let leaving = pivot(t, at: p)
        setValue(t, theta)
        setValue(leaving, 0)
    }

    /// Drops the rows of basic tombs (before a factorization).
    func dropTombs() {
        for t in tombs.sorted() where basis.isBasic(t) {
            tombs.remove(t)
            let r = Int(columnRows[t].first!)
            for e in rows[r] where e.index != t {
                let j = e.index
                columnRows.removeAll(in: j) { Int($0) == r }
                // A removed view's variable waited for its last removed row to go.
                if kind[j] == .dead && columnRows[j].isEmpty { releasedAtFactorization.columns.append(j) }
            }
            rows.clear(r)
            rowLive[r] = false
            handleOfRow[r] = -1
            for k in duals.indices { duals[k][r] = 0 }
            columnRows.clear(t)
            value[t] = 0
            infeasible.remove(t)
            kind[t] = .dead
            releasedAtFactorization.columns.append(t)
            releasedAtFactorization.rows.append(r)
        }
    }

    /// Changes a constraint's priority: out and in again (it may move between required
    /// and optional, and its errors change level); the handle stays.
    func trySetPriority(_ handle: ConstraintHandle, _ priority: Double) throws(Unsatisfiable) {
        guard var definition = definition(handle), definition.priority != priority else { return }
        try tryRemove(handle)
        definition.priority = priority
        let h = try tryAdd(definition)
        records.move(h.raw, to: handle.raw)
        handleOfRow[records[handle.raw]!.row] = handle.raw
        broken = broken.map { $0 == h.raw ? handle.raw : $0 }
    }

    /// Takes many rows out and puts a batch in, with one basis made for all the rows then
    /// live (`tryAdd(batch:)`): the rows leave without a tomb or a simplex step each. For a
    /// change that re-makes a good part of the system (a fillProportionally stack whose
    /// shares all moved when its labels rewrapped: n rows out and in one by one, each
    /// dense, was n²).
    func tryReplace(_ handles: [ConstraintHandle], with batch: ConstraintBatch) throws(Unsatisfiable) -> [ConstraintHandle] {
        restoreAllDependents()
        if handles.contains(where: { tieStars.contains($0.raw) }) { unwindTies() }
        makeColumnListsIfDropped()
        ambiguityCache = nil
        let gone = Set(handles.map(\.raw))
        broken.removeAll { gone.contains($0) }
        for handle in handles {
            guard let rec = records.removeValue(forKey: handle.raw) else { continue }
            forgetBreakOrder(handle.raw)
            let r = rec.row
            handleOfRow[r] = -1
            // Its own slack, errors or artificial go with it; the shared columns stay. The
            // column lists are made again from the rows by the batch.
            for e in rows[r] where kind[e.index] != .free && kind[e.index] != .dead && columnRows.count(e.index) == 1 {
                let j = e.index
                zeroReducedCosts(j)
                candidates.remove(j)
                infeasible.remove(j)
                tombs.remove(j)
                value[j] = 0
                kind[j] = .dead
                releasedAtFactorization.columns.append(j)
            }
            rows.clear(r)
            rowLive[r] = false
            // Its duals are left: the batch's crash makes every level's again (zeroed here,
            // each removed row wrote every level, n² with a level a cell).
            releasedAtFactorization.rows.append(r)
        }
        pendingFixed.removeAll { kind[$0] == .dead }
        return try tryAdd(batch: batch)
    }
}
