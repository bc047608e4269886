import WorkBudget

/// A batch's rows made in one pass, for an engine with no row or column ids to reuse (a
/// document's build): each row written entry by entry after the last, its slack and errors
/// appended as new columns, the basis's tables grown once. Row by row (`newRow`) it was 1,260
/// instructions a row, a fifth of the 1,000-cell stack feed's build.
extension FactoredSolver {
    func appendRows(_ batch: ConstraintBatch, handles: inout [ConstraintHandle]) throws(Unsatisfiable) {
        defer {
            basis.growRows(to: rows.listCount)
            basis.growColumns(to: kind.count)
        }
        ambiguityCache = nil
        var lastPriority = Double.nan  // its level made: most rows repeat the row before's
        for i in 0..<batch.count {
            // The budget every 1,024 rows: making a 60,000-view column's rows is seconds of a
            // debug build, which a drain's cancel must not wait out.
            if i & 1023 == 1023 && WorkBudget.exhausted() { throw Unsatisfiable(reason: "past the request's work budget") }
            let (relation, priority) = (batch.relation(i), batch.priority(i))
            let row = rows.beginList()
            appendTerms(batch.terms(i))
            switch relation {
            case .greaterOrEqual: rows.appendToLast(Entry(appendColumn(.slack, priority: 0), -1))
            case .lessOrEqual: rows.appendToLast(Entry(appendColumn(.slack, priority: 0), 1))
            case .equal: break
            }
            if priority < Priority.required {
                if priority != lastPriority {
                    _ = levelIndex(priority)
                    lastPriority = priority
                }
                switch relation {
                case .equal:
                    rows.appendToLast(Entry(appendColumn(.error, priority: priority), -1))
                    rows.appendToLast(Entry(appendColumn(.error, priority: priority), 1))
                case .greaterOrEqual: rows.appendToLast(Entry(appendColumn(.error, priority: priority), 1))
                case .lessOrEqual: rows.appendToLast(Entry(appendColumn(.error, priority: priority), -1))
                }
            }
            rowLive.append(true)
            rhs.append(-batch.constant(i))
            let h = records.insert(Record(row: row, relation: relation, required: priority >= Priority.required))
            handleOfRow.append(h)
            handles.append(ConstraintHandle(raw: h))
        }
    }

    /// A row's terms as `newRow` writes them: a variable's terms merged, zeros dropped. Most
    /// rows have neither, and are copied as they are.
    private func appendTerms(_ terms: ArraySlice<(variable: Variable, coefficient: Double)>) {
        var clean = true
        for k in terms.indices where clean {
            if terms[k].coefficient == 0 { clean = false }
            for m in terms.startIndex..<k where terms[m].variable == terms[k].variable { clean = false }
        }
        if clean {
            for (v, a) in terms { rows.appendToLast(Entry(v.symbol.index, a)) }
            return
        }
        rowScratch.clear()
        for (v, a) in terms where a != 0 {
            let j = v.symbol.index
            if let k = rowScratch.firstIndex(where: { $0.index == j }) { rowScratch[k].value += a } else { rowScratch.append(Entry(j, a)) }
        }
        for e in rowScratch where e.value != 0 { rows.appendToLast(e) }
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
