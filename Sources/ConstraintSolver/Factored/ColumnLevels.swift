/// Among many levels, the levels where each column's reduced cost was written, by priority
/// (a level's index moves when a level is inserted above it): a column's sign and a pivot's
/// levels read those, and the column's own cost level, not every level. With a level a cell
/// (a priority ladder shifted a cell) each read passed over thousands of levels, hashed:
/// n² over a document. A superset: a level written back to the column's cost stays listed.
struct ColumnLevels {
    private var written: [[Double]] = []
    /// Kept only among many levels (`FactoredSolver.manyLevels`); among few, a scan is cheaper.
    private(set) var isKept = false

    /// Starts keeping them, from every level's set entries.
    mutating func keep(_ levels: [LevelVector], priorities: [Double]) {
        isKept = true
        written = []
        for (k, vector) in levels.enumerated() { vector.forEachSet { j, _ in note(priorities[k], j) } }
    }

    mutating func removeAll() {
        written.removeAll()
        isKept = false
    }

    /// Forgets every column's levels (a crash writes them all again).
    mutating func clear() { written.removeAll(keepingCapacity: true) }

    @inline(__always) mutating func note(_ priority: Double, _ j: Int) {
        guard isKept else { return }
        if j >= written.count { written.append(contentsOf: repeatElement([], count: j + 1 - written.count)) }
        if !written[j].contains(priority) { written[j].append(priority) }
    }

    subscript(j: Int) -> [Double] { j < written.count ? written[j] : [] }
}

extension FactoredSolver {
    /// Each level where column j's reduced cost may not be 0, by index, once, in no order: each
    /// level written for it, and its own cost's; among few levels, every level.
    func forEachLevel(ofColumn j: Int, _ body: (Int) -> Void) {
        guard columnLevels.isKept else {
            for k in reduced.indices { body(k) }
            return
        }
        let written = columnLevels[j]
        func visit(_ p: Double) { if let k = level(of: p) { body(k) } }
        if costPriority[j] != 0 && !written.contains(costPriority[j]) { visit(costPriority[j]) }
        for p in written { visit(p) }
    }
}
