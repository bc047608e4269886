import CheckedNumbers
import WorkBudget
/// The engine surface the layout model uses. The simplex's own failures cannot happen with
/// conflicts broken (every certificate names a required row) and a bounded objective
/// (errors ≥ 0); should one happen anyway, the engine rebuilds its basis from its rows
/// rather than take the process down.
extension FactoredSolver: ConstraintEngine {
    @discardableResult
    public func add(_ definition: ConstraintDefinition) -> ConstraintHandle {
        operation {
            do throws(Unsatisfiable) { return try tryAdd(definition) } catch {
                recover(after: error)
                return lastAdded.last!
            }
        }
    }

    public func add(batch: ConstraintBatch) -> [ConstraintHandle] {
        operation {
            do throws(Unsatisfiable) { return try tryAdd(batch: batch) } catch {
                recover(after: error)
                return lastAdded
            }
        }
    }

    public func replace(_ handles: [ConstraintHandle], with batch: ConstraintBatch) -> [ConstraintHandle] {
        operation {
            do throws(Unsatisfiable) { return try tryReplace(handles, with: batch) } catch {
                recover(after: error)
                return lastAdded
            }
        }
    }

    public func remove(_ handle: ConstraintHandle) {
        operation { do throws(Unsatisfiable) { try tryRemove(handle) } catch { recover(after: error) } }
    }

    public func setConstant(_ handle: ConstraintHandle, _ constant: Double) {
        operation { do throws(Unsatisfiable) { try trySetConstant(handle, constant) } catch { recover(after: error) } }
    }

    public func setConstants(_ changes: [(handle: ConstraintHandle, constant: Double)]) {
        operation { do throws(Unsatisfiable) { try trySetConstants(changes) } catch { recover(after: error) } }
    }

    public func setPriority(_ handle: ConstraintHandle, _ priority: Double) {
        operation { do throws(Unsatisfiable) { try trySetPriority(handle, priority) } catch { recover(after: error) } }
    }

    /// A change on the thread's work vectors.
    private func operation<T>(_ body: () -> T) -> T { lendingWork(body) }

    /// A fresh basis for every live row (the batch build's path).
    /// Counted (`recoveries`): the layout model falls back to the solved form when it sees one.
    /// The handles the failed add made stay its answer: the rebuild is a batch of its own,
    /// which would leave none.
    /// A conflict that named a star's row (`tiesUnwound`) is not a failure: the rows are as
    /// they came, and the same rebuild makes their basis.
    private func recover(after error: Unsatisfiable) {
        if WorkBudget.exhausted() { return }
        if error.reason != Self.tiesUnwound { recoveries += 1 }
        preferredRow = nil
        let made = lastAdded
        _ = try? tryAdd(batch: ConstraintBatch())
        lastAdded = made
    }

    public func removeVariable(_ v: Variable) {
        let j = v.symbol.index
        guard j < kind.count, isUser[j], columnRows[j].allSatisfy({ records[handleOfRow[Int($0)]] == nil }) else { return }
        guard !dependents.contains(column: j), dependents.users.count(j) == 0 else { return }
        if basis.isBasic(j) { return }  // basic in a removed row not yet dropped: left as it is
        isUser[j] = false
        kind[j] = .dead
        value[j] = 0
        ambiguityCache = nil
        // Reused now if no row names it; else once its removed rows are dropped.
        if columnRows[j].isEmpty { freeColumns.append(j) }
    }

    /// A constraint as added: its terms are its row's user columns (rows keep them as written).
    public func definition(_ handle: ConstraintHandle) -> ConstraintDefinition? {
        if let star = starDefinition(handle.raw) { return star }
        guard let rec = records[handle.raw] else { return nil }
        var terms: [(variable: Variable, coefficient: Double)] = []
        for e in rows[rec.row] where isUser[e.index] { terms.append((Variable(symbol: Symbol(id: Int32(e.index), kind: .external)), e.value)) }
        return ConstraintDefinition(LinearExpression(terms: terms, constant: -rhs[rec.row]), rec.relation, priority: priority(of: rec))
    }

    /// A record's priority: required, else its row's error columns' cost.
    func priority(of rec: Record) -> Double {
        if rec.isRequired { return Priority.required }
        return rows[rec.row].first { kind[$0.index] == .error }.map { costPriority[$0.index] } ?? Priority.required
    }

    public var hasDiagnostics: Bool {
        if !broken.isEmpty { return true }
        if let cached = ambiguityCache?.ambiguous.isEmpty { return !cached }  // read in place, not copied out
        return lendingWork { !ambiguity().ambiguous.isEmpty }
    }

    public func constraintsAffecting(_ v: Variable) -> [ConstraintHandle] {
        lendingWork { affecting(v) }
    }

    private func affecting(_ v: Variable) -> [ConstraintHandle] {
        let j = v.symbol.index
        let handles = dependents.contains(column: j) ? Array(dependentAffecting(j) { coreAffecting($0) }) : coreAffecting(j)
        return withStarPaths(handles).sorted().map { ConstraintHandle(raw: $0) }
    }

    private func coreAffecting(_ j: Int) -> [Int32] {
        var out = Set<Int32>()
        if basis.isBasic(j) {
            // The row of B⁻¹ for v: the rows whose right-hand sides (constants) move it.
            basis.btran(CollectionOfOne(Entry(basis.stepOfColumn[j], 1.0)), into: &rowWork)
            for e in rho() where records[handleOfRow[e.index]] != nil { out.insert(handleOfRow[e.index]) }
        } else {
            for r in columnRows[j] where records[handleOfRow[Int(r)]] != nil { out.insert(handleOfRow[Int(r)]) }
        }
        return Array(out)
    }

    public var stats: SolverStats {
        SolverStats(
            rows: basis.stepCount, columns: kind.count, constraints: records.count, broken: broken.count,
            priorityLevels: levelPriority.count, pivots: pivotCount, touchedRows: valuesWritten)
    }

    public var tableauSize: (rows: Int, columns: Int) { (basis.stepCount, kind.count) }

    /// The levels packed (dense again at their first write, a pivot's), L by row and the
    /// column lists dropped (made again at their first use): a 1,000-cell session's duals and
    /// reduced costs 176 → 17 bytes a view, L by row's 127 and the columns' 143
    /// (`layoutd-document-bench --footprint`). Right after a batch build each is made again as
    /// it was (a batch's column lists are the rows' transpose too), so a session compacted then
    /// answers exactly as one that was not.
    public func compact() {
        maybeRefactor()
        for k in duals.indices { duals[k].pack(); reduced[k].pack() }
        basis.dropTransposedL()
        dropColumnLists()
    }
}
