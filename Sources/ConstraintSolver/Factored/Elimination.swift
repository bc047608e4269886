import WorkBudget
import CheckedNumbers
/// Markowitz elimination with threshold pivoting over sparse rows (row → column → value):
/// row singletons first, else the sparsest column's sparsest acceptable row (ties by
/// `rank`, then id). Runs until no column can be eliminated; returns the pivots in order
/// with their L and U entries.
///
/// Rows and columns are `SparseLists`, updated in place, and the factors come out as lists
/// too: arrays a row, a column and a pivot cost a 1,000-cell feed's build ~1.4 M allocations.
/// Column lists are cleaned lazily: an entry whose row is gone or no longer holds the
/// column is skipped, and each column keeps its live count.
struct Elimination {
    struct Pivot {
        var row: Int
        var column: Int
        var pivot: Double
    }

    /// The pivots in order; pivot k's multipliers (row, m) on the rows it eliminated from
    /// are list k of `multipliers`, its U row (column, a) list k of `u`.
    struct Factors {
        var pivots: [Pivot] = []
        var multipliers = SparseLists<Entry>()
        var u = SparseLists<Entry>()

        /// A pivot with no L or U entries (a row's own logical).
        mutating func append(_ p: Pivot) {
            pivots.append(p)
            multipliers.appendList()
            u.appendList()
        }
    }

    /// Row i's cells; empty once it is pivoted (or all its cells cancelled).
    private var rowCells: SparseLists<Entry>
    /// Column j's rows: each row that held j at some point.
    private var columnRows: SparseLists<Int32>
    private var columnCount: [Int]
    private let rank: [Int]
    private var seen: [Int]  // stamps for de-duplicating a column's row list
    /// Scratch of `bindingThroughTies`, kept: two arrays made a call were a third of its cost.
    private var sharedScratch: [Entry] = [], ownScratch: [Entry] = []
    private var stamp = 0

    /// Bounds, for a crash: row i's right-hand side, carried through the elimination, and
    /// the sign of its slack's cell (0 for a row that is no inequality to weigh).
    private var rhs: [Double]
    private let slackSign: [Double]
    /// Optional equalities linking two free columns of a chain (`FactoredSolver.crash`):
    /// their singletons give way to a bound they would break (`boundBrokenByChainLink`).
    var chainLinks: [Bool] = []
    /// Rows whose cells outside the free columns (a slack, an error) are in play: their own,
    /// or a pivot row's that eliminated from them. A row left empty and pure is a sum of
    /// required equalities: redundant, whatever the basis (empty when not asked).
    private(set) var impure: [Bool]

    /// `rows`: list i is row i's cells (an empty list takes no part); `columns`: past the
    /// largest column id; `rank`: a tie-break by row id (0 for every row when nil);
    /// `bounds`: each row's right-hand side and slack sign, to pick among inequalities.
    init(
        rows: SparseLists<Entry>, columns: Int, rank: [Int]?, bounds: (rhs: [Double], slackSign: [Double])? = nil, impure: [Bool] = []
    ) {
        self.impure = impure
        rhs = bounds?.rhs ?? []
        slackSign = bounds?.slackSign ?? []
        rowCells = rows
        rowCells.compacts = false
        let columnRows = rows.transposedIndices(lists: columns)
        self.columnRows = columnRows
        self.columnRows.compacts = false
        columnCount = (0..<columns).map { columnRows.count($0) }
        self.rank = rank ?? Array(repeating: 0, count: rows.listCount)
        seen = Array(repeating: -1, count: rows.listCount)
    }

    /// How small against its column a row singleton's pivot may be: anything but a
    /// cancellation's residue. A singleton pivot row has no other cell, so it fills nothing
    /// and its multipliers touch only the right-hand sides and the column it removes; the
    /// 0.01 a general pivot needs turned away a fillProportionally stack's shares (each view
    /// `k × the stack`, k = 1/n of the whole), so the stack's length was pivoted where the
    /// chain of views had filled in, and n−1 shares were left to artificials cleaned out one
    /// dense pivot each (n²: 2,000 views took 3.4 s).
    static let singletonThreshold = 1e-7

    /// Added to a row's rank: the row pivots only where no other row can (never as a singleton).
    static let deferred = 16
    /// A required inequality's rank (`FactoredSolver.crash`): only a bound.
    static let requiredInequality = 15

    /// A row singleton's place in the order: rank, then id (the rows' key was count, rank,
    /// id; only singletons are looked for by row, so only they are queued).
    private func singletonKey(_ i: Int) -> Int? { rowCells.count(i) == 1 && rank[i] < Self.deferred ? rank[i] : nil }

    /// Inlined: called, it was a tenth of `liveRows`' cost.
    @inline(__always)
    private func position(of j: Int, inRow i: Int) -> Int? {
        for k in rowCells.positions(i) where rowCells[position: k].index == j { return k }
        return nil
    }

    /// The live rows of column j with their values, into `out`. A row that lost the column
    /// to cancellation and filled it again is listed twice: skipped the second time.
    private mutating func liveRows(of j: Int, into out: inout [Entry]) {
        out.clear()
        stamp += 1
        for k in columnRows.positions(j) {
            let i = Int(columnRows[position: k])
            guard seen[i] != stamp, let p = position(of: j, inRow: i) else { continue }
            seen[i] = stamp
            out.append(Entry(i, rowCells[position: p].value))
        }
    }

    /// Of the inequalities of singleton i's rank that are singletons on column j too, the
    /// one that binds: each leaves j with a bound (its slack, `(rhs − a·x) / sign`, at least
    /// 0), and the row whose bound is tightest keeps every other slack feasible. A stack not
    /// aligned `fill` is as thick as its thickest view: taken by row id, the first view's
    /// containment set the thickness and the crash left 3 dual pivots a cell to repair it.
    private func binding(_ i: Int, _ j: Int, _ a: Double, among column: [Entry]) -> Int {
        guard !rhs.isEmpty, slackSign[i] != 0 else { return i }
        var best = i, lower = a * slackSign[i] < 0, bound = rhs[i] / a
        for e in column where e.index != i && rank[e.index] == rank[i] && slackSign[e.index] != 0 && rowCells.count(e.index) == 1 {
            guard abs(e.value) >= 0.01 * abs(a) else { continue }
            let b = rhs[e.index] / e.value, isLower = e.value * slackSign[e.index] < 0
            // A lower bound binds over an upper one; the largest lower, the smallest upper.
            if isLower != lower ? isLower : (lower ? b > bound : b < bound) {
                (best, lower, bound) = (e.index, isLower, b)
            }
        }
        return best
    }

    /// Row i's bound on x_j moved onto x_c through required equality r, where r holds x_j and
    /// x_c alone: (the bound, whether it is a lower one), or nil where r is ill-scaled.
    private func bound(_ i: Int, _ a: Double, through r: Int, _ j: Int, onto c: Int) -> (value: Double, lower: Bool)? {
        var pj = 0.0, pc = 0.0
        for e in rowCells[r] { if e.index == j { pj = e.value } else if e.index == c { pc = e.value } }
        guard pj != 0, pc != 0, case let beta = -pc / pj, abs(beta) >= 1e-6, abs(beta) <= 1e6 else { return nil }
        // x_j = rhs_r / pj + beta * x_c, and x_j ≥ (or ≤) rhs_i / a.
        let lower = a * slackSign[i] < 0
        return ((rhs[i] / a - rhs[r] / pj) / beta, lower == (beta > 0))
    }

    /// Whether row r is a required equality of two cells: a tie of one column to another (a
    /// view's offset to its stack's length, a center alignment's).
    private func isTie(_ r: Int) -> Bool { rank[r] == 0 && rowCells.count(r) == 2 && slackSign[r] == 0 }

    /// The tie of j, among j's rows, to another column: its row and that column.
    private func tie(of j: Int, among column: [Entry], besides i: Int) -> (row: Int, column: Int)? {
        for e in column where e.index != i && isTie(e.index) {
            for x in rowCells[e.index] where x.index != j { return (e.index, x.index) }
        }
        return nil
    }

    /// How far `value` breaks bound `b` (0 where it holds).
    private static func violation(of b: (value: Double, lower: Bool), by value: Double) -> Double {
        let v = b.lower ? b.value - value : value - b.value
        return v > 1e-9 * max(1, abs(b.value)) ? v : 0
    }

    /// The bound that chain link i, a singleton on column j, would break at the value it asks
    /// (the column before it in the chain, as the elimination has it): a required inequality on
    /// j, or on a column tied to j (moved onto j through the tie), else an inequality of the
    /// link's own level on j; its row and column, the most broken first. Taken by rank, the
    /// link sets j from the column before it, so a chain's columns take their values from its
    /// first one, and a cell whose own bounds disagree is repaired by a step along the rest of
    /// the chain (boxes with aspect ratios in cells of a fixed height, widths chained `@750`:
    /// one step a cell, each as long as the chain, n²). Its own bound taken instead, the cell
    /// is set apart and the link's error absorbs the difference: what is left is local.
    private mutating func boundBrokenByChainLink(_ i: Int, _ j: Int, _ a: Double, among column: [Entry]) -> (row: Int, column: Int)? {
        guard i < chainLinks.count, chainLinks[i], !rhs.isEmpty else { return nil }
        let ask = rhs[i] / a
        var required: (row: Int, column: Int, by: Double)? = nil, level: (row: Int, by: Double)? = nil
        for e in column where e.index != i && slackSign[e.index] != 0 && rowCells.count(e.index) == 1 && abs(e.value) >= 0.01 * abs(a) {
            let by = Self.violation(of: (rhs[e.index] / e.value, e.value * slackSign[e.index] < 0), by: ask)
            guard by > 0 else { continue }
            if rank[e.index] == Self.requiredInequality, by > required?.by ?? 0 { required = (e.index, j, by) }
            if rank[e.index] == rank[i] + 1, by > level?.by ?? 0 { level = (e.index, by) }
        }
        var own = ownScratch
        defer { ownScratch = own }
        for t in column where t.index != i && isTie(t.index) {
            guard let c = rowCells[t.index].first(where: { $0.index != j })?.index else { continue }
            liveRows(of: c, into: &own)
            for e in own where e.index != t.index && rank[e.index] == Self.requiredInequality && slackSign[e.index] != 0 {
                guard rowCells.count(e.index) == 1, let b = bound(e.index, e.value, through: t.index, c, onto: j) else { continue }
                let by = Self.violation(of: b, by: ask)
                if by > required?.by ?? 0 { required = (e.index, c, by) }
            }
        }
        if let required { return (required.row, required.column) }
        return level.map { ($0.row, j) }
    }

    /// A column's largest magnitude: what a pivot is measured against.
    private static func largest(_ column: [Entry]) -> Double { column.reduce(0) { max($0, abs($1.value)) } }

    /// Of the inequalities like singleton i that bound their own column, each tied by a required
    /// equality of two cells to one shared column, the one that binds there, with its column.
    /// A stack aligned center is as thick as its thickest view, but each view's containment
    /// bounds its own offset, which its center ties to the stack's length: taken by row id, the
    /// first view's set the thickness and the others' broke, a dual step each (a nested feed's
    /// rows: one a cell). Compared on the shared column, as `binding` compares bounds on one.
    private mutating func bindingThroughTies(_ i: Int, _ j: Int, _ a: Double, among column: [Entry]) -> (row: Int, column: Int)? {
        guard !rhs.isEmpty, slackSign[i] != 0, rank[i] == Self.requiredInequality, let (r, c) = tie(of: j, among: column, besides: i),
            var best = bound(i, a, through: r, j, onto: c)
        else { return nil }
        var chosen = (row: i, column: j)
        var shared = sharedScratch, own = ownScratch
        defer { (sharedScratch, ownScratch) = (shared, own) }
        liveRows(of: c, into: &shared)
        for t in shared where t.index != r && isTie(t.index) {
            guard let k = rowCells[t.index].first(where: { $0.index != c })?.index else { continue }
            liveRows(of: k, into: &own)
            for e in own where e.index != t.index && rank[e.index] == rank[i] && slackSign[e.index] != 0 && rowCells.count(e.index) == 1 {
                guard let b = bound(e.index, e.value, through: t.index, k, onto: c) else { continue }
                // A lower bound binds over an upper one; the largest lower, the smallest upper.
                if b.lower != best.lower ? b.lower : (best.lower ? b.value > best.value : b.value < best.value) {
                    (best, chosen) = (b, (e.index, k))
                }
            }
        }
        return chosen.row == i ? nil : chosen
    }

    mutating func run() -> Factors {
        var singletons = SingletonQueue(rows: rowCells.listCount) { singletonKey($0) }
        // Built when a column is first looked for, from the counts then: the columns the
        // singletons eliminate before that never enter it (their pushes and stale pops were
        // a tenth of a 1,000-cell feed's elimination).
        var colHeap: PairHeap? = nil
        var out = Factors()
        out.pivots.reserveCapacity(rowCells.listCount)
        // Scratch, reused by every pivot: a column's live rows, the pivot row.
        var column: [Entry] = [], prow: [Entry] = []
        while true {
            // Past the thread's work budget the elimination stops short; the crash then
            // throws, and its caller discards the engine (a 60,000-row build has no pivot,
            // and so no simplex step that would look at the budget).
            if out.pivots.count & 1023 == 1023 && WorkBudget.exhausted() { break }
            var pivot: (row: Int, column: Int)? = nil
            if let (_, i) = singletons.top(where: { singletonKey($0) }) {
                let only = rowCells[position: rowCells.positions(i).lowerBound]
                let (j, a) = (only.index, only.value)
                liveRows(of: j, into: &column)
                if abs(a) >= Self.singletonThreshold * Self.largest(column) {
                    let b = binding(i, j, a, among: column)
                    pivot = (b, j)
                    if b == i, let t = boundBrokenByChainLink(i, j, a, among: column) ?? bindingThroughTies(i, j, a, among: column) {
                        // The rows to eliminate from are the chosen column's, if its pivot is sound.
                        if t.column != j { liveRows(of: t.column, into: &column) }
                        let at = rowCells[position: rowCells.positions(t.row).lowerBound].value
                        if abs(at) >= Self.singletonThreshold * Self.largest(column) {
                            pivot = t
                        } else if t.column != j {
                            liveRows(of: j, into: &column)
                        }
                    }
                }
            }
            if pivot == nil {
                let counts = columnCount
                if colHeap == nil { colHeap = PairHeap(counts.indices.filter { counts[$0] > 0 }.map { (counts[$0], $0) }) }
                guard let (_, j) = colHeap!.top(where: { counts[$0] > 0 ? counts[$0] : nil }) else { break }
                liveRows(of: j, into: &column)
                let cmax = Self.largest(column)
                var best: Int? = nil
                for e in column where abs(e.value) >= 0.1 * cmax {
                    let i = e.index
                    if let b = best,
                        (rank[i] / Self.deferred, rowCells.count(i), rank[i], i) >= (rank[b] / Self.deferred, rowCells.count(b), rank[b], b)
                    {
                        continue
                    }
                    best = i
                }
                pivot = (best!, j)
            }
            let (i, j) = pivot!
            prow.clear()
            prow.append(contentsOf: rowCells[i])
            rowCells.clear(i)
            let pv = prow.first { $0.index == j }!.value
            for e in prow { columnCount[e.index] -= 1 }
            // The rows to eliminate from: the choice's live rows of j, less the pivot row
            // (listing them again was 12 M instructions of the 1,000-cell feed's 102 M).
            column.removeAll { $0.index == i }
            columnRows.clear(j)
            columnCount[j] = 0
            // The pivot's L and U lists are the last ones, filled in order: appended to the end
            // (`appendToLast`), not placed by id; an empty one takes no span.
            _ = column.isEmpty ? out.multipliers.appendList() : out.multipliers.beginList()
            for below in column {
                let (r2, a2) = (below.index, below.value)
                let wasSingleton = rowCells.count(r2) == 1
                let m = a2 / pv
                if !impure.isEmpty && impure[i] { impure[r2] = true }
                out.multipliers.appendToLast(Entry(r2, m))
                if !rhs.isEmpty { rhs[r2] -= m * rhs[i] }
                // Row r2 loses column j and gains −m × the pivot row's other cells; a cell that
                // cancels is zeroed here and dropped with j below (the order of the rest kept).
                for e in prow where e.index != j {
                    let (c, a) = (e.index, e.value)
                    if let k = position(of: c, inRow: r2) {
                        let nv = rowCells[position: k].value - m * a
                        if abs(nv) < BasisFactor.drop {
                            rowCells[position: k].value = 0
                            columnCount[c] -= 1
                        } else {
                            rowCells[position: k].value = nv
                        }
                    } else {
                        let nv = -m * a
                        if abs(nv) >= BasisFactor.drop {
                            rowCells.append(Entry(c, nv), to: r2)
                            columnRows.append(Int32(r2), to: c)
                            columnCount[c] += 1
                        }
                    }
                }
                rowCells.removeAll(in: r2) { $0.index == j || $0.value == 0 }
                // A row that stays a singleton is queued already.
                if !wasSingleton, let key = singletonKey(r2) { singletons.push(key, r2) }
            }
            if colHeap != nil { for e in prow where e.index != j && columnCount[e.index] > 0 { colHeap!.push(columnCount[e.index], e.index) } }
            _ = prow.count > 1 ? out.u.beginList() : out.u.appendList()
            for e in prow where e.index != j { out.u.appendToLast(e) }
            out.pivots.append(Pivot(row: i, column: j, pivot: pv))
        }
        return out
    }
}

/// A min-heap of (key, id), smallest key first, then smallest id: Markowitz's order,
/// deterministic. Entries go stale as keys change; `top` skips those.
struct PairHeap {
    private var heap = MinHeap()

    /// (key, id) as one integer that orders as the pair does.
    @inline(__always) static func packed(_ key: Int, _ id: Int) -> Int { key << 32 | id }
    @inline(__always) static func unpacked(_ x: Int) -> (key: Int, id: Int) { (x >> 32, x & 0xFFFF_FFFF) }

    init() {}
    init(_ entries: [(key: Int, id: Int)]) { heap = MinHeap(entries.map { Self.packed($0.key, $0.id) }) }

    mutating func push(_ key: Int, _ id: Int) { heap.push(Self.packed(key, id)) }

    /// The smallest entry, stale or not, packed.
    var first: Int? { heap.first }
    mutating func dropFirst() { _ = heap.pop() }

    /// The smallest live entry, left in place (a pop and a push back took the elimination
    /// from 256 to 282 M instructions on the 1,000-cell feed):
    /// its stored key must equal `current(id)`; stale ones above it are dropped.
    mutating func top(where current: (Int) -> Int?) -> (Int, Int)? {
        while let x = heap.first {
            let (key, id) = Self.unpacked(x)
            if let now = current(id), now == key { return (key, id) }
            _ = heap.pop()
        }
        return nil
    }
}

/// Row singletons in Markowitz order, rank then id, as `PairHeap` gives them: those there
/// at the start sorted once (by rank, counting; ids come in order), those pivots make
/// later in a heap, the smaller head first. The start's 20,000 singletons of a 1,000-cell
/// feed went through the heap before (its sifts were 3% of a `POST /v1/layout`).
struct SingletonQueue {
    private var initial: [Int]  // (rank, id) packed, ascending
    private var next = 0
    private var later = PairHeap()

    init(rows: Int, key: (Int) -> Int?) {
        var count = [Int](repeating: 0, count: 17)
        for i in 0..<rows { if let r = key(i) { precondition(r < 16, "a rank is 0…15"); count[r + 1] += 1 } }
        for r in 0..<16 { count[r + 1] += count[r] }
        initial = [Int](repeating: 0, count: count[16])
        for i in 0..<rows {
            guard let r = key(i) else { continue }
            initial[count[r]] = PairHeap.packed(r, i)
            count[r] += 1
        }
    }

    mutating func push(_ key: Int, _ id: Int) { later.push(key, id) }

    /// The smallest live entry, left in place; stale ones above it are dropped.
    mutating func top(where current: (Int) -> Int?) -> (Int, Int)? {
        while true {
            let a = next < initial.count ? initial[next] : Int.max
            let b = later.first ?? Int.max
            if a == Int.max && b == Int.max { return nil }
            let (key, id) = PairHeap.unpacked(min(a, b))
            if let now = current(id), now == key { return (key, id) }
            if a <= b { next += 1 } else { later.dropFirst() }
        }
    }
}
