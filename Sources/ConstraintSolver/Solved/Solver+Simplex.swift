import CheckedNumbers
import WorkBudget
/// Putting constraints into the tableau and taking them out again, and the two
/// simplex loops that restore optimality (primal) and feasibility (dual) afterwards.
extension Solver {
    /// Puts a recorded constraint into the tableau, or records why it cannot be.
    func enforce(_ h: Int32) {
        var rec = records[h]!
        var row = makeRow(&rec)
        records[h] = rec
        if let m = rec.marker { markerOwner[m.index] = h }
        if let o = rec.other { markerOwner[o.index] = h }
        var ok = true
        if let subject = chooseSubject(row, rec) {
            row.solve(for: subject, replacing: nil)
            substitute(subject, row)
            insertRow(row, basic: subject)
        } else if row.cells.allSatisfy({ $0.symbol.isDummy }) {
            if nearZero(row.constant) { makeRedundant(h) } else { ok = false }
        } else {
            switch addWithArtificialVariable(row) {
            case .added: break
            case .redundant: makeRedundant(h)
            case .infeasible: ok = false
            }
        }
        if !ok {
            dropMarkers(h)
            breakConstraint(h)
        }
    }

    private func makeRedundant(_ h: Int32) {
        dropMarkers(h)
        records[h]!.state = .redundant
        dormant.insert(h)
    }

    private func dropMarkers(_ h: Int32) {
        var rec = records[h]!
        if let m = rec.marker { release(m) }
        if let o = rec.other { release(o) }
        rec.marker = nil
        rec.other = nil
        records[h] = rec
    }

    func breakConstraint(_ h: Int32) {
        var rec = records[h]!
        rec.marker = nil
        rec.other = nil
        file(h, broken: true)
        let conflicts = explainsConflicts ? explainConflict(h) : []
        rec.state = .broken(conflicts: conflicts.map { ConstraintHandle(raw: $0) })
        records[h] = rec
        dormant.insert(h)
    }

    /// Moves h between its variables' constraints in force and their broken ones.
    func file(_ h: Int32, broken: Bool) {
        for (v, _) in records[h]!.definition.expression.terms {
            let i = v.symbol.index
            if broken {
                constraintsOf[i].remove(h)
                brokenOf[i].insert(h)
            } else {
                brokenOf[i].remove(h)
                constraintsOf[i].insert(h)
            }
        }
    }

    /// Re-adds a dormant constraint (its definition may have changed).
    func reenforce(_ h: Int32) {
        guard var rec = records[h] else { return }
        let previous = rec.state
        if case .broken = previous { file(h, broken: false) }
        rec.state = .active
        records[h] = rec
        dormant.remove(h)
        if case .broken(let old) = previous, !old.isEmpty, stillConflicting(old, except: h), explainsConflicts {
            // Same conflicting set as before: one feasibility test instead of a new explanation.
            explainsConflicts = false
            enforce(h)
            explainsConflicts = true
            if case .broken = records[h]!.state { records[h]!.state = .broken(conflicts: old) }
        } else {
            enforce(h)
        }
        optimize()
    }

    /// Whether the others of a conflicting set still hold and are still required (one whose
    /// priority went down explains nothing any more: the set is found again).
    private func stillConflicting(_ set: [ConstraintHandle], except h: Int32) -> Bool {
        set.allSatisfy {
            $0.raw == h || records[$0.raw].map { ($0.state == .active || $0.state == .redundant) && $0.definition.isRequired } ?? false
        }
    }

    /// Dormant constraints may hold again after a removal or set-constant: a broken one
    /// may now fit, and a redundant one may no longer be implied by the others.
    func retryDormant() {
        for h in dormant.sorted() {
            // Past the thread's work budget the rest stay as they are (broken, or redundant):
            // a consistent state, which the caller discards.
            if WorkBudget.exhausted() { return }
            guard let rec = records[h] else { continue }
            if rec.state == .redundant && isSatisfied(rec.definition) && stillImplied(h) { continue }
            reenforce(h)
        }
    }

    private func isSatisfied(_ d: ConstraintDefinition) -> Bool {
        var v = d.expression.constant
        for (x, c) in d.expression.terms { v += c * value(x) }
        switch d.relation {
        case .equal: return abs(v) < 1e-7
        case .lessOrEqual: return v < 1e-7
        case .greaterOrEqual: return v > -1e-7
        }
    }

    /// A redundant constraint stays implied while its row still reduces to dummies only.
    private func stillImplied(_ h: Int32) -> Bool {
        parametric(records[h]!.definition.expression).cells.allSatisfy { $0.symbol.isDummy }
    }

    /// An expression over parametric symbols only: each basic variable replaced by its row.
    private func parametric(_ expression: LinearExpression) -> Row {
        var row = Row(constant: expression.constant)
        var e: [Symbol] = [], l: [Symbol] = []
        for (v, c) in expression.terms where !nearZero(c) {
            let slot = rowOf[v.symbol.index]
            if slot >= 0 { row.add(rows[Int(slot)], times: c, entered: &e, left: &l) } else { row.add(v.symbol, c) }
        }
        return row
    }

    /// The constraint's row over parametric symbols, with its marker (and error) symbols.
    private func makeRow(_ rec: inout Record) -> Row {
        let d = rec.definition
        var row = parametric(d.expression)
        let level = d.isRequired ? nil : Optional(objective.ensureLevel(d.priority))
        switch d.relation {
        case .lessOrEqual, .greaterOrEqual:
            let k: Double = d.relation == .lessOrEqual ? 1 : -1
            let slack = newSymbol(.slack)
            rec.marker = slack
            rec.markerCoefficient = k
            row.add(slack, k)
            if let level {
                let err = newSymbol(.error)
                rec.other = err
                row.add(err, -k)
                addCost(err, 1, level: level)
            }
        case .equal:
            if let level {
                let plus = newSymbol(.error), minus = newSymbol(.error)
                rec.marker = plus
                rec.other = minus
                rec.markerCoefficient = -1
                row.add(plus, -1)
                row.add(minus, 1)
                addCost(plus, 1, level: level)
                addCost(minus, 1, level: level)
            } else {
                let dummy = newSymbol(.dummy)
                rec.marker = dummy
                rec.markerCoefficient = 1
                row.add(dummy, 1)
            }
        }
        if row.constant < 0 { row.negate() }
        return row
    }

    func addCost(_ s: Symbol, _ c: Double, level: Int) {
        if objective.add(s, c, level: level) { costFlipped(s) }
        markDirty(s)
    }

    private func chooseSubject(_ row: Row, _ rec: Record) -> Symbol? {
        // Of the externals, the one the fewest rows mention: making it basic rewrites
        // only those rows (the lowest id, kiwi's choice, can be a widely shared variable).
        var best: Symbol? = nil
        var bestCount = Int.max
        for c in row.cells where c.symbol.isExternal {
            let n = columns[c.symbol.index].count
            if n < bestCount { best = c.symbol; bestCount = n; if n == 0 { break } }
        }
        if let best { return best }
        if let m = rec.marker, m.isPivotable, row.coefficient(for: m) < 0 { return m }
        if let o = rec.other, o.isPivotable, row.coefficient(for: o) < 0 { return o }
        return nil
    }

    private enum ArtificialOutcome { case added, redundant, infeasible }

    /// Phase one: minimise an artificial variable standing for the row; the constraint
    /// fits exactly when it can be driven to zero. On failure the artificial row is
    /// dropped and the tableau is the old system again (the kiwi.js bug class).
    private func addWithArtificialVariable(_ row: Row) -> ArtificialOutcome {
        let art = newSymbol(.slack)
        insertRow(row, basic: art)
        artificial = row
        optimizeArtificial()
        let success = nearZero(artificial!.constant)
        artificial = nil
        var outcome = ArtificialOutcome.added
        let slot = rowOf[art.index]
        if slot >= 0 {
            var r = removeRow(slot)
            if !success {
                release(art)
                return .infeasible
            }
            if r.cells.isEmpty {
                outcome = .redundant
            } else if let entering = r.cells.first(where: { $0.symbol.isPivotable })?.symbol {
                r.solve(for: entering, replacing: art)
                substitute(entering, r)
                insertRow(r, basic: entering)
            } else {
                outcome = .redundant
            }
        }
        release(art)
        return success ? outcome : .infeasible
    }

    private func optimizeArtificial() {
        while true {
            guard let entering = artificial!.cells.first(where: { $0.coefficient < 0 && $0.symbol.isPivotable })?.symbol else { return }
            guard let slot = leavingRow(for: entering) else { return }
            pivot(slot, entering)
        }
    }

    /// The restricted row that limits how far `entering` can grow (minimum ratio).
    private func leavingRow(for entering: Symbol) -> Int32? {
        var best: Int32 = -1
        var bestRatio = Double.infinity
        columns[entering.index].forEach { slot in
            let i = Int(slot)
            let b = basicOf[i]
            guard b.isRestricted else { return }
            let c = rows[i].coefficient(for: entering)
            guard c < 0 else { return }
            let r = -rows[i].constant / c
            if r < bestRatio || (r == bestRatio && best >= 0 && b < basicOf[Int(best)]) {
                bestRatio = r
                best = slot
            }
        }
        return best >= 0 ? best : nil
    }

    /// Primal simplex over the symbols whose cost changed since the tableau was last
    /// optimal (the dirty list): the work follows the change, not the system.
    func optimize() {
        while let s = dirty.popLast() {
            dirtyFlag[s.index] = false
            guard s.isPivotable, rowOf[s.index] < 0, objective.sign(s) < 0 else { continue }
            guard let slot = leavingRow(for: s) else { continue }
            pivot(slot, s)
        }
    }

    /// Dual simplex over the rows a change made infeasible.
    func dualOptimize() -> Bool {
        while let slot = infeasible.popLast() {
            let i = Int(slot)
            let b = basicOf[i]
            guard b.isValid, b.isRestricted, rows[i].constant < -1e-9 else { continue }
            var entering: Symbol? = nil
            var enteringCoefficient = 0.0
            for c in rows[i].cells where c.coefficient > 0 && c.symbol.isPivotable {
                if let e = entering, objective.compareRatio(c.symbol, c.coefficient, e, enteringCoefficient) >= 0 { continue }
                entering = c.symbol
                enteringCoefficient = c.coefficient
            }
            guard let e = entering else {
                infeasible.removeAll()
                return false
            }
            pivot(slot, e)
        }
        return true
    }

    /// Takes an enforced constraint out of the tableau and frees its symbols.
    func withdraw(_ rec: Record) {
        let level = rec.definition.isRequired ? nil : objective.levelIndex(rec.definition.priority)
        for err in [rec.marker, rec.other] {
            guard let err, err.kind == .error, let level else { continue }
            let slot = rowOf[err.index]
            if slot >= 0 {
                for c in rows[Int(slot)].cells { addCost(c.symbol, -c.coefficient, level: level) }
            } else {
                addCost(err, -1, level: level)
            }
        }
        guard let marker = rec.marker else { return }
        if rowOf[marker.index] >= 0 {
            _ = removeRow(rowOf[marker.index])
        } else if let slot = markerLeavingRow(marker) {
            pivot(slot, marker)
            _ = removeRow(slot)
        }
        release(marker)
        if let o = rec.other { release(o) }
    }

    /// Kiwi's choice of the row to pivot a parametric marker into before removal:
    /// the most constraining restricted row, then any restricted row, then an external one.
    private func markerLeavingRow(_ marker: Symbol) -> Int32? {
        var first: Int32 = -1, second: Int32 = -1, third: Int32 = -1
        var r1 = Double.infinity, r2 = Double.infinity
        columns[marker.index].forEach { slot in
            let i = Int(slot)
            let c = rows[i].coefficient(for: marker)
            if basicOf[i].isExternal {
                if third < 0 { third = slot }
            } else if c < 0 {
                let r = -rows[i].constant / c
                if r < r1 { r1 = r; first = slot }
            } else {
                let r = rows[i].constant / c
                if r < r2 { r2 = r; second = slot }
            }
        }
        if first >= 0 { return first }
        if second >= 0 { return second }
        return third >= 0 ? third : nil
    }
}
