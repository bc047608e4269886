/// A batch's rows. In an engine with no row or column ids to reuse (a document's build), each
/// row is written entry by entry after the last, its slack and errors appended as new columns,
/// the basis's tables grown once: row by row (`newRow`) it was 1,260 instructions a row, a
/// fifth of the 1,000-cell stack feed's build.
extension FactoredSolver {
    func makeRows(_ batch: ConstraintBatch, handles: inout [ConstraintHandle]) throws(Unsatisfiable) {
        let fresh = freeRows.isEmpty && freeColumns.isEmpty
        defer {
            if fresh {
                basis.growRows(to: rows.listCount)
                basis.growColumns(to: kind.count)
            }
        }
        ambiguityCache = nil
        guard fresh else {
            for i in 0..<batch.count {
                if i & 1023 == 1023 { try Self.checkBudget() }
                let (terms, relation, priority) = (batch.terms(i), batch.relation(i), batch.priority(i))
                handles.append(newRow(terms, constant: batch.constant(i), relation, priority: priority, inBatch: true).0)
            }
            return
        }
        // The rows' slacks and errors are numbered on from the last column and kept here, and
        // every per-row and per-column array grows once at the end (also when the budget
        // stops the loop): appended a row and a column at a time, each append checked its
        // array's uniqueness, a third of these rows' cost (7% of a 1,000-cell nested
        // screen's build).
        let firstColumn = kind.count, firstRow = rows.listCount
        var extraKind: [Kind] = [], extraCost: [Double] = []
        extraKind.reserveCapacity(2 * batch.count)
        extraCost.reserveCapacity(2 * batch.count)
        defer {
            let (madeRows, madeColumns) = (rows.listCount - firstRow, extraKind.count)
            rowLive.append(true, count: madeRows)
            rhs.append(contentsOf: (0..<madeRows).lazy.map { -batch.constant($0) })
            for _ in 0..<madeColumns { columnRows.appendList() }
            kind.append(contentsOf: extraKind)
            costPriority.append(contentsOf: extraCost)
            value.append(contentsOf: repeatElement(0, count: madeColumns))
            isUser.append(false, count: madeColumns)
            touched.append(contentsOf: repeatElement(false, count: madeColumns))
        }
        for i in 0..<batch.count {
            // The budget every 1,024 rows: making a 60,000-view column's rows is seconds of a
            // debug build, which a drain's cancel must not wait out.
            if i & 1023 == 1023 { try Self.checkBudget() }
            let (terms, relation, priority) = (batch.terms(i), batch.relation(i), batch.priority(i))
            let row = rows.beginList()
            appendTerms(terms)
            forEachExtraColumn(relation, priority) { k, cost, a in
                rows.appendToLast(Entry(firstColumn + extraKind.count, a))
                extraKind.append(k)
                extraCost.append(cost)
            }
            let h = records.insert(Record(row: row, relation: relation, required: priority >= Priority.required))
            handleOfRow.append(h)
            handles.append(ConstraintHandle(raw: h))
        }
    }

    /// A row's terms as `newRow` writes them (`mergeTerms`). Most rows have no variable twice
    /// and no zero, and are copied as they are.
    private func appendTerms(_ terms: ArraySlice<(variable: Variable, coefficient: Double)>) {
        var clean = true
        for k in terms.indices where clean {
            if terms[k].coefficient == 0 { clean = false }
            for m in terms.startIndex..<k where terms[m].variable == terms[k].variable { clean = false }
        }
        if clean {
            for (v, a) in terms { rows.appendToLast(Entry(v.symbol.index, a)) }
        } else {
            mergeTerms(terms)
            for e in rowScratch { rows.appendToLast(e) }
        }
    }
}
