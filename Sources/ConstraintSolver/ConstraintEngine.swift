import WorkBudget

/// What the layout model asks of an engine. Two implement it: `Solver` (`Solved/`: the
/// substituted solved form, Cassowary's and kiwi's; the cheapest set-constant, quadratic on
/// dependent chains) and `FactoredSolver` (`Factored/`: revised simplex on an LU-factored
/// basis; linear on chains). The model picks one per session (`EngineKind`, `SessionLimits`);
/// the server's default puts one-shot layouts and documents of 128 views (or 1,024 constraints) or more on the
/// factored basis, smaller sessions on the solved form until a change grows them past that.
public protocol ConstraintEngine: AnyObject {
    func addVariable() -> Variable
    /// Drops a variable no constraint names any more.
    func removeVariable(_ v: Variable)
    func value(_ v: Variable) -> Double

    @discardableResult
    func add(_ definition: ConstraintDefinition) -> ConstraintHandle
    /// A whole document at once: the engine may build it in one batch.
    func add(batch: ConstraintBatch) -> [ConstraintHandle]
    func remove(_ handle: ConstraintHandle)
    /// Removes them all, retrying what they broke once at the end (one by one, each removal
    /// retried every broken constraint: n² for n constraints at odds taken out together).
    func remove(all handles: [ConstraintHandle])
    /// Removes `handles` and adds `batch`: for a change that re-makes many constraints.
    func replace(_ handles: [ConstraintHandle], with batch: ConstraintBatch) -> [ConstraintHandle]
    func setConstant(_ handle: ConstraintHandle, _ constant: Double)
    /// Several at once: the factored basis solves for all their moves together.
    func setConstants(_ changes: [(handle: ConstraintHandle, constant: Double)])
    func setPriority(_ handle: ConstraintHandle, _ priority: Double)
    /// A constraint as it stands (its terms merged as the engine keeps them).
    func definition(_ handle: ConstraintHandle) -> ConstraintDefinition?

    /// The variables whose value moved since the last call, sorted, into a kept buffer.
    func takeChanges(into out: inout [Variable])
    /// Takes the changes without listing them: for a caller that reads every variable anyway.
    func forgetChanges()

    /// Whether anything is ambiguous or broken (the common answer, no, should be cheap).
    var hasDiagnostics: Bool { get }
    var brokenConstraints: [(constraint: ConstraintHandle, conflicts: [ConstraintHandle])] { get }
    /// Changes whenever a constraint is broken or stops being so (and, on the solved form,
    /// becomes redundant or stops): whether an operation touched a conflict, unlisted.
    var brokenEpoch: Int { get }
    func ambiguousVariables() -> [Variable]
    /// Another optimal solution moving the given ambiguous variables; nothing is kept.
    func alternativeValues(for variables: [Variable], maxStep: Double) -> [Variable: Double]
    /// The constraints whose constants move `v` (those naming it, when nothing determines it).
    func constraintsAffecting(_ v: Variable) -> [ConstraintHandle]

    var stats: SolverStats { get }
    /// Operations the engine had to recover from by rebuilding (0 for a sound run).
    var recoveries: Int { get }
    /// Rows and columns only, for a gauge kept around every change.
    var tableauSize: (rows: Int, columns: Int) { get }
    /// Releases what the engine can make again when a change needs it: for a session kept
    /// after its build, whose next change is most often a set-constant that needs none of it.
    func compact()
}

extension ConstraintEngine {
    /// Nothing to release by default (the solved form keeps no such caches).
    public func compact() {}

    /// The variables whose value moved (beyond 1e-9) since the last call, found from what
    /// the changes touched, never by scanning every variable.
    public func takeChanges() -> [Variable] {
        var out: [Variable] = []
        takeChanges(into: &out)
        return out
    }

    public func forgetChanges() { _ = takeChanges() }

    public func remove(all handles: [ConstraintHandle]) { for h in handles { remove(h) } }

    public func setConstants(_ changes: [(handle: ConstraintHandle, constant: Double)]) {
        for (h, c) in changes { setConstant(h, c) }
    }

    /// One at a time (the solved form has no basis to make once).
    public func replace(_ handles: [ConstraintHandle], with batch: ConstraintBatch) -> [ConstraintHandle] {
        remove(all: handles)
        return add(batch: batch)
    }

    public func add(batch definitions: [ConstraintDefinition]) -> [ConstraintHandle] { add(batch: ConstraintBatch(definitions)) }
}

extension Solver: ConstraintEngine {
    /// One constraint at a time, as long as the thread's work budget lasts: past it, the rest
    /// are `unmade` (the caller links what was made and discards the rest).
    public func add(batch: ConstraintBatch) -> [ConstraintHandle] {
        (0..<batch.count).map { WorkBudget.exhausted() ? .unmade : add(batch[$0]) }
    }
    public var recoveries: Int { 0 }
}

extension ConstraintHandle {
    /// A constraint not made: the thread's work budget ran out before it (`add(batch:)`).
    public static let unmade = ConstraintHandle(raw: .max)
}
