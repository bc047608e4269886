import CheckedNumbers
import WorkBudget
/// The engine on a factored basis (revised simplex), with Cassowary's semantics: required
/// constraints hold, optional ones minimise the sum of absolute errors level by level
/// (strict priorities), nothing is re-solved from scratch.
///
/// Rows are kept as written, never substituted; the basis is `BasisFactor` (LU + eta
/// file). Values come from sparse solves whose reach is what can move, so a change costs
/// what it moves, and a dependent chain costs O(N) memory where the substituted solved
/// form (`Solver`) costs O(N²). A whole document goes in as one batch: every row appended
/// unsolved, a crash basis chosen for all of them, one factorization, then the simplex.
///
/// Constraint `Σ aᵢ·xᵢ + c  op  0` is the row `Σ aᵢ·xᵢ (+ slack, ± errors) = −c`.
/// Removal, conflicts and ambiguity are in the extensions beside this file; the model's
/// surface (`ConstraintEngine`) in `FactoredSolver+Engine`.
public final class FactoredSolver {
    enum Kind: UInt8 { case free, slack, error, fixed, dead }

    public struct Unsatisfiable: Error { var reason = "" }
    struct Unbounded: Error {}

    static let eps = 1e-9  // primal feasibility and pivot tolerance
    static let dualTolerance = 1e-10
    /// Past this many basis sizes of entries of ρ and B⁻¹a_q in one solve's dual steps, a
    /// violated optional row is repaired by its own error (`dualStep`). A star of required widths over
    /// n cells with optional rows of their own moved its hub to repair each cell and back to
    /// repair the next, each step as long as the star (126 such steps at 80 cells, 222 at 160);
    /// the stars whose dual steps settle do so within 3 basis sizes (`found3-widths-star-750`).
    static let localDualWork = 8
    /// Entries of a column of B⁻¹ past which a step is a hub's, moving what hangs on it.
    static let longColumn = 64
    /// A reduced cost this small, on a column that entered this solve and asks to enter again,
    /// is the rounding of a long column's sums. A star of widths beside aspect ratios
    /// (`found8-equalcentering-widths-star-aspect`, 2,750 units) summed a slack's cost at one
    /// level to −1.2·10⁻¹⁰ over 57,000 entries: it entered for an error with a real cost a
    /// level below, whose step put back 1.2·10⁻¹⁰ · 3/4 (under `dualTolerance`) and then
    /// −1.2·10⁻¹⁰ / (3/4), and the two swapped without end, 57,000 entries a step (3,000 units
    /// took 1 s). A noise above a real cost made a candidate is zeroed where it was found.
    static let reenteringNoise = 1e-8

    // Columns, by id. A user variable is a free column.
    var kind: [Kind] = []
    /// The priority of an error column's level (0: no cost).
    var costPriority = CostPriorities()
    /// Each column's rows, by id (its coefficients are in the rows: `column(_:)`): the
    /// transpose of `rows`, which `compact` drops and the first use (or write to the rows)
    /// makes again.
    var columnRows: SparseLists<Int32> {
        _read {
            if !columnListsMade { makeColumnLists() }
            yield columnLists
        }
        _modify {
            if !columnListsMade { makeColumnLists() }
            yield &columnLists
        }
    }
    private var columnLists = SparseLists<Int32>()
    private(set) var columnListsMade = true

    /// A dependent's row is kept but named by no column (`FactoredSolver+Dependents`).
    func makeColumnLists() {
        columnLists =
            dependents.isEmpty
            ? rowLists.transposedIndices(lists: kind.count) : rowLists.transposedIndices(lists: kind.count) { !dependents.contains(row: $0) }
        columnListsMade = true
    }

    /// The column lists made now if `compact` dropped them: before a dependent's row joins
    /// or leaves the rows they are made from.
    func makeColumnListsIfDropped() { if !columnListsMade { makeColumnLists() } }

    /// Drops the column lists (`columnRows` makes them again from the rows).
    func dropColumnLists() { (columnLists, columnListsMade) = (SparseLists<Int32>(), false) }
    var value: [Double] = []
    var isUser = BitVector()

    // Rows, by id (a dropped row's id is reused): coefficients by column and right-hand side.
    // Written only once the column lists exist, so that the lists made again are the rows'
    // transpose before the write, which the write then keeps up to date as always.
    var rows: SparseLists<Entry> {
        _read { yield rowLists }
        _modify {
            if !columnListsMade { makeColumnLists() }
            yield &rowLists
        }
    }
    private var rowLists = SparseLists<Entry>()
    var rowLive = BitVector()
    var rhs: [Double] = []

    let basis = BasisFactor()
    /// Scratch: a column B⁻¹·a, a row ρ = eᵀB⁻¹, and one more for bordering; held only
    /// while an operation runs (`lendingWork`).
    var columnWork = WorkVector(), rowWork = WorkVector(), extraWork = WorkVector()
    private var lentDepth = 0

    /// Levels, highest priority first; each with its duals (by row) and reduced costs (by
    /// column, stored only where not the column's cost: `reducedCost`).
    var levelPriority: [Double] = []
    var duals: [LevelVector] = []
    var reduced: [LevelVector] = []
    /// Among many levels, the levels each column's reduced cost was written at.
    var columnLevels = ColumnLevels()
    /// Scratch: the pivot row ρᵀA over the nonbasic columns, by column.
    var alphaWork = WorkVector()
    /// Scratch: the row `newRow` is making (an array a row was 32 of a batch's 63 M
    /// instructions in `newRow`, 1,000-cell feed).
    var rowScratch: [Entry] = []
    /// A pivot's levels where its entering column costs: (level, reduced cost).
    var levelScratch: [Entry] = []

    /// The basics this solve flipped to their twins at zero before a dual step
    /// (`degenerateBlockers`): each once a solve, so that flips cannot cycle.
    var degenerateFlipped: Set<Int> = []
    /// The entries of the dual steps' rows ρ and columns B⁻¹a_q this solve, and whether its dual
    /// steps now take the leaving row's twin instead of the ratio test's column (`dualStep`).
    var dualWork = 0, dualLocal = false
    /// Long columns whose dual step this solve broke more rows than it repaired (`dualStep`).
    var refusedHubs: Set<Int> = []
    /// Infeasible basics set aside this solve (`dualStep`): each once, back in the queue when
    /// it is empty (`restoreDeferred`); and the columns a dual step this solve took out of the
    /// basis along a long column of B⁻¹ (as long again when one re-enters soon after).
    var deferredRows: [Int] = [], deferredOnce: Set<Int> = [], leftLong: Set<Int> = []
    /// Columns a primal step this solve entered: one that asks to enter again on a reduced cost
    /// within `reenteringNoise` of zero is rounding noise, and its cost at that level is taken
    /// as zero (`primalStep`).
    var enteredPrimal: Set<Int> = []
    /// Primal steps this solve that entered a local candidate over Bland's (`shorterCandidate`);
    /// −1 once one could not.
    var shortcuts = 0
    /// Bland's candidate the last shortcut passed over (its direction ran through a hub), −1
    /// for none: while it stays Bland's candidate its direction is not solved for again.
    var hubCandidate = -1
    /// Steps this solve whose next candidate ran through the hub as Bland's did (`shorterCandidate`).
    var shortcutMisses = 0
    /// How many such steps a solve takes before it keeps Bland's order (each costs one more
    /// solve for a long direction). The first came where the hub itself had to move once (its
    /// step makes the other candidates local again): with none allowed, the rest of the star's
    /// walk (`found3-widths-star-750`, 8k units) entered columns through the hub, their etas past
    /// the factors' nonzeros fourfold, 6,243 M instructions (2.38 a doubling); with 8, 4,593 M
    /// (1.99). Equal-centering cells beside a star of widths miss more: with 8, 2.33 a doubling
    /// at 480–960 units (6,875 M); with 64, 2.12 (6,350 M). Besides these, one miss for each
    /// 8 shortcuts taken (a miss costs one long direction, a shortcut saves one): with 64 alone
    /// the same cells missed 65 times at 3,250 units (21 at 3,000) and the rest of the solve
    /// went through the hub, 19 factorizations.
    static let shortcutMissesAllowed = 64
    /// Columns marked `flipEpoch` cannot flip to a twin (`flipInfeasibleTwins`) until the epoch
    /// moves: each solve, and each broken row (its new errors are twins).
    var flipMarks: [Int] = [], flipEpoch = 0
    /// Nonbasic columns whose lexicographic reduced cost improves the objective.
    var candidates = IndexQueue()
    /// A solve's lazy duals: after a primal pivot whose row of B⁻¹ ran far longer than its
    /// direction, the next primal pivots leave the duals and the other reduced costs as they
    /// were (`dualsStale`); each entering column's own are computed from its direction, and
    /// every level's again (`recomputeDuals`) before a dual step, a long direction or the end.
    var lazyNext = false, dualsStale = false, lazyPhases = 0
    /// Entries of ρ the primal pivots wrote into the duals, over the engine's life (tests).
    var dualEntriesUpdated = 0
    /// Lazy phases a solve may start: each ends in a recompute as long as the system.
    static let lazyPhasesAllowed = 8
    /// Basic restricted columns below zero (or artificials off zero).
    var infeasible = InfeasibleQueue()
    var pendingFixed: [Int] = []

    /// The columns the current change wrote, each with its value before (the changed set).
    var touched: [Bool] = []
    var touchedList: [Int] = []
    var touchedBefore: [Double] = []

    /// A constraint: its row (which holds its terms, as written, and −constant as its
    /// right-hand side) and what the row does not say, in 4 bytes: the row (bits 0–28), the
    /// relation (29–30) and whether it is required (31). An optional constraint's priority is
    /// its error columns' cost (`priority(of:)`); the conflict sets are beside the table
    /// (`HandleTable.conflicts`). With the priority inside, a record was 16 bytes.
    struct Record: Equatable {
        private let bits: UInt32
        static let rowBits: UInt32 = (1 << 29) - 1
        /// An empty slot of the table (no row has this id).
        static let none = Record(bits: .max)

        private init(bits: UInt32) { self.bits = bits }
        init(row: Int, relation: Relation, required: Bool) {
            let code: UInt32 =
                switch relation {
                case .equal: 0
                case .lessOrEqual: 1
                case .greaterOrEqual: 2
                }
            bits = UInt32(row) & Self.rowBits | code << 29 | (required ? 1 << 31 : 0)
        }
        var row: Int { Int(bits & Self.rowBits) }
        var relation: Relation {
            switch bits >> 29 & 3 {
            case 0: .equal
            case 1: .lessOrEqual
            default: .greaterOrEqual
            }
        }
        var isRequired: Bool { bits >> 31 != 0 }
    }
    var records = HandleTable()
    /// The handles the add under way made (what a failed add still answers with).
    var lastAdded: [ConstraintHandle] = []
    var handleOfRow: [Int32] = []
    /// Broken constraints, oldest first.
    var broken: [Int32] = [] { didSet { brokenEpoch &+= 1 } }
    public private(set) var brokenEpoch = 0
    /// The row of the operation under way: the one to break when it is in a conflict.
    var preferredRow: Int? = nil
    /// The last batch's `breakOrder`, by handle from its first: the order a conflict breaks in
    /// (`Int64.max`, or a handle outside it: none, the newest row breaks). A batch whose
    /// handles do not run on (it reused those of the rows it replaced) keeps it by handle.
    var batchBreakOrder: [Int64] = []
    var batchFirstHandle: Int32 = 0
    var batchBreakOrderByHandle: [Int32: Int64] = [:]
    func breakOrder(ofRow r: Int) -> Int64 {
        let h = handleOfRow[r]
        let k = Int(h - batchFirstHandle)
        if k >= 0 && k < batchBreakOrder.count { return batchBreakOrder[k] }
        return batchBreakOrderByHandle[h] ?? .max
    }
    /// A handle gone: its place in the batch's order is no one's (the handle may be reused).
    func forgetBreakOrder(_ h: Int32) {
        let k = Int(h - batchFirstHandle)
        if k >= 0 && k < batchBreakOrder.count { batchBreakOrder[k] = .max }
        if !batchBreakOrderByHandle.isEmpty { batchBreakOrderByHandle[h] = nil }
    }
    /// Throws once the thread's work budget is spent: the caller discards what was built.
    @inline(__always) static func checkBudget() throws(Unsatisfiable) {
        if WorkBudget.exhausted() { throw Unsatisfiable(reason: "past the request's work budget") }
    }
    /// Free columns that make removed rows vacuous; dropped at the next factorization.
    var tombs: Set<Int> = []
    /// Ids of dead columns and dropped rows, reused so that a long session's churn of
    /// constraints keeps its storage bounded by what is live; and those freed by dropping
    /// tombs, released once the factorization no longer names them.
    var freeColumns: [Int] = []
    var freeRows: [Int] = []
    var releasedAtFactorization: (columns: [Int], rows: [Int]) = ([], [])
    /// Free variables computed from their one row outside the basis (`FactoredSolver+Dependents`).
    var dependents = Dependents()
    /// Deep trees of required ties, their rows written as stars (`FactoredSolver+Ties`); off,
    /// every row as written (for a test to compare).
    var tieStars = TieStars()
    var writesTieStars = true
    /// The last ambiguity verdicts with their directions, until a pivot, a new or removed
    /// row, or a restricted basic reaching or leaving 0 makes them stale.
    var ambiguityCache: AmbiguityVerdict? = nil
    /// How the verdict finds the blockers' entries: by direction (true) or by blocker (false);
    /// nil chooses by which are fewer. Set by tests, to check each way against the reference.
    var verdictSolvesDirections: Bool? = nil

    private(set) var pivotCount = 0
    /// Variables whose value a change wrote (first write per change): the work a change did,
    /// as the solved form counts the rows it wrote.
    private(set) var valuesWritten = 0
    /// Operations that failed inside (cycling on ill-scaled rows, say) and rebuilt the basis.
    public internal(set) var recoveries = 0
    public internal(set) var factorizations = 0
    /// Fault injection, for tests: the next this many solves fail as a cycling simplex does.
    var injectedFailures = 0
    var refactorMinimum = 2000
    /// A batch build's eta file is still to be factored away (`maybeRefactor`, `compact`).
    var refactorPending = false

    public init() {}

    // MARK: Public surface

    public func addVariable() -> Variable {
        let j = newColumn(.free)
        isUser[j] = true
        return Variable(symbol: Symbol(id: Int32(j), kind: .external))
    }

    public func value(_ v: Variable) -> Double {
        settleDependents()
        return value[v.symbol.index]
    }

    /// Adds one constraint incrementally: the new row borders the factorization.
    func tryAdd(_ definition: ConstraintDefinition) throws(Unsatisfiable) -> ConstraintHandle {
        maybeRefactor()
        if !dependents.isEmpty {
            for (v, _) in definition.expression.terms where dependents.contains(column: v.symbol.index) { restoreDependent(v.symbol.index) }
        }
        let (h, row) = newRow(definition)
        lastAdded = [h]
        preferredRow = row
        defer { preferredRow = nil }
        try install(row)
        try solve()
        try cleanupArtificials()
        return h
    }

    /// Adds many constraints at once (a whole document): order-independent, one
    /// factorization. Replaces the current basis, so it costs O(whole system).
    func tryAdd(batch: ConstraintBatch) throws(Unsatisfiable) -> [ConstraintHandle] {
        for j in value.indices where value[j] != 0 { mark(j) }
        restoreAllDependents()
        // The rows first (their storage reserved once), then every column's list at once from
        // them, packed: appending to thousands of column lists in turn moved each as it grew.
        let extra = (0..<batch.count).reduce(0) { $0 + Self.extraColumns(batch.relation($1), batch.priority($1)) }
        reserve(rows: batch.count, entries: batch.terms.count + extra, columns: extra)
        var handles: [ConstraintHandle] = []
        handles.reserveCapacity(batch.count)
        try makeRows(batch, handles: &handles)
        // The batch's break order, kept as it came (no per-row copy) while its handles run on
        // from the first: as they do in the empty engine a whole document is built into.
        if batch.breakOrder.count == batch.count, let first = handles.first?.raw {
            if handles.last!.raw - first == Int32(batch.count - 1) {
                (batchBreakOrder, batchFirstHandle, batchBreakOrderByHandle) = (batch.breakOrder, first, [:])
            } else {
                (batchBreakOrder, batchBreakOrderByHandle) = ([], Dictionary(uniqueKeysWithValues: zip(handles.map(\.raw), batch.breakOrder)))
            }
        }
        starTies(batch, handles)
        makeColumnLists()
        lastAdded = handles
        // Between the build's phases, the thread's work budget: a 60,000-row document has
        // no simplex step, where the budget is otherwise looked at.
        try Self.checkBudget()
        peelDependents()
        try Self.checkBudget()
        try crash()
        try solve()
        try cleanupArtificials()
        // Breaking the newest row of each certificate can break more than needed: retry each once.
        if !broken.isEmpty { try retryBroken(after: nil) }
        // The build's pivots leave an eta file every later solve would walk: factored once more
        // before the next change or when the session is kept (`compact`), not for a one-shot
        // layout that has no next change (a quarter of a 1,000-row stack feed's build).
        refactorPending = basis.hasEtas
        return handles
    }

    /// The fast path: the row's right-hand side moves; the values that depend on it move
    /// by one sparse solve, then the dual simplex restores feasibility if a limit was crossed.
    func trySetConstant(_ handle: ConstraintHandle, _ constant: Double) throws(Unsatisfiable) {
        guard let row = records[handle.raw]?.row else { return }
        if tieStars.contains(handle.raw) {
            // A star's tie moves the rows of the members below it.
            guard try solve(moving: starConstants(handle.raw, constant).compactMap(rightHandSideMove), preferring: row) else { return }
        } else {
            // One row: no array (a drag's every step).
            guard let move = rightHandSideMove(row, constant) else { return }
            _ = try solve(moving: CollectionOfOne(move), preferring: row)
        }
        if !broken.isEmpty { try retryBroken(after: handle.raw) }
    }

    /// Many right-hand sides at once: one sparse solve for all their moves, then the simplex
    /// once. A text pass that rewrapped n labels of an equalSpacing stack set n heights, each
    /// moving every gap below it: one at a time, n solves of n (n²).
    func trySetConstants(_ changes: [(handle: ConstraintHandle, constant: Double)]) throws(Unsatisfiable) {
        var moves: [Entry] = []
        for (handle, constant) in changes {
            if tieStars.contains(handle.raw) {
                moves += starConstants(handle.raw, constant).compactMap(rightHandSideMove)
            } else if let row = records[handle.raw]?.row, let move = rightHandSideMove(row, constant) {
                moves.append(move)
            }
        }
        guard try solve(moving: moves, preferring: nil) else { return }
        if !broken.isEmpty { try retryBroken(after: nil) }
    }

    /// Row r given `constant`: its right-hand side's move for the basics, or nil when it does not
    /// move or the row is a dependent's (its variable settles from it).
    private func rightHandSideMove(_ row: Int, _ constant: Double) -> Entry? {
        guard case let delta = constant + rhs[row], delta != 0 else { return nil }
        if dependents.contains(row: row) {
            setDependentConstant(row: row, constant)
            return nil
        }
        rhs[row] = -constant
        return Entry(row, -delta)
    }

    /// The basics moved by right-hand sides' moves in one sparse solve, then the simplex (a
    /// conflict breaking `preferring` first). False when nothing moved.
    private func solve(moving moves: some Collection<Entry>, preferring: Int?) throws(Unsatisfiable) -> Bool {
        guard !moves.isEmpty else { return false }
        moveBasics(forRightHandSides: moves)
        preferredRow = preferring
        defer { preferredRow = nil }
        try solve()
        return true
    }

    /// The user variables whose value moved (beyond 1e-9) since the last call, sorted, into a
    /// buffer the caller keeps (cleared first).
    public func takeChanges(into out: inout [Variable]) {
        settleDependents()
        out.removeAll(keepingCapacity: true)
        for (j, old) in zip(touchedList, touchedBefore) {
            touched[j] = false
            if isUser[j] && abs(value[j] - old) > 1e-9 { out.append(Variable(symbol: Symbol(id: Int32(j), kind: .external))) }
        }
        dropTouchedLists()
        if out.count > 1 { out.sort() }
    }

    /// A first build's caller reports every view: its 20,004 moved variables listed and
    /// sorted were ~4 M instructions of the 1,000-cell feed; forgotten, 0.1 M.
    public func forgetChanges() {
        settleDependents()
        // A build touches most columns: the flags cleared whole (one fill) where one store a
        // column was 0.66 M instructions of the 1,000-cell feed.
        if touchedList.count * 4 > touched.count {
            touched.withUnsafeMutableBufferPointer { $0.update(repeating: false) }
        } else {
            for j in touchedList { touched[j] = false }
        }
        dropTouchedLists()
    }

    /// A whole build touches every column: its lists are not kept for the small changes after.
    private func dropTouchedLists() {
        let keep = touchedList.count <= 4096
        touchedList.removeAll(keepingCapacity: keep)
        touchedBefore.removeAll(keepingCapacity: keep)
    }

    public struct FactorStats: Sendable, Equatable {
        public var rows: Int
        public var columns: Int
        /// Nonzeros kept: the rows as written, the LU factors and the eta file.
        public var rowNonzeros: Int
        public var factorNonzeros: Int
        public var pivots: Int
        public var factorizations: Int
    }

    public var factorStats: FactorStats {
        FactorStats(
            rows: rowLive.trueCount, columns: kind.count,
            rowNonzeros: rows.liveCount,
            factorNonzeros: basis.luNonzeros + basis.etaNonzeros, pivots: pivotCount, factorizations: factorizations)
    }

    /// Runs an operation on the running thread's work vectors (nested ones on the same).
    func lendingWork<T>(_ body: () -> T) -> T {
        if lentDepth > 0 { return body() }
        let lent = WorkVectors.current
        swapWork(lent)
        lentDepth = 1
        defer {
            lentDepth = 0
            swapWork(lent)
        }
        return body()
    }

    private func swapWork(_ w: WorkVectors) {
        swap(&columnWork, &w.column)
        swap(&rowWork, &w.row)
        swap(&extraWork, &w.extra)
        swap(&alphaWork, &w.alpha)
    }

    // MARK: Columns, rows and values

    /// A new column (a reused id when one is free), with reduced costs of 0; a batch's
    /// (`inBatch`) gets them from the crash with all the others (writing them here was 3% of
    /// the batch, 391 → 403 M instructions for the 1,000-cell feed's two builds).
    func newColumn(_ k: Kind, priority: Double = 0, inBatch: Bool = false) -> Int {
        let j: Int
        if let free = freeColumns.popLast() {
            j = free
            kind[j] = k
            columnRows.clear(j)
            value[j] = 0
            isUser[j] = false
        } else {
            j = kind.count
            columnRows.appendList()  // first: made again, the lists number `kind.count`
            kind.append(k)
            costPriority.append(0)
            value.append(0)
            isUser.append(false)
            touched.append(false)
            basis.growColumns(to: kind.count)
        }
        if inBatch { costPriority[j] = priority } else { setCost(j, priority: priority) }
        return j
    }

    /// Column j's cost level (0: none), its reduced costs 0 at every level (a new or a basic
    /// column's): an unset reduced cost reads as the column's cost, so the two change together.
    func setCost(_ j: Int, priority: Double) {
        costPriority[j] = priority
        zeroReducedCosts(j)
    }

    /// Column j's reduced cost 0 at every level, written only where it may not be already:
    /// the levels written for it and its cost's. With a level a cell, every new column wrote
    /// each level (and listed it as the column's), n² over a build (a proportional stack
    /// beside a ladder shifted a cell: 22% of 4.0 G instructions at 132 cells).
    func zeroReducedCosts(_ j: Int) {
        forEachLevel(ofColumn: j) { setReducedCost($0, j, 0) }
    }

    /// Room for `rows` more rows of `entries` cells and `columns` more columns, made at once:
    /// arrays grown by appending kept up to half their size spare (95 bytes a view of a
    /// 1,000-cell session).
    func reserve(rows n: Int, entries: Int, columns: Int) {
        let (rowCount, columnCount) = (rows.listCount + n, kind.count + columns)
        rows.reserve(lists: rowCount, entries: rows.entries.count + entries)
        kind.reserveCapacity(columnCount)
        costPriority.reserveCapacity(columnCount)
        value.reserveCapacity(columnCount)
        isUser.reserveCapacity(columnCount)
        touched.reserveCapacity(columnCount)
        rowLive.reserveCapacity(rowCount)
        rhs.reserveCapacity(rowCount)
        handleOfRow.reserveCapacity(rowCount)
        records.reserveCapacity(rowCount)
        basis.reserve(rows: rowCount, columns: columnCount)
    }

    /// Past 16 levels a level's vectors may be hashed (`LevelVector`).
    var manyLevels: Bool { levelPriority.count > 16 }

    /// Where `priority` is or would go among the levels (highest first), bisected: a scan was
    /// n² for a document whose cells ask priorities of their own.
    func levelPlace(_ priority: Double) -> Int {
        var (lo, hi) = (0, levelPriority.count)
        while lo < hi {
            let mid = (lo + hi) / 2
            if levelPriority[mid] > priority { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }

    /// The level of `priority`, if there is one.
    func level(of priority: Double) -> Int? {
        let i = levelPlace(priority)
        return i < levelPriority.count && levelPriority[i] == priority ? i : nil
    }

    func levelIndex(_ priority: Double) -> Int {
        if let i = level(of: priority) { return i }
        let i = levelPlace(priority)
        levelPriority.insert(priority, at: i)
        duals.insert(LevelVector(mayHash: manyLevels), at: i)
        reduced.insert(LevelVector(mayHash: manyLevels), at: i)
        if manyLevels && !columnLevels.isKept { columnLevels.keep(reduced, priorities: levelPriority) }
        return i
    }

    /// Column j's cells (row, coefficient), read from its rows.
    func column(_ j: Int) -> LazyMapSequence<ArraySlice<Int32>, Entry> {
        columnRows[j].lazy.map { r in Entry(Int(r), self.cell(Int(r), j)!) }
    }

    @inline(__always) func cell(_ row: Int, _ j: Int) -> Double? {
        for c in rows[row] where c.index == j { return c.value }
        return nil
    }

    func appendToRow(_ row: Int, _ j: Int, _ a: Double) {
        rows.append(Entry(j, a), to: row)
        columnRows.append(Int32(row), to: j)
    }

    /// The columns `newRow` makes beside a constraint's terms: a slack for an inequality,
    /// errors for an optional row (two for `==`).
    static func extraColumns(_ relation: Relation, _ priority: Double) -> Int {
        (relation == .equal ? 0 : 1) + (priority >= Priority.required ? 0 : relation == .equal ? 2 : 1)
    }

    func newRow(_ definition: ConstraintDefinition) -> (ConstraintHandle, Int) {
        let e = definition.expression
        return newRow(e.terms, constant: e.constant, definition.relation, priority: definition.priority, inBatch: false)
    }

    /// A new row for a constraint, with its slack and errors. A batch's row (`inBatch`)
    /// leaves `columnRows` and the reduced costs to the batch, which makes them for all at once.
    func newRow(
        _ terms: some Collection<(variable: Variable, coefficient: Double)>, constant: Double, _ relation: Relation,
        priority: Double, inBatch: Bool
    ) -> (ConstraintHandle, Int) {
        mergeTerms(terms)
        let row: Int
        if let r = freeRows.popLast() {
            row = r
            rows.replace(r, with: rowScratch)
            rowLive[r] = true
            rhs[r] = -constant
        } else {
            row = rows.listCount
            rows.appendList(rowScratch)
            rowLive.append(true)
            rhs.append(-constant)
            handleOfRow.append(-1)
            basis.growRows(to: rows.listCount)
        }
        forEachExtraColumn(relation, priority) { k, cost, a in rows.append(Entry(newColumn(k, priority: cost, inBatch: inBatch), a), to: row) }
        if !inBatch { for e in rows[row] { columnRows.append(Int32(row), to: e.index) } }
        let h = records.insert(
            Record(row: row, relation: relation, required: priority >= Priority.required))
        handleOfRow[row] = h
        ambiguityCache = nil
        return (ConstraintHandle(raw: h), row)
    }

    /// `terms` into `rowScratch`: a variable's terms merged, zeros dropped.
    func mergeTerms(_ terms: some Collection<(variable: Variable, coefficient: Double)>) {
        rowScratch.clear()
        for (v, a) in terms where a != 0 {
            let j = v.symbol.index
            if let k = rowScratch.firstIndex(where: { $0.index == j }) { rowScratch[k].value += a } else { rowScratch.append(Entry(j, a)) }
        }
        rowScratch.removeAll { $0.value == 0 }
    }

    /// The columns a constraint's row holds beside its terms, in order, each its kind, cost
    /// priority and coefficient: a slack for an inequality (no cost), errors for an optional
    /// row (two for `==`) at its priority, whose level this makes.
    @inline(__always) func forEachExtraColumn(_ relation: Relation, _ priority: Double, _ body: (Kind, Double, Double) -> Void) {
        switch relation {
        case .greaterOrEqual: body(.slack, 0, -1)
        case .lessOrEqual: body(.slack, 0, 1)
        case .equal: break
        }
        guard priority < Priority.required else { return }
        _ = levelIndex(priority)
        switch relation {
        case .equal:
            body(.error, priority, -1)
            body(.error, priority, 1)
        case .greaterOrEqual: body(.error, priority, 1)
        case .lessOrEqual: body(.error, priority, -1)
        }
    }

    @inline(__always) func mark(_ j: Int) {
        if !touched[j] { touched[j] = true; touchedList.append(j); touchedBefore.append(value[j]); valuesWritten += 1 }
    }

    func setValue(_ j: Int, _ v: Double) {
        mark(j)
        if !dependents.isEmpty { dependents.noteWrite(j) }
        let old = value[j]
        value[j] = v
        switch kind[j] {
        case .free, .dead: return
        case .fixed: break
        case .slack, .error:
            // A restricted basic at 0 blocks zero-cost moves: the verdicts change when one comes or goes.
            if (old <= Self.eps) != (v <= Self.eps) { ambiguityCache = nil }
        }
        if isViolated(j, at: v) && basis.isBasic(j) { infeasible.update(j, by: abs(v)) } else if !infeasible.isEmpty { infeasible.remove(j) }
    }

    /// Whether column j at v is outside its bounds: a slack or error below 0, an artificial off it.
    @inline(__always) func isViolated(_ j: Int, at v: Double) -> Bool {
        switch kind[j] {
        case .free, .dead: false
        case .fixed: abs(v) > Self.eps
        case .slack, .error: v < -Self.eps
        }
    }

    // MARK: Reduced costs

    /// Level k's cost of column j: 1 for an error of that level, else 0.
    @inline(__always) func cost(_ k: Int, _ j: Int) -> Double { costPriority[j] == levelPriority[k] ? 1 : 0 }

    /// The level where column j costs (`cost(k, j)` is 1 there, 0 at every other), if any.
    func costLevel(_ j: Int) -> Int? { level(of: costPriority[j]) }

    /// Level k's reduced cost of column j, stored only where it is not the column's cost
    /// (it is for 13,000 of 14,000 nonbasic errors on the 1,000-cell feed). Every change of
    /// `costPriority[j]` rewrites column j's reduced costs.
    @inline(__always) func reducedCost(_ k: Int, _ j: Int) -> Double { reduced[k][j, default: cost(k, j)] }
    @inline(__always) func setReducedCost(_ k: Int, _ j: Int, _ d: Double) {
        reduced[k][j, default: cost(k, j)] = d
        columnLevels.note(levelPriority[k], j)
    }
    @inline(__always) func addReducedCost(_ k: Int, _ j: Int, _ d: Double) {
        reduced[k].add(j, d, default: cost(k, j))
        columnLevels.note(levelPriority[k], j)
    }

    /// The highest level where column j's reduced cost is not zero, and that cost: its sign is
    /// the column's.
    func decidingLevel(_ j: Int) -> (level: Int, cost: Double)? {
        guard columnLevels.isKept else {
            // Among few levels the first found is the highest: no other is read.
            for k in reduced.indices {
                let v = reducedCost(k, j)
                if abs(v) > Self.dualTolerance { return (k, v) }
            }
            return nil
        }
        var highest: (level: Int, cost: Double)? = nil
        visitLevels(ofColumn: j) { k in
            let v = reducedCost(k, j)
            guard abs(v) > Self.dualTolerance else { return true }
            highest = (k, v)
            return false
        }
        return highest
    }

    /// The sign of column j's reduced cost, the highest level that is not zero deciding.
    func lexSign(_ j: Int) -> Int { decidingLevel(j).map { $0.cost > 0 ? 1 : -1 } ?? 0 }

    /// Candidate j's reduced cost taken as zero at the level that decides its sign only (the
    /// levels below say what they say): the rounding of long sums, not a price (`solve`,
    /// `primalStep`).
    func takeAsNoise(_ j: Int) {
        if let k = decidingLevel(j)?.level { setReducedCost(k, j, 0) }
        checkCandidate(j)
    }

    func checkCandidate(_ j: Int) {
        if basis.isBasic(j) || kind[j] == .fixed || kind[j] == .dead { candidates.remove(j); return }
        let s = lexSign(j)
        if kind[j] == .free ? s != 0 : s < 0 { candidates.insert(j) } else { candidates.remove(j) }
    }

    /// The columns that cost at each level (`columnsByLevel()[k]`: those of `levelPriority[k]`),
    /// found once: a pass over every column a level was n² for a document whose cells ask
    /// priorities of their own.
    func columnsByLevel() -> [[Int]] {
        var out = [[Int]](repeating: [], count: levelPriority.count)
        for j in kind.indices where costPriority[j] != 0 {
            if let l = level(of: costPriority[j]) { out[l].append(j) }
        }
        return out
    }

    /// ρ by row (from the row work vector, by step).
    func rho() -> [Entry] {
        var out: [Entry] = []
        for k in rowWork.pattern where abs(rowWork[k]) > BasisFactor.drop { out.append(Entry(basis.rowOfStep[k], rowWork[k])) }
        return out
    }

    /// ρᵀ·A over the nonbasic columns into `alphaWork`: the pivot row of the step ρ was taken for.
    func pivotRow(_ rho: [Entry]) {
        alphaWork.reset(size: kind.count)
        for r in rho {
            for e in rows[r.index] where !basis.isBasic(e.index) { alphaWork.add(e.index, r.value * e.value) }
        }
    }

    /// Adds `dy` to a level's duals and updates the reduced costs it changes.
    func dualDelta(_ level: Int, _ dy: [Entry]) -> Set<Int> {
        var touched: Set<Int> = []
        for d in dy {
            duals[level].add(d.index, d.value)
            for e in rows[d.index] where !basis.isBasic(e.index) {
                addReducedCost(level, e.index, -d.value * e.value)
                touched.insert(e.index)
            }
        }
        return touched
    }

    // MARK: Simplex

    /// Column q enters at step p; `columnWork` holds B⁻¹·a_q in the old basis, and `rho`
    /// the pivot row's ρ when the caller computed it (with ρᵀA in `alphaWork`).
    @discardableResult
    func pivot(_ q: Int, at p: Int, rho: [Entry]? = nil) -> Int {
        let leaving = basis.columnOfStep[p]
        var touchedColumns: [Int] = []
        // The levels where q costs, read once (three passes over every level were most of a
        // pivot's work with a level a cell: 239 → 194 M instructions at 1,000 cells).
        levelScratch.clear()
        func take(_ k: Int) {
            let dq = reducedCost(k, q)
            if dq != 0 { levelScratch.append(Entry(k, dq)) }
        }
        forEachLevel(ofColumn: q, take)
        if !levelScratch.isEmpty && rho == nil && lazyNext {
            // Lazy: the leaving column's reduced costs only; the rest wait for a recompute.
            dualsStale = true
            let aq = columnWork[p]
            for e in levelScratch { setReducedCost(e.index, leaving, -e.value / aq) }
        } else if !levelScratch.isEmpty {
            var rho = rho
            if rho == nil {
                basis.btran(CollectionOfOne(Entry(p, 1.0)), into: &rowWork)
                rho = self.rho()
                pivotRow(rho!)
                // A row of B⁻¹ as long as a chain behind a local step (a unit's hugging error
                // whose value hangs on every width chained before it, `found9-nest-widths-
                // chained-750`): n such steps were n², each writing the whole chain's duals.
                if lazyPhases < Self.lazyPhasesAllowed && rho!.count > 64 && rho!.count > 8 * columnWork.pattern.count { lazyNext = true }
                dualEntriesUpdated += rho!.count
            }
            touchedColumns = alphaWork.pattern
            let aq = columnWork[p]
            for l in levelScratch.indices {
                let (k, theta) = (levelScratch[l].index, levelScratch[l].value / aq)
                for e in rho! { duals[k].add(e.index, theta * e.value) }
                for j in alphaWork.pattern where j != q { addReducedCost(k, j, -theta * alphaWork[j]) }
                setReducedCost(k, leaving, -theta)
            }
        }
        // Zero where it was not already.
        for e in levelScratch { setReducedCost(e.index, q, 0) }
        basis.replace(step: p, with: q, column: columnWork)
        pivotCount += 1
        ambiguityCache = nil
        infeasible.remove(leaving)
        candidates.remove(q)
        for t in touchedColumns where t != q { checkCandidate(t) }
        checkCandidate(leaving)
        return leaving
    }

    /// Moves every basic column by −t·(B⁻¹·a_q), from `columnWork`.
    /// The basic values that right-hand sides moved by `moves` (row, δ) move: one sparse solve.
    func moveBasics(forRightHandSides moves: some Sequence<Entry>) {
        basis.ftran(moves, into: &columnWork)
        for k in columnWork.pattern {
            let dv = columnWork[k]
            if abs(dv) <= BasisFactor.drop { continue }
            let j = basis.columnOfStep[k]
            setValue(j, value[j] + dv)
        }
    }

    func moveBasics(by t: Double) {
        for k in columnWork.pattern {
            let a = columnWork[k]
            if a == 0 { continue }
            let v = basis.columnOfStep[k]
            setValue(v, value[v] - t * a)
        }
    }

    /// One primal step with a long ratio test, its limits taken nearest first. A basic slack
    /// or error that reaches zero along the entering column's direction leaves only if going on
    /// no longer pays: its row's other slack or error (its twin, the same column negated) can
    /// take its place with no pivot (`flip`), and going on then costs what the twin's cost adds
    /// to the slope. A free variable decided by n optional rows (a star of equal heights over n
    /// intrinsic sizes) reaches its value in one step, not in n steps each as long as the star.
    /// A limit with no twin to pass is passed by a local pivot on its row where q's direction is
    /// long (`unblock`): the hub of a star moved past n cells, each in turn limiting it, was n
    /// steps each solving and pivoting the whole star (a width star over nested proportional
    /// stacks: 72 such steps of 2,100 entries at 80 cells).
    func primalStep(_ entering: Int? = nil) throws(Unbounded) {
        var q = entering ?? candidates.min()!
        if entering == nil, q == hubCandidate, let c = localCandidate(besides: q) {
            q = c
        } else {
            basis.ftran(column(q), into: &columnWork)
            if entering == nil { q = shorterCandidate(than: q) }
        }
        if lazyNext && columnWork.pattern.count > 64 {
            // A long direction ends a lazy phase, with exact duals (`unblock` reads them).
            if dualsStale {
                recomputeLazyDuals()
                return
            }
            lazyNext = false
        }
        if dualsStale {
            // q priced alone; a candidate the skipped updates made stale is dropped.
            exactReducedCosts(of: q)
            checkCandidate(q)
            guard candidates.contains(q) else { return }
        }
        let deciding = decidingLevel(q)
        if let d = deciding?.cost, abs(d) <= Self.reenteringNoise, enteredPrimal.contains(q) {
            takeAsNoise(q)
            return
        }
        let sigma: Double = (deciding?.cost ?? 0) < 0 ? 1 : -1
        // q's direction d = B⁻¹a_q stays in `extraWork` while the step runs (`flip` and the
        // pivots of `unblock` use `columnWork`). A step's value is written when its rate
        // changes, at the distance then (`since`), and every other at the end.
        swap(&columnWork, &extraWork)
        var since: [Int: Double] = [:]
        func limit(_ k: Int) -> LimitHeap.Limit? {
            let v = basis.columnOfStep[k]
            guard kind[v] != .free, extraWork.contains(k), case let rate = sigma * extraWork[k], rate > Self.eps else { return nil }
            return ((since.isEmpty ? 0 : since[k] ?? 0) + max(value[v], 0) / rate, v, k)
        }
        /// The nearest limit that is still current.
        func nearest() -> LimitHeap.Limit? {
            while let e = heap.first {
                if let l = limit(e.step), l.column == e.column, l.t == e.t { return e }
                heap.pop()
            }
            return nil
        }
        /// Step k's value at distance t (kept as its new start when its rate is about to change).
        func settle(_ k: Int, at t: Double, keep: Bool = true) {
            let v = basis.columnOfStep[k]
            let moved = t - (since.isEmpty ? 0 : since[k] ?? 0)
            if moved != 0 { setValue(v, value[v] - sigma * moved * extraWork[k]) }
            if keep { since[k] = t }
        }
        /// The limits passed so far flipped to their twins (their rates change sign).
        func flipPassed(_ passed: inout [(column: Int, step: Int, twin: Int)], at t: Double) {
            guard !passed.isEmpty else { return }
            for p in passed { settle(p.step, at: t) }
            flip(passed, lazily: lazyNext)
            for p in passed { extraWork.set(p.step, -extraWork[p.step]) }
            passed.removeAll()
        }
        var heap = LimitHeap(extraWork.pattern.compactMap(limit))
        guard nearest() != nil else {
            swap(&columnWork, &extraWork)
            throw Unbounded()
        }
        var passed: [(column: Int, step: Int, twin: Int)] = []
        var slope = reduced.indices.map { sigma * reducedCost($0, q) }
        var unblocked = 0
        while true {
            let best = nearest()!
            heap.pop()
            let more = nearest() != nil
            if more, let tw = twin(of: best.column) {
                var after = slope
                let rate = sigma * extraWork[best.step]
                for k in reduced.indices { after[k] += rate * (cost(k, best.column) + cost(k, tw)) }
                if Self.lexNegative(after) {
                    passed.append((best.column, best.step, tw))
                    slope = after
                    continue
                }
            }
            if more, extraWork.pattern.count > 64, unblocked < 64 + extraWork.pattern.count {
                // The reduced costs `unblock` reads include the flips of the limits passed.
                flipPassed(&passed, at: best.t)
                if unblock(q, sigma: sigma, at: best.step, distance: best.t, settle: { settle($0, at: $1) }) {
                    unblocked += 1
                    slope = reduced.indices.map { sigma * reducedCost($0, q) }
                    for k in columnWork.pattern { if let l = limit(k) { heap.push(l) } }
                    // Else nothing limits q any more (rounding): q takes the new column's step.
                    if nearest() != nil { continue }
                }
            }
            for k in extraWork.pattern { settle(k, at: best.t, keep: false) }
            swap(&columnWork, &extraWork)
            let leaving = pivot(q, at: best.step)
            setValue(q, sigma * best.t)
            setValue(leaving, 0)
            if !passed.isEmpty { flip(passed, lazily: lazyNext) }
            enteredPrimal.insert(q)
            return
        }
    }

    /// Column q's reduced costs, c_q − c_Bᵀ·B⁻¹a_q level by level, from its direction in
    /// `columnWork`: exact whatever the duals.
    private func exactReducedCosts(of q: Int) {
        forEachLevel(ofColumn: q) { setReducedCost($0, q, cost($0, q)) }
        for s in columnWork.pattern {
            if let k = costLevel(basis.columnOfStep[s]) { addReducedCost(k, q, -columnWork[s]) }
        }
    }

    /// The end of a lazy phase: every level's duals exact again.
    func recomputeLazyDuals() {
        recomputeDuals()
        (dualsStale, lazyNext) = (false, false)
        lazyPhases += 1
    }

    /// Bland's candidate q (its direction B⁻¹a_q in `columnWork`), or the next candidate when
    /// q's direction runs through a hub and the next one's is local. Where the cells of a star
    /// tie (labels of one text beside boxes as wide as the hub, `@750`), Bland's order entered
    /// a column as long as the star at each step, each stopped at t = 0 by the next tied cell,
    /// while a column moving one cell paid as well: a step a cell, n² (`found3-widths-star-750`:
    /// 2.78 → 2.20 a doubling at 1,333–2,666 units). Where the next one runs through the hub
    /// too, the step keeps Bland's candidate, and past `shortcutMissesAllowed` such steps the
    /// solve keeps Bland's order from then on (trying every step cost a chained and starred
    /// screen 6×); a solve leaves it a bounded number of times (it can cycle).
    private func shorterCandidate(than q: Int) -> Int {
        guard columnWork.pattern.count > 64, let (c, local) = nextCandidate(besides: q) else { return q }
        guard local else {
            shortcutMisses += 1
            if shortcutMisses > Self.shortcutMissesAllowed + shortcuts / 8 { shortcuts = -1 }  // Bland's from now on
            return q
        }
        swap(&columnWork, &extraWork)
        shortcuts += 1
        hubCandidate = q
        return c
    }

    /// The next candidate after `q`, Bland's candidate that ran through a hub at the last
    /// shortcut, when its direction (then in `columnWork`) is local; nil when it is not or no
    /// shortcut is left. The hub's direction was solved for again at every step the shortcut
    /// took while it stayed Bland's candidate, as long as the star each time: a step a tied
    /// cell, n² (`found3-widths-star-750`: 12,000 entries a step at 2,666 units).
    private func localCandidate(besides q: Int) -> Int? {
        guard let (c, local) = nextCandidate(besides: q), local else { return nil }
        swap(&columnWork, &extraWork)
        shortcuts += 1
        return c
    }

    /// The candidate after `q` while shortcuts are left, its direction solved into `extraWork`,
    /// and whether that direction is local (64 entries or fewer).
    private func nextCandidate(besides q: Int) -> (Int, local: Bool)? {
        guard shortcuts >= 0, shortcuts < 64 + basis.stepCount / 8,
            let c = candidates.smallest(2).first(where: { $0 != q })
        else { return nil }
        basis.ftran(column(c), into: &extraWork)
        return (c, extraWork.pattern.count <= 64)
    }

    /// A basic at zero that limits q (at step p, at distance `t` along q) leaves for the column
    /// the dual ratio test on its row chooses among those that do not pay to enter, when q still
    /// pays after that pivot: no value moves, and q's direction (`extraWork`) changes only where
    /// the new column's (B⁻¹a_c, in `columnWork`) is, where a pivot of q itself would write q's
    /// whole direction into the eta file and the next candidate would solve for its own again.
    /// Refused when the new column's direction is not much shorter than q's.
    private func unblock(_ q: Int, sigma: Double, at p: Int, distance t: Double, settle: (Int, Double) -> Void) -> Bool {
        basis.btran(CollectionOfOne(Entry(p, 1.0)), into: &rowWork)
        let rho = self.rho()
        pivotRow(rho)
        let aq = alphaWork[q]
        guard abs(aq) > 1e-9, let c = dualEntering(needNegative: sigma * aq > 0, excluding: q, pricedOnly: true) else { return false }
        // q's reduced costs after the pivot: d_q − (d_c / α_c)·α_q, level by level.
        let ac = alphaWork[c]
        var after = reduced.indices.map { sigma * (reducedCost($0, q) - reducedCost($0, c) / ac * aq) }
        for k in after.indices where abs(after[k]) <= Self.dualTolerance { after[k] = 0 }
        guard Self.lexNegative(after) else { return false }
        basis.ftran(column(c), into: &columnWork)
        guard abs(columnWork[p]) > 1e-9, 4 * columnWork.pattern.count <= extraWork.pattern.count else { return false }
        for k in columnWork.pattern { settle(k, t) }
        // d' = E⁻¹d for the eta of c at step p.
        let dp = extraWork[p] / columnWork[p]
        for k in columnWork.pattern where k != p { _ = extraWork.add(k, -columnWork[k] * dp) }
        extraWork.set(p, dp)
        setValue(basis.columnOfStep[p], 0)
        pivot(c, at: p, rho: rho)
        setValue(c, 0)
        return true
    }

    /// The slope along a direction, level by level: whether it still lowers the objective.
    private static func lexNegative(_ slope: some Sequence<Double>) -> Bool {
        for s in slope where abs(s) > dualTolerance { return s < 0 }
        return false
    }

    /// The other slack or error of basic column j's row, nonbasic, the same column negated:
    /// what can stand for j in the basis with no pivot.
    func twin(of j: Int) -> Int? {
        twinInRow(of: j).flatMap { basis.isBasic($0) ? nil : $0 }
    }

    /// The other slack or error of j's row, the same column negated, basic or not.
    private func twinInRow(of j: Int) -> Int? {
        guard kind[j] == .slack || kind[j] == .error, let r = columnRows[j].first else { return nil }
        let row = Int(r)
        guard let a = cell(row, j) else { return nil }
        for e in rows[row] where e.index != j && e.value == -a && (kind[e.index] == .slack || kind[e.index] == .error) {
            return e.index
        }
        return nil
    }

    /// Basic columns past zero along a long step, each replaced at its step by its twin,
    /// which takes its value negated. B changes by the signs of those columns (one-entry
    /// etas), and the duals by one solve for all of them: level k's y moves by
    /// −Σ (cost of j + cost of its twin)·ρ_p, ρ_p the row of B⁻¹ at j's step.
    /// `lazily` (a primal step in a lazy phase): the duals wait, and each flipped column's own
    /// reduced costs are its and its twin's costs (the twin, basic, prices at 0).
    private func flip(_ passed: [(column: Int, step: Int, twin: Int)], lazily: Bool = false) {
        // A twin the step's own pivot took into the basis (the entering column) stays out.
        let pairs = passed.filter { !basis.isBasic($0.twin) }
        // A pair costs only at its own columns' levels: read those, not every level (with a
        // level a cell, a ladder shifted a cell, each flip passed over every level: n²).
        var costs: [Int: [Entry]] = [:]
        for (j, p, t) in pairs where !lazily {
            let (kj, kt) = (costLevel(j), costLevel(t))
            if let kj { costs[kj, default: []].append(Entry(p, kj == kt ? -2 : -1)) }
            if let kt, kt != kj { costs[kt, default: []].append(Entry(p, -1)) }
        }
        var moves: [(level: Int, dy: [Entry])] = []
        for (k, cb) in costs.sorted(by: { $0.key < $1.key }) {
            basis.btran(cb, into: &rowWork)
            moves.append((k, rho()))
        }
        for (j, p, t) in pairs {
            let v = value[j]
            columnWork.reset(size: basis.stepCount)
            columnWork.set(p, -1)
            basis.replace(step: p, with: t, column: columnWork)
            zeroReducedCosts(j)
            setValue(t, -v)
            setValue(j, 0)
        }
        var changed: Set<Int> = []
        for (k, dy) in moves { changed.formUnion(dualDelta(k, dy)) }
        for (j, _, t) in pairs {
            zeroReducedCosts(t)
            candidates.remove(t)
            if lazily { for k in [costLevel(j), costLevel(t)].compactMap({ $0 }) { setReducedCost(k, j, cost(k, j) + cost(k, t)) } }
            changed.insert(j)
        }
        if lazily && !pairs.isEmpty { dualsStale = true }
        ambiguityCache = nil
        for c in changed { checkCandidate(c) }
    }

    /// One dual simplex step on the most infeasible basic column; no entering column
    /// means the required rows conflict (ρ is then a Farkas certificate). Once the solve's dual
    /// steps have written `localDualWork` basis sizes, a leaving slack or error with a twin
    /// takes it instead, and after that all such at once (`flipInfeasibleTwins`): its optional
    /// row is violated in place, the reduced costs left wrong make candidates, and the primal's
    /// long steps (`unblock`) move the hub once for all.
    func dualStep() throws(Unsatisfiable) {
        if dualLocal && flipInfeasibleTwins() { return }
        let leaving = nextInfeasible()
        let p = basis.stepOfColumn[leaving]
        let x = value[leaving]
        basis.btran(CollectionOfOne(Entry(p, 1.0)), into: &rowWork)
        let rho = self.rho()
        dualWork += rho.count
        pivotRow(rho)
        var flipped = false
        while true {
            guard var q = dualEntering(needNegative: x < 0) else {
                // ρ is a Farkas certificate: its required rows conflict. Break one and go on.
                try breakConstraint(certificate: rho)
                return
            }
            var solved = false
            if dualWork > Self.localDualWork * basis.stepCount, let t = twin(of: leaving) {
                // The row's own twin takes the violation: nothing else moves (a one-entry column).
                // The first time, the long columns' etas are factored away, which every later
                // solve walked (the 160-cell star's build: 2,396 to 1,817 M instructions).
                if !dualLocal { (dualLocal, refactorPending) = (true, basis.hasEtas) }
                q = t
            } else if dualLocal, let c = dualEntering(needNegative: x < 0, pricedOnly: true), c != q {
                // Once local, the flips have left reduced costs that pay to enter, most where a
                // hub gathers them (a proportional stack's length), and the ratio test takes
                // those first. A long column whose step breaks more rows than it repairs (every
                // cell's optional rows on the stack, each flipped again: 40 times a cell at 120)
                // is the primal's, whose long steps move it once: the row takes a shorter column
                // among those that do not pay, and the hub is refused for the rest of the solve
                // (solving for it each step again was 20%). A hub that repairs more (a height
                // star over chained widths: a step for a whole row of cells) or is short stays.
                if refusedHubs.contains(q) {
                    q = c
                } else {
                    basis.ftran(column(q), into: &columnWork)
                    solved = true
                    if columnWork.pattern.count > 64 && !breaksFewer(moving: x / alphaWork[q]) {
                        swap(&columnWork, &extraWork)
                        basis.ftran(column(c), into: &columnWork)
                        if columnWork.pattern.count < extraWork.pattern.count {
                            refusedHubs.insert(q)
                            q = c
                        } else {
                            swap(&columnWork, &extraWork)
                        }
                    }
                }
            }
            // A hub (a stack's shared height, which the cell holding it defines) whose
            // column left in a step as long as what hangs on it, entering again for another
            // row, moves all of it again: a fillEqually stack of labels with aspect ratios
            // raised its height for each too-tall label and lowered it when the label's width
            // row cut it (two steps a cell, each the stack). Set aside, the row waits for the
            // short steps of the others, which often repair it (there: every label, once the
            // widths are cut). Each row once a solve, so the order only moves.
            if !solved, infeasible.count > 1, leftLong.contains(q), deferredOnce.insert(leaving).inserted {
                infeasible.remove(leaving)
                deferredRows.append(leaving)
                return
            }
            let delta = x / alphaWork[q]
            if !solved { basis.ftran(column(q), into: &columnWork) }
            // Once a step: the flips change only reduced costs (ρ and ᾱ stay), so the entering
            // column is chosen again among the same candidates.
            if !flipped, case let blockers = degenerateBlockers(moving: delta), !blockers.isEmpty {
                for b in blockers { degenerateFlipped.insert(b.column) }
                flip(blockers)
                flipped = true
                continue
            }
            dualWork += columnWork.pattern.count
            moveBasics(by: delta)
            pivot(q, at: p, rho: rho)
            setValue(q, delta)
            setValue(leaving, 0)
            if columnWork.pattern.count > Self.longColumn { leftLong.insert(leaving) }
            return
        }
    }

    /// The dual ratio test over the pivot row in `alphaWork`: a free column first, else the
    /// smallest ratio of reduced cost to |ᾱ|, level by level, then the largest |ᾱ|. The ratios
    /// are read at each column's own levels only, (level, ratio) by level with zeros left out:
    /// with a level a cell, a vector of every level a candidate made each step n (a proportional
    /// stack beside a ladder shifted a cell: 35% of 3.4 G instructions at 264 cells).
    /// `pricedOnly` leaves out the columns that pay to enter (candidates), `excluded` one more.
    private func dualEntering(needNegative: Bool, excluding excluded: Int = -1, pricedOnly: Bool = false) -> Int? {
        var best: Int? = nil
        var bestKey: (Int, [Entry], Double, Int)? = nil
        for j in alphaWork.pattern {
            let aj = alphaWork[j]
            guard j != excluded && kind[j] != .fixed && kind[j] != .dead && abs(aj) > 1e-9 && !basis.isBasic(j) else { continue }
            let key: (Int, [Entry], Double, Int)
            if kind[j] == .free {
                if pricedOnly && lexSign(j) != 0 { continue }
                key = (0, [], -abs(aj), j)
            } else {
                guard (aj < 0) == needNegative, bestKey?.0 ?? 1 == 1 else { continue }
                // The ratios by level, highest first, read only until they fall behind the best
                // so far (a star's hub has one at every level of a ladder shifted a cell: read
                // whole in each ratio test, levels² a build); a new best is read whole.
                var ratios: [Entry] = []
                var order = Self.LevelOrder(best: bestKey?.1)
                visitLevels(ofColumn: j) { k in
                    let r = reducedCost(k, j) / abs(aj)
                    guard abs(r) >= 1e-12 else { return true }
                    ratios.append(Entry(k, r))
                    return pricedOnly || order.take(Entry(k, r))
                }
                order.finish()
                guard order.behind != true || pricedOnly else { continue }
                key = (1, ratios, -abs(aj), j)
                if pricedOnly && Self.lexNegative(ratios.lazy.map(\.value)) { continue }
            }
            if let b = bestKey, !Self.less(key, b) { continue }
            best = j
            bestKey = key
        }
        return best
    }

    /// Basic slacks and errors at zero that a step of t along `columnWork` would take below
    /// it, each with its twin. The entering column's reduced cost leaves out what they cost
    /// past zero, so the step looked free: a star's hub (`width == first.width`) moved past
    /// the labels whose width is already its value, and each then took a dual step moving the
    /// hub back and one moving it again, every one as long as the star (1,000 cells: 2,255 M
    /// instructions, 264 M since). Flipped to their twins at zero, no value moves, they price
    /// the step, and the ratio test chooses again.
    private func degenerateBlockers(moving t: Double) -> [(column: Int, step: Int, twin: Int)] {
        var out: [(column: Int, step: Int, twin: Int)] = []
        for k in columnWork.pattern {
            let v = basis.columnOfStep[k]
            guard kind[v] == .slack || kind[v] == .error, abs(value[v]) <= Self.eps, value[v] - t * columnWork[k] < -Self.eps else { continue }
            if !degenerateFlipped.contains(v), let twin = twin(of: v) { out.append((v, k, twin)) }
        }
        return out
    }

    /// Whether a dual step of t along `columnWork` repairs at least as many infeasible basics
    /// (slacks and errors below zero, artificials off it) as it takes from feasible to not.
    private func breaksFewer(moving t: Double) -> Bool {
        var balance = 0
        for k in columnWork.pattern {
            let v = basis.columnOfStep[k]
            let after = isViolated(v, at: value[v] - t * columnWork[k])
            if isViolated(v, at: value[v]) { balance += after ? 0 : 1 } else if after { balance -= 1 }
        }
        return balance >= 0
    }

    /// Once dual steps are local, every infeasible slack or error with a twin out of the basis
    /// is flipped to it at once: one solve a level for all of them, where a step each solved
    /// for its own row of B⁻¹, as long as the chain its value hangs on (two boxes a cell pinned
    /// `@999`, heights chained: 2 steps a cell, each ρ reaching every cell before it). False
    /// when there is none.
    private func flipInfeasibleTwins() -> Bool {
        var pairs: [(column: Int, step: Int, twin: Int)] = []
        // A member that cannot flip this solve (its row has no twin for it, or it flipped) is
        // marked, not read again each step: the required rows a star's hub holds stay
        // infeasible through hundreds of local steps (widths chained beside a star of heights:
        // this scan was 460 of 2,700 M instructions at 352 cells, 45 of 1,050 at 176).
        for j in infeasible.members where value[j] < -Self.eps && !cannotFlip(j) {
            guard !degenerateFlipped.contains(j), let t = twinInRow(of: j) else {
                markCannotFlip(j)
                continue
            }
            if !basis.isBasic(t) { pairs.append((j, basis.stepOfColumn[j], t)) }
        }
        guard !pairs.isEmpty else { return false }
        pairs.sort { $0.column < $1.column }
        for b in pairs { degenerateFlipped.insert(b.twin) }
        flip(pairs)
        return true
    }

    private func cannotFlip(_ j: Int) -> Bool { j < flipMarks.count && flipMarks[j] == flipEpoch }

    private func markCannotFlip(_ j: Int) {
        if flipMarks.count < kind.count { flipMarks += repeatElement(0, count: kind.count - flipMarks.count) }
        flipMarks[j] = flipEpoch
    }

    /// The rows `dualStep` set aside back in the queue, those still basic and infeasible.
    func restoreDeferred() {
        for j in deferredRows where basis.isBasic(j) && isViolated(j, at: value[j]) { infeasible.update(j, by: abs(value[j])) }
        deferredRows.removeAll(keepingCapacity: true)
    }

    /// The infeasible basic to leave: the most infeasible.
    private func nextInfeasible() -> Int { infeasible.most { abs(value[$0]) }! }

    private static func less(_ a: (Int, [Entry], Double, Int), _ b: (Int, [Entry], Double, Int)) -> Bool {
        if a.0 != b.0 { return a.0 < b.0 }
        if let c = compareByLevel(a.1, b.1) { return c }
        if a.2 != b.2 { return a.2 < b.2 }
        return a.3 < b.3
    }

    /// A vector over the levels (level, value) by level with zeros left out, read entry by
    /// entry against a whole one (`best`) as the dense vectors compare level by level: `behind`
    /// true once it cannot precede it, false once it does, nil while they agree. `take`
    /// answers whether the next entry is still needed (the dual ratio test stops reading there).
    struct LevelOrder {
        let best: [Entry]?
        var next = 0
        var behind: Bool? = nil

        init(best: [Entry]?) { (self.best, behind) = (best, best == nil ? false : nil) }

        mutating func take(_ e: Entry) -> Bool {
            guard behind == nil, let best else { return true }
            var y = 0.0
            if next < best.count && best[next].index <= e.index {
                // A level of the best's before e's: e's vector is 0 there.
                if best[next].index < e.index { return decide(0 < best[next].value) }
                y = best[next].value
                next += 1
            }
            return y == e.value || decide(e.value < y)
        }

        /// Every entry taken: the best's next level, if any, decides.
        mutating func finish() {
            if behind == nil, let best, next < best.count { _ = decide(0 < best[next].value) }
        }

        private mutating func decide(_ ahead: Bool) -> Bool {
            behind = !ahead
            return ahead
        }
    }

    /// Two such vectors compared whole: whether a precedes b, nil when equal.
    static func compareByLevel(_ a: [Entry], _ b: [Entry]) -> Bool? {
        var order = LevelOrder(best: b)
        for e in a where !order.take(e) { break }
        order.finish()
        return order.behind.map { !$0 }
    }

    func solve() throws(Unsatisfiable) {
        if injectedFailures > 0 {
            injectedFailures -= 1
            throw Unsatisfiable(reason: "injected")
        }
        var steps = 0
        degenerateFlipped.removeAll(keepingCapacity: true)
        refusedHubs.removeAll(keepingCapacity: true)
        deferredOnce.removeAll(keepingCapacity: true)
        leftLong.removeAll(keepingCapacity: true)
        enteredPrimal.removeAll(keepingCapacity: true)
        defer { restoreDeferred() }
        (shortcuts, hubCandidate, shortcutMisses) = (0, -1, 0)
        lazyPhases = 0
        // Lazy only inside a solve, which leaves every dual exact (a removal's primal step
        // runs outside one), a solve thrown out of too.
        defer {
            lazyNext = false
            if dualsStale { recomputeLazyDuals() }
        }
        flipEpoch += 1
        (dualWork, dualLocal) = (0, false)
        // Ill-scaled rows can make rounding noise look like progress and the simplex cycle:
        // a bounded number of steps, then the caller rebuilds the basis (`recover`).
        let budget = 50 * (basis.stepCount + 20)
        while true {
            // Past the thread's work budget the simplex stops; the operation does not recover
            // (`recover`), and its caller discards what it built.
            try Self.checkBudget()
            maybeRefactor()
            if dualsStale && (!infeasible.isEmpty || candidates.isEmpty) {
                // A dual step prices every column, and the end needs them all exact.
                recomputeLazyDuals()
            } else if !infeasible.isEmpty {
                try dualStep()
            } else if !deferredRows.isEmpty {
                restoreDeferred()
                continue
            } else if !candidates.isEmpty {
                do { try primalStep() } catch {
                    // No restricted basic limits the entering column, so the objective (errors
                    // ≥ 0, costs ≥ 0) cannot really fall along it: its reduced cost is rounding
                    // noise of ill-scaled rows (multipliers 10⁶ beside 10⁻³) or of a long chain's
                    // sums. Taken as zero at the level that decided its sign only: the levels
                    // below say what they say (zeroing them all turned a 7,900-cell chain's
                    // −10⁻¹⁰ at priority 750 above 23,700 at 250 into a tie, and every view of
                    // the document into an ambiguous one).
                    takeAsNoise(candidates.min()!)
                    ambiguityCache = nil
                }
            } else {
                return
            }
            steps += 1
            if steps > budget { throw Unsatisfiable(reason: "no progress after \(budget) simplex steps") }
        }
    }

    // MARK: Adding one row

    /// Gives the new row a basic column: a triangular extension when a column of the row
    /// is new (a free variable, a feasible slack), else a border on a free nonbasic
    /// column, else a slack, error or [0,0] artificial that the simplex then repairs.
    func install(_ row: Int) throws(Unsatisfiable) {
        // A copy, not a slice of the rows' storage: a slice alive at `appendToRow` below made
        // that append copy every row of the engine (15% of inserting a row in a 2,000-row stack).
        let cells = Array(rows[row])
        var delta = rhs[row]
        var r: [Entry] = []
        for e in cells where basis.isBasic(e.index) {
            let (j, a) = (e.index, e.value)
            delta -= a * value[j]
            r.append(Entry(basis.stepOfColumn[j], a))
        }
        let fresh = cells.map(\.index).filter { !basis.isBasic($0) && columnRows[$0].count == 1 }.sorted()
        // l = U⁻ᵀ·(rᵀE⁻¹): the new row of L.
        rowWork.reset(size: basis.stepCount)
        for e in r { rowWork.add(e.index, e.value) }
        basis.etaBackward(&rowWork)
        basis.upperTransposed(&rowWork)
        let l = rowWork.entries()
        if let q = fresh.first(where: { kind[$0] == .free })
            ?? fresh.first(where: { kind[$0] == .slack && delta / cell(row, $0)! >= -Self.eps })
        {
            triangular(row, q, delta, l, z: nil)
            return
        }
        // The row in terms of the nonbasic columns: ā = a − zᵀA, z = B⁻ᵀr.
        basis.lowerTransposed(&rowWork)
        let z = rho()
        var abar: [Int: Double] = [:]
        for e in cells where !basis.isBasic(e.index) { abar[e.index, default: 0] += e.value }
        for r in z {
            for e in rows[r.index] where !basis.isBasic(e.index) { abar[e.index, default: 0] -= r.value * e.value }
        }
        var best: Int? = nil
        for (j, a) in abar where kind[j] == .free && abs(a) > 1e-7 {
            if let b = best, (abs(a), -j) <= (abs(abar[b]!), -b) { continue }
            best = j
        }
        if let q = best {
            border(row, q, delta, l)
            return
        }
        var q =
            fresh.first(where: { kind[$0] == .slack })
            ?? fresh.first(where: { kind[$0] == .error && delta / cell(row, $0)! >= -Self.eps })
        if q == nil {
            let f = newColumn(.fixed)
            appendToRow(row, f, 1)
            pendingFixed.append(f)
            q = f
        }
        triangular(row, q!, delta, l, z: z)
    }

    private func triangular(_ row: Int, _ q: Int, _ delta: Double, _ l: [Entry], z: [Entry]?) {
        let cells = rows[row]
        let aq = cell(row, q)!
        // z = L⁻ᵀ·l, computed before the new step exists.
        var z = z
        if z == nil && costPriority[q] != 0 {
            rowWork.reset(size: basis.stepCount)
            for e in l { rowWork.add(e.index, e.value) }
            basis.lowerTransposed(&rowWork)
            z = rho()
        }
        basis.extend(row: row, column: q, l: l, v: [], diagonal: aq)
        setValue(q, delta / aq)
        var touchedColumns: Set<Int> = []
        for e in cells where e.index != q && columnRows[e.index].count == 1 && costPriority[e.index] != 0 {
            let j = e.index
            setReducedCost(levelIndex(costPriority[j]), j, 1)
            touchedColumns.insert(j)
        }
        if costPriority[q] != 0 {
            // A basic error: the duals change (y_row = c_q / a_q).
            let y = 1 / aq
            var dy: [Entry] = z!.map { Entry($0.index, -$0.value * y) }
            dy.append(Entry(row, y))
            touchedColumns.formUnion(dualDelta(levelIndex(costPriority[q]), dy))
        }
        for j in touchedColumns { checkCandidate(j) }
    }

    /// q, an existing nonbasic free column, becomes basic in the new row: B' = [[B, u], [rᵀ, a_q]].
    private func border(_ row: Int, _ q: Int, _ delta: Double, _ l: [Entry]) {
        let cells = rows[row]
        let u = Array(column(q).filter { $0.index != row })
        basis.ftran(u, into: &columnWork)
        basis.load(rows: u, into: &extraWork)
        basis.lower(&extraWork)
        let v = extraWork.entries()
        var s = cell(row, q) ?? 0
        for e in l { s -= e.value * extraWork[e.index] }
        let t = delta / s
        moveBasics(by: t)
        basis.extend(row: row, column: q, l: l, v: v, diagonal: s)
        zeroReducedCosts(q)
        candidates.remove(q)
        setValue(q, t)
        for e in cells where e.index != q && columnRows[e.index].count == 1 && costPriority[e.index] != 0 {
            let j = e.index
            setReducedCost(levelIndex(costPriority[j]), j, 1)
            checkCandidate(j)
        }
    }

    /// Drives [0,0] artificials out of the basis (or keeps one basic forever on a redundant
    /// row) and deletes their columns.
    func cleanupArtificials() throws(Unsatisfiable) {
        // By index, every artificial in one pass: a loop over the list while removing from it
        // copied the list at each removal, and one deletion a call left the rest pending
        // (quadratic for a document with a broken constraint a cell: 4,000 cells, half the build).
        let atZero = pendingFixed.filter { basis.isBasic($0) && abs(value[$0]) <= Self.eps }
        if atZero.count >= Self.redundantGroup {
            var redundant = Set<Int>()
            findRedundant(atZero[...], into: &redundant)
            if !redundant.isEmpty { pendingFixed.removeAll { redundant.contains($0) } }
        }
        var again = true
        while again {
            again = false
            var i = 0
            while i < pendingFixed.count {
                let f = pendingFixed[i]
                if basis.isBasic(f) {
                    let p = basis.stepOfColumn[f]
                    basis.btran(CollectionOfOne(Entry(p, 1.0)), into: &rowWork)
                    let rho = self.rho()
                    pivotRow(rho)
                    let options = alphaWork.pattern.filter { kind[$0] != .fixed && abs(alphaWork[$0]) > 1e-7 }
                    guard
                        let j = options.max(by: { a, b in
                            (lexSign(a) == 0 ? 1 : 0, abs(alphaWork[a]), -a) < (lexSign(b) == 0 ? 1 : 0, abs(alphaWork[b]), -b)
                        })
                    else {
                        pendingFixed.remove(at: i)  // a redundant row: the artificial stays basic at 0
                        continue
                    }
                    let delta = value[f] / alphaWork[j]
                    basis.ftran(column(j), into: &columnWork)
                    moveBasics(by: delta)
                    pivot(j, at: p, rho: rho)
                    setValue(j, delta)
                    setValue(f, 0)
                    try solve()
                    again = true
                    // solve may have changed the list: f is found again.
                    guard let k = pendingFixed.firstIndex(of: f) else { continue }
                    i = k
                }
                pendingFixed.remove(at: i)
                for r in columnRows[f] { rows.removeAll(in: Int(r)) { $0.index == f } }
                columnRows.clear(f)
                zeroReducedCosts(f)
                candidates.remove(f)
                infeasible.remove(f)
                kind[f] = .dead
                value[f] = 0
                freeColumns.append(f)
            }
        }
    }

    /// Below this many, artificials are looked at one by one (`findRedundant`).
    static let redundantGroup = 32

    /// The artificials of `group` (basic, at 0) whose rows are redundant, found a group at a
    /// time: no column can take an artificial's place when its row of B⁻¹A is zero outside the
    /// basis, its value then fixed by the rows whatever the basis. Looked at one by one, each
    /// solved for its own row of B⁻¹, as long as what the row hangs on: a proportional stack's
    /// shares whose cells' heights are chained, every share on the stack's length (n²). One
    /// solve for a weighted sum of the group's rows says it for all of them; a group where
    /// some row is not redundant is halved. The weights are pseudo-random in [1, 2) (SplitMix64):
    /// rows of small integers cancel under weights with an integer relation among them (those
    /// of a golden-ratio sequence, 1 + frac(kφ), sum to 0 over entries +1, −1, −1, +1).
    private func findRedundant(_ group: ArraySlice<Int>, into out: inout Set<Int>) {
        guard group.count >= Self.redundantGroup else { return }
        var weighted: [Entry] = []
        for (k, f) in group.enumerated() {
            var z = UInt64(truncatingIfNeeded: k) &+ 0x9E37_79B9_7F4A_7C15
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            z ^= z >> 31
            weighted.append(Entry(basis.stepOfColumn[f], 1 + Double(z >> 11) * 0x1p-53))
        }
        basis.btran(weighted, into: &rowWork)
        pivotRow(rho())
        if !alphaWork.pattern.contains(where: { kind[$0] != .fixed && abs(alphaWork[$0]) > 1e-7 }) {
            out.formUnion(group)
            return
        }
        let half = group.startIndex + group.count / 2
        findRedundant(group[..<half], into: &out)
        findRedundant(group[half...], into: &out)
    }

    // MARK: Factorization

    /// Refactors when the eta file outgrows the factors, when tombs pile up, or when the
    /// solves have spent more applying etas than a factorization costs (O(LU)): a drag that
    /// pivots on the same rows again and again piles etas on the same steps, and every later
    /// solve walks them all (a set-constant that pivoted went from 5.5 to 3.5 µs in-process),
    /// while a build's pivots on distinct rows are rarely walked again and keep their etas.
    /// What one LU nonzero costs to factor again, in eta visits (each applies one eta's
    /// column). Was 2, which priced a factorization 30-odd times too low (callgrind: 300 M
    /// instructions to factor `drag_n1000`'s 26,000 rows, tens for a visit): a drag then
    /// stalled on a whole-basis factorization to save a few visits a step.
    static let visitsPerFactorNonzero = 32
    /// How many times the factors' nonzeros the eta file may hold. Was 1: the degenerate
    /// steps of a star with tied cells enter the hub's column, a third of the basis, every
    /// step or two, and each few steps refactored the whole basis (10 factorizations in a
    /// 4,000-cell build, 2.8 G of its 7.6 G instructions); their transposed solves reach the
    /// etas by row (`BasisFactor.etaBackward`), so holding more costs memory, not solves.
    /// 4: that star 6.3 → 4.2 G, a mixed star 3.4 → 2.5 G at 1,000 cells, the feeds unchanged.
    static let etasPerFactorNonzero = 4

    func maybeRefactor() {
        if refactorPending {
            refactorPending = false
            try? refactor()
            return
        }
        if basis.etaNonzeros > max(refactorMinimum, Self.etasPerFactorNonzero * basis.luNonzeros) || tombs.count > max(64, basis.stepCount / 4)
            || basis.etaVisits > max(refactorMinimum, Self.visitsPerFactorNonzero * basis.luNonzeros)
        {
            try? refactor()
        }
    }

    func refactor() throws(SingularBasis) {
        factorizations += 1
        // The verdict stays: the basis is the same, only its factors are new (its directions are
        // columns, not steps). Dropped tombs' rows were vacuous.
        dropTombs()
        let (live, count) = liveRows { basis.isBasic($0) }
        try basis.factor(rows: live, live: count, columns: kind.count)
        releaseDropped()
    }

    /// The rows by id, each restricted to the columns `keep` takes (a row that is not live:
    /// empty), and how many are live: what an elimination factors.
    func liveRows(keeping keep: (Int) -> Bool) -> (rows: SparseLists<Entry>, live: Int) {
        let live = rowLive
        return (rows.filtered(lists: { live[$0] }, entries: { keep($0.index) }), rowLive.trueCount)
    }

    /// Tombs and their rows, dropped before the factorization, are free once it is done.
    func releaseDropped() {
        freeColumns.append(contentsOf: releasedAtFactorization.columns)
        freeRows.append(contentsOf: releasedAtFactorization.rows)
        releasedAtFactorization = ([], [])
    }

}
