import WorkBudget

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
        for i in 0..<batch.count {
            // The budget every 1,024 rows: making a 60,000-view column's rows is seconds of a
            // debug build, which a drain's cancel must not wait out.
            if i & 1023 == 1023 && WorkBudget.exhausted() { throw Unsatisfiable(reason: "past the request's work budget") }
            let (terms, relation, priority) = (batch.terms(i), batch.relation(i), batch.priority(i))
            guard fresh else {
                handles.append(newRow(terms, constant: batch.constant(i), relation, priority: priority, inBatch: true).0)
                continue
            }
            let row = rows.beginList()
            appendTerms(terms)
            forEachExtraColumn(relation, priority) { k, cost, a in rows.appendToLast(Entry(appendColumn(k, priority: cost), a)) }
            rowLive.append(true)
            rhs.append(-batch.constant(i))
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

    /// A new column at the end, of a batch's row: its column list and reduced costs are made
    /// with the batch's (`makeColumnLists`, the crash).
    @inline(__always) private func appendColumn(_ k: Kind, priority: Double) -> Int {
        let j = kind.count
        columnRows.appendList()
        kind.append(k)
        costPriority.append(priority)
        value.append(0)
        isUser.append(false)
        touched.append(false)
        return j
    }
}
