/// Unsatisfiable required constraints, broken as Auto Layout breaks them: when the dual
/// simplex finds no entering column, the row ρ of B⁻¹ it computed is a Farkas certificate
/// whose support holds only required rows (an optional row there would have offered an
/// error column). One of them (the current operation's, else the first in the batch's break
/// order, else the newest) is demoted to
/// the `broken` level, just above every optional level, by giving it error columns
/// (nonbasic at 0: the basis, values and duals stay valid), and the simplex goes on.
extension FactoredSolver {
    /// The level broken constraints keep: above every optional level (which are below 1000).
    static let brokenPriority = Priority.required

    func breakConstraint(certificate rho: [Entry]) throws(Unsatisfiable) {
        var support: [Int] = []
        for e in rho where abs(e.value) > 1e-9 {
            let r = e.index
            let h = handleOfRow[r]
            guard let rec = records[h], rec.isRequired, !records.isBroken(h) else { continue }
            support.append(r)
        }
        guard !support.isEmpty else { throw Unsatisfiable(reason: "a certificate without a breakable row") }
        support = unstarred(support, rho)
        // The operation's own row, else the first in the batch's break order, else the newest.
        let r =
            preferredRow.flatMap { support.contains($0) ? $0 : nil }
            ?? support.min { (breakOrder(ofRow: $0), -$0) < (breakOrder(ofRow: $1), -$1) }!
        // A tie of a star breaks in a row of its own: written back, the basis is made again
        // and the conflict found among the ties as they came.
        if tieStars.contains(handleOfRow[r]) {
            unwindTies()
            throw Unsatisfiable(reason: Self.tiesUnwound)
        }
        let h = handleOfRow[r]
        let level = levelIndex(Self.brokenPriority)
        var signs: [Double]
        switch records[h]!.relation {
        case .equal: signs = [-1, 1]
        case .greaterOrEqual: signs = [1]
        case .lessOrEqual: signs = [-1]
        }
        for a in signs {
            let e = newColumn(.error, priority: Self.brokenPriority)
            appendToRow(r, e, a)
            // Written only where row r has a dual (and at its own level): unset, a reduced cost
            // reads as the column's cost. Among a level a cell, writing every level listed
            // each level as the column's, and each later zeroing walked them all, levels²
            // (a ladder shifted a cell beside a conflict a cell: 41% of a 400-cell build).
            for k in reduced.indices {
                let y = duals[k][r]
                if y != 0 || k == level { setReducedCost(k, e, (k == level ? 1 : 0) - y * a) }
            }
            checkCandidate(e)
        }
        flipEpoch += 1
        records.conflicts[h] = support.filter { $0 != r }.map { ConstraintHandle(raw: handleOfRow[$0]) }
        broken.append(h)
        ambiguityCache = nil
    }

    /// After a removal or a set-constant (`trigger`), broken constraints are tried again,
    /// oldest first: one whose errors are all 0 holds with the required ones and becomes
    /// required at no cost; one whose conflict set involves the trigger (a member removed,
    /// edited or broken since, or itself edited) is tried as required: its errors become
    /// [0,0] artificials and the dual simplex either drives them to 0 or breaks it again
    /// with a new conflict set. One whose conflict set is untouched still conflicts.
    func retryBroken(after trigger: Int32?, removedRow: Int? = nil) throws(Unsatisfiable) {
        // The list is taken and made again: those not retried keep their places, and the
        // solves append what they break (again) after them, as removing each retried one in
        // place and appending did. In place, each removal scanned the list: n² for a document
        // with a conflict a cell (12% of an 8,000-cell build).
        let retried = broken
        var kept: [Int32] = [], next = 0
        broken = []
        // A solve that throws leaves the ones not reached yet where they were.
        defer { broken = kept + retried[next...] + broken }
        while next < retried.count {
            let h = retried[next]
            next += 1
            guard let rec = records[h], let conflicts = records.conflicts[h] else {
                kept.append(h)
                continue
            }
            let errors = rows[rec.row].map(\.index).filter { kind[$0] == .error && costPriority[$0] == Self.brokenPriority }
            let holds = errors.allSatisfy { value[$0] <= Self.eps }
            let involved =
                trigger == nil || trigger == h
                || conflicts.contains {
                    $0.raw == trigger || records[$0.raw] == nil || records.isBroken($0.raw)
                }
            guard holds || involved else {
                kept.append(h)
                continue
            }
            for e in errors {
                // Its cost stays while it is basic, so the duals stay consistent; once
                // nonbasic the artificial is deleted.
                kind[e] = .fixed
                zeroReducedCosts(e)
                candidates.remove(e)
                if basis.isBasic(e) { setValue(e, value[e]) }  // off zero: an infeasible artificial
                pendingFixed.append(e)
            }
            records.conflicts[h] = nil
            if !holds {
                preferredRow = rec.row
                try solve()  // may break it again, with a new certificate
                preferredRow = nil
            }
            try cleanupArtificials()
        }
    }

    /// Broken constraints with the conflicting sets that explain them (each set holds the
    /// broken one), oldest first.
    public var brokenConstraints: [(constraint: ConstraintHandle, conflicts: [ConstraintHandle])] {
        broken.compactMap { h in
            guard let c = records.conflicts[h] else { return nil }
            return (ConstraintHandle(raw: h), (c + [ConstraintHandle(raw: h)]).sorted())
        }
    }
}
