/// Among many levels, the levels where each column's reduced cost was written, by priority
/// (a level's index moves when a level is inserted above it): a column's sign and a pivot's
/// levels read those, and the column's own cost level, not every level. With a level a cell
/// (a priority ladder shifted a cell) each read passed over thousands of levels, hashed:
/// n² over a document. A superset: a level written back to the column's cost stays listed.
/// Each column's list is kept highest first, so a column's levels are read in order and a
/// reader after the highest that is not zero stops there: a star's hub, its reduced cost set
/// at every level of a ladder shifted a cell, was read whole for its sign and in each dual
/// ratio test (levels² a build).
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
        Self.insert(priority, into: &written[j])
    }

    /// Into a list highest first, once: bisected (a scan a write was a list's length).
    private static func insert(_ p: Double, into list: inout [Double]) {
        if list.last.map({ $0 > p }) ?? true {
            list.append(p)
            return
        }
        var (lo, hi) = (0, list.count)
        while lo < hi {
            let mid = (lo + hi) / 2
            if list[mid] > p { lo = mid + 1 } else { hi = mid }
        }
        if list[lo] != p { list.insert(p, at: lo) }
    }

    subscript(j: Int) -> [Double] { j < written.count ? written[j] : [] }
}

extension FactoredSolver {
    /// Each level where column j's reduced cost may not be 0, by index, once, highest first:
    /// each level written for it, and its own cost's; among few levels, every level.
    func forEachLevel(ofColumn j: Int, _ body: (Int) -> Void) {
        visitLevels(ofColumn: j) {
            body($0)
            return true
        }
    }

    /// The same, until `body` answers false.
    func visitLevels(ofColumn j: Int, while body: (Int) -> Bool) {
        guard columnLevels.isKept else {
            for k in reduced.indices where !body(k) { return }
            return
        }
        let written = columnLevels[j]
        var own = costPriority[j]  // 0 once visited (or none)
        func visit(_ p: Double) -> Bool { level(of: p).map(body) ?? true }
        for p in written {
            if own != 0 && own >= p {
                if own != p && !visit(own) { return }
                own = 0
            }
            if !visit(p) { return }
        }
        if own != 0 { _ = visit(own) }
    }
}
