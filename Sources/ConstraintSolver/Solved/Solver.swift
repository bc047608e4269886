import CheckedNumbers
/// An incremental Cassowary solver with strict (lexicographic) priorities.
///
/// The tableau keeps every basic symbol as a row of parametric ones; a column index
/// records which rows mention each symbol, so substitution, set-constant and the
/// dual simplex touch only the rows that depend on a change. Required constraints that
/// cannot be satisfied are broken (kept aside and explained), never thrown.
public final class Solver {
    struct Record {
        var definition: ConstraintDefinition
        var state: ConstraintState
        var marker: Symbol? = nil
        var other: Symbol? = nil
        /// The marker's coefficient in the constraint's own row: set-constant shifts the
        /// marker by δ/markerCoefficient.
        var markerCoefficient: Double = 1
    }

    // Symbols (indexed by symbol id).
    var rowOf: [Int32] = []
    var columns: [IndexSet32] = []
    var markerOwner: [Int32] = []
    var reported: [Double] = []
    var changeFlag: [Bool] = []
    var ambiguityFlag: [Bool] = []
    var dirtyFlag: [Bool] = []
    /// Symbols whose zero-cost moves need a new verdict, each listed once (`movesMayChange`).
    var movesFlag: [Bool] = []
    /// The constraints naming each variable that are not broken (a set: a widely shared
    /// variable has thousands), and those that are: explaining a conflict looks at the first
    /// only, and n constraints at odds on one variable are n broken beside a few in force.
    var constraintsOf: [IndexSet32] = []
    var brokenOf: [IndexSet32] = []
    private var nextSymbolId: Int32 = 0
    private var freeSymbolIds: [Int32] = []

    // Rows (indexed by slot).
    var rows: [Row] = []
    var basicOf: [Symbol] = []
    private var freeSlots: [Int32] = []

    var objective = Objective()
    /// The phase-one objective while a constraint is added through an artificial variable.
    var artificial: Row? = nil

    var records = RecordTable()
    /// Broken and redundant constraints, retried when the system changes under them.
    var dormant: Set<Int32> = [] { didSet { brokenEpoch &+= 1 } }
    public private(set) var brokenEpoch = 0

    // Work lists.
    var dirty: [Symbol] = []
    var infeasible: [Int32] = []
    var changed: [Int32] = []
    var ambiguityPending: [Int32] = []
    var movesPending: [Symbol] = []
    /// Usually empty: an IndexSet32, so keeping it current costs no hashing.
    var ambiguousIds = IndexSet32()

    /// Off in the throw-away solvers that test candidate conflict sets.
    var explainsConflicts = true

    private(set) var pivotCount = 0
    /// Live rows and non-empty columns, kept as they change so `stats` is O(1).
    var liveRows = 0
    var liveColumns = 0
    var touchedRows = 0

    public init() {}

    // MARK: Variables

    public func addVariable() -> Variable {
        let s = newSymbol(.external)
        reported[s.index] = 0
        markAmbiguity(s)
        return Variable(symbol: s)
    }

    /// Drops a variable no constraint mentions any more.
    public func removeVariable(_ v: Variable) {
        let s = v.symbol
        guard s.index < rowOf.count, constraintsOf[s.index].isEmpty, brokenOf[s.index].isEmpty else { return }
        ambiguousIds.remove(s.id)
        release(s)
    }

    public func value(_ v: Variable) -> Double {
        let slot = rowOf[v.symbol.index]
        return slot >= 0 ? rows[Int(slot)].constant : 0
    }

    // MARK: Constraints

    @discardableResult
    public func add(_ definition: ConstraintDefinition) -> ConstraintHandle {
        let h = records.insert(Record(definition: definition, state: .active))
        for (v, _) in definition.expression.terms { constraintsOf[v.symbol.index].insert(h) }
        enforce(h)
        optimize()
        return ConstraintHandle(raw: h)
    }

    public func remove(_ handle: ConstraintHandle) { remove(all: [handle]) }

    public func remove(all handles: [ConstraintHandle]) {
        for handle in handles {
            guard let rec = records.removeValue(forKey: handle.raw) else { continue }
            for (v, _) in rec.definition.expression.terms {
                constraintsOf[v.symbol.index].remove(handle.raw)
                brokenOf[v.symbol.index].remove(handle.raw)
            }
            dormant.remove(handle.raw)
            if rec.marker != nil { withdraw(rec) }
        }
        optimize()
        retryDormant()
    }

    public func definition(_ handle: ConstraintHandle) -> ConstraintDefinition? {
        records[handle.raw]?.definition
    }

    func state(_ handle: ConstraintHandle) -> ConstraintState? {
        records[handle.raw]?.state
    }

    /// Broken constraints with the conflicting sets that explain them.
    public var brokenConstraints: [(constraint: ConstraintHandle, conflicts: [ConstraintHandle])] {
        dormant.sorted().compactMap { h in
            if case .broken(let c)? = records[h]?.state { return (ConstraintHandle(raw: h), c) }
            return nil
        }
    }

    /// The fast path: one marker shift plus a dual simplex over the rows it touched.
    public func setConstant(_ handle: ConstraintHandle, _ constant: Double) {
        // Set in place; only the marker and its coefficient are read back.
        guard
            let (delta, marker, coefficient) = records.update(
                handle.raw,
                { rec -> (Double, Symbol?, Double) in
                    let delta = constant - rec.definition.expression.constant
                    rec.definition.expression.constant = constant
                    return (delta, rec.marker, rec.markerCoefficient)
                }), delta != 0
        else { return }
        if let marker {
            shift(marker, by: delta / coefficient)
            if !dualOptimize() {
                // Infeasible with the new constant: undo, then break it as Auto Layout would.
                shift(marker, by: -delta / coefficient)
                _ = dualOptimize()
                withdraw(records[handle.raw]!)
                breakConstraint(handle.raw)
                optimize()
            }
        } else {
            reenforce(handle.raw)
        }
        if !dormant.isEmpty { retryDormant() }
    }

    public func setPriority(_ handle: ConstraintHandle, _ priority: Double) {
        guard var rec = records[handle.raw], rec.definition.priority != priority else { return }
        if rec.marker != nil { withdraw(rec) }
        rec.definition.priority = priority
        rec.marker = nil
        rec.other = nil
        if case .broken = rec.state { file(handle.raw, broken: false) }
        rec.state = .active
        records[handle.raw] = rec
        dormant.remove(handle.raw)
        enforce(handle.raw)
        optimize()
        retryDormant()
    }

    // MARK: Changes

    /// The variables whose value moved (beyond 1e-9) since the last call, found from the
    /// rows the changes touched, into a buffer the caller keeps (cleared first), sorted: the
    /// per-change path allocates nothing once the buffer has grown.
    public func takeChanges(into out: inout [Variable]) {
        out.removeAll(keepingCapacity: true)
        for id in changed {
            let i = Int(id)
            changeFlag[i] = false
            let s = Symbol(id: id, kind: .external)
            guard rowOf.count > i, constraintsOf.count > i else { continue }
            let slot = rowOf[i]
            let v = slot >= 0 ? rows[Int(slot)].constant : 0
            if abs(v - reported[i]) > 1e-9 {
                reported[i] = v
                out.append(Variable(symbol: s))
            }
        }
        changed.removeAll(keepingCapacity: true)
        out.sort()
    }

    // MARK: Tableau internals

    func newSymbol(_ kind: Symbol.Kind) -> Symbol {
        let id: Int32
        if let f = freeSymbolIds.popLast() {
            id = f
        } else {
            id = nextSymbolId
            nextSymbolId += 1
            rowOf.append(-1)
            columns.append(IndexSet32())
            markerOwner.append(-1)
            reported.append(0)
            changeFlag.append(false)
            ambiguityFlag.append(false)
            dirtyFlag.append(false)
            movesFlag.append(false)
            constraintsOf.append(IndexSet32())
            brokenOf.append(IndexSet32())
            objective.grow(to: Int(nextSymbolId))
        }
        return Symbol(id: id, kind: kind)
    }

    /// Frees a symbol, first purging any trace of it (rounding can leave tiny cells).
    func release(_ s: Symbol) {
        let i = s.index
        if rowOf[i] >= 0 { _ = removeRow(rowOf[i]) }
        for slot in columns[i].elements {
            _ = rows[Int(slot)].remove(s)
        }
        if !columns[i].isEmpty { liveColumns -= 1; columns[i].removeAll() }
        _ = objective.take(s)
        markerOwner[i] = -1
        freeSymbolIds.append(s.id)
    }

    @discardableResult
    func insertRow(_ row: Row, basic: Symbol) -> Int32 {
        let slot: Int32
        if let f = freeSlots.popLast() {
            slot = f
            rows[Int(f)] = row
            basicOf[Int(f)] = basic
        } else {
            slot = Int32(rows.count)
            rows.append(row)
            basicOf.append(basic)
        }
        rowOf[basic.index] = slot
        for c in row.cells { columnInsert(c.symbol, slot) }
        if basic.isExternal { markChanged(basic) } else if basic.isRestricted { limitMoved(slot) }
        touchedRows += 1
        liveRows += 1
        return slot
    }

    func removeRow(_ slot: Int32) -> Row {
        let s = Int(slot)
        if basicOf[s].isRestricted { limitMoved(slot) }
        let row = rows[s]
        for c in row.cells { columnRemove(c.symbol, slot) }
        liveRows -= 1
        let basic = basicOf[s]
        rowOf[basic.index] = -1
        if basic.isExternal { markChanged(basic) }
        rows[s] = Row()
        basicOf[s] = .invalid
        freeSlots.append(slot)
        return row
    }

    /// Replaces `s` by `expr` in every row that mentions it and in the objectives.
    func substitute(_ s: Symbol, _ expr: Row) {
        var entered: [Symbol] = []
        var left: [Symbol] = []
        for slot in columns[s.index].elements {
            let i = Int(slot)
            let c = rows[i].remove(s)
            entered.removeAll(keepingCapacity: true)
            left.removeAll(keepingCapacity: true)
            rows[i].add(expr, times: c, entered: &entered, left: &left)
            for e in entered { columnInsert(e, slot) }
            for l in left { columnRemove(l, slot) }
            touchedRows += 1
            let b = basicOf[i]
            if b.isExternal { markChanged(b) } else if rows[i].constant < 0 { infeasible.append(slot) }
            if b.isRestricted { limitMoved(slot, also: left) }
        }
        if !columns[s.index].isEmpty { liveColumns -= 1; columns[s.index].removeAll() }
        for (level, c) in objective.take(s) {
            for cell in expr.cells {
                if objective.add(cell.symbol, c * cell.coefficient, level: level) { costFlipped(cell.symbol) }
                markDirty(cell.symbol)
            }
        }
        if artificial != nil {
            let c = artificial!.remove(s)
            if c != 0 {
                var e: [Symbol] = [], l: [Symbol] = []
                artificial!.add(expr, times: c, entered: &e, left: &l)
            }
        }
    }

    /// Makes `entering` basic in the row at `slot`, whose basic symbol leaves.
    func pivot(_ slot: Int32, _ entering: Symbol) {
        let i = Int(slot)
        let leaving = basicOf[i]
        rows[i].solve(for: entering, replacing: leaving)
        columnRemove(entering, slot)
        columnInsert(leaving, slot)
        rowOf[leaving.index] = -1
        rowOf[entering.index] = slot
        basicOf[i] = entering
        if leaving.isExternal { markChanged(leaving) }
        if entering.isExternal { markChanged(entering) }
        // The row starts or stops limiting moves, or limits others (leaving joined its cells).
        if leaving.isRestricted || entering.isRestricted { limitMoved(slot); movesMayChange(entering) }
        pivotCount += 1
        touchedRows += 1
        substitute(entering, rows[i])
    }

    /// Moves a parametric or basic marker by `d` (set-constant), flagging rows that turn infeasible.
    func shift(_ m: Symbol, by d: Double) {
        let slot = rowOf[m.index]
        if slot >= 0 {
            let old = rows[Int(slot)].constant
            rows[Int(slot)].constant -= d
            touchedRows += 1
            if rows[Int(slot)].constant < 0 && m.isRestricted { infeasible.append(slot) }
            if m.isRestricted { limitConstantMoved(slot, from: old) }
            return
        }
        columns[m.index].forEach { slot in
            let i = Int(slot)
            let old = rows[i].constant
            rows[i].constant += rows[i].coefficient(for: m) * d
            touchedRows += 1
            let b = basicOf[i]
            if b.isExternal { markChanged(b) } else if rows[i].constant < 0 { infeasible.append(slot) }
            if b.isRestricted { limitConstantMoved(slot, from: old) }
        }
    }

    @inline(__always) func columnInsert(_ s: Symbol, _ slot: Int32) {
        if columns[s.index].isEmpty { liveColumns += 1 }
        columns[s.index].insert(slot)
    }

    @inline(__always) func columnRemove(_ s: Symbol, _ slot: Int32) {
        columns[s.index].remove(slot)
        if columns[s.index].isEmpty { liveColumns -= 1 }
    }

    func markChanged(_ s: Symbol) {
        let i = s.index
        if !changeFlag[i] { changeFlag[i] = true; changed.append(s.id) }
        if !ambiguityFlag[i] { ambiguityFlag[i] = true; ambiguityPending.append(s.id) }
    }

    func markAmbiguity(_ s: Symbol) {
        let i = s.index
        if !ambiguityFlag[i] { ambiguityFlag[i] = true; ambiguityPending.append(s.id) }
    }

    /// A restricted row is what limits a zero-cost move (`step` in Solver+Ambiguity). When
    /// one changes (constant or cells), comes or goes, the variables such moves would change
    /// need a new verdict; `gone` are symbols the row no longer mentions.
    func limitMoved(_ slot: Int32, also gone: [Symbol] = []) {
        for c in rows[Int(slot)].cells { movesMayChange(c.symbol) }
        for s in gone { movesMayChange(s) }
    }

    /// Only a constant at (or coming to, or leaving) zero limits a move to nothing: a row
    /// that stays clear of zero (the set-constant path's usual case) changes no verdict.
    func limitConstantMoved(_ slot: Int32, from old: Double) {
        let row = rows[Int(slot)]
        var largest = 0.0
        for c in row.cells { largest = max(largest, abs(c.coefficient)) }
        if min(old, row.constant) <= Self.stepTolerance * largest { limitMoved(slot) }
    }

    /// Notes that a zero-cost move of `s` may change what it did: `s` itself and the basics
    /// of the rows that mention it need a new verdict. Noted once, marked when the verdicts
    /// are next read (`flushMoves`): a symbol in n rows, each limiting moves, was walked n
    /// times (n² for n constraints at odds on one view). Costly moves are skipped:
    /// `costFlipped` catches them if their cost reaches zero later.
    private func movesMayChange(_ s: Symbol) {
        guard objective.isZero(s), !movesFlag[s.index] else { return }
        movesFlag[s.index] = true
        movesPending.append(s)
    }

    /// Marks what the noted moves change, in the tableau as it now is: a row that stopped
    /// mentioning a symbol since was changed, and its basic marked then.
    func flushMoves() {
        for s in movesPending {
            movesFlag[s.index] = false
            if s.isExternal { markAmbiguity(s) }
            columns[s.index].forEach { slot in
                let b = basicOf[Int(slot)]
                if b.isExternal { markAmbiguity(b) }
            }
        }
        movesPending.removeAll(keepingCapacity: true)
    }

    /// A symbol's cost went between zero and non-zero: the rows that mention it may have
    /// gained or lost an alternative optimum.
    func costFlipped(_ s: Symbol) {
        columns[s.index].forEach { slot in
            let b = basicOf[Int(slot)]
            if b.isExternal { markAmbiguity(b) }
        }
    }

    func markDirty(_ s: Symbol) {
        if !dirtyFlag[s.index] { dirtyFlag[s.index] = true; dirty.append(s) }
    }
}
