import WorkBudget
import CheckedNumbers
/// Dependent variables: a free user variable that only one required equality names is
/// whatever that row makes it, so the row and the variable are taken out of the simplex
/// (LP presolve's free column singleton) and the variable is computed from its row after
/// each operation. Peeling repeats: once a chain's last position is out, the one before
/// it names one row only too, so a chain of cells (`cellᵢ.top == cellᵢ₋₁.bottom`) leaves
/// every position out and the basis keeps the cells' insides alone, one block a cell.
///
/// Why: a position below a height that a pivot moves moves too, so with the positions in
/// the basis every pivot inside a cell solved and stored a column reaching every cell below
/// it (the eta file grew by O(N) a pivot and was refactored every few), and a self-sizing
/// or stacked feed built in O(N²). The positions never bound anything: the simplex needs
/// only the rows that hold a restricted variable.
///
/// A dependent's row is never in a conflict (its variable absorbs anything), has no cost
/// and no direction of its own: it is ambiguous exactly when what it is computed from
/// moves along a realised direction. Its inputs are core columns or dependents peeled
/// later, so they are computed in decreasing rank.
struct Dependents {
    /// By rank (the order peeled): the variable and its row; -1 once restored or removed.
    var byRank: [(column: Int32, row: Int32)] = []
    /// By column: its rank, or -1 (empty while nothing is peeled).
    var rankOfColumn: [Int32] = []
    /// By column: the ranks whose rows name it beside their own variable.
    var users = SparseLists<Int32>()
    var isRow = BitVector()
    var count = 0
    /// Columns written since the last settling that some dependent's row names, and
    /// dependents whose row's constant moved.
    var seeds: [Int] = []
    var seedRanks: [Int] = []
    /// Scratch of the settling, kept: a heap made each time was an allocation a drag step.
    var heap = MinHeap()
    /// Every value to compute (after a build peeled them).
    var sweep = false

    @inline(__always) mutating func noteWrite(_ j: Int) { if users.count(j) > 0 { seeds.append(j) } }

    @inline(__always) func rank(_ j: Int) -> Int { j < rankOfColumn.count ? Int(rankOfColumn[j]) : -1 }
    @inline(__always) func contains(column j: Int) -> Bool { rank(j) >= 0 }
    @inline(__always) func contains(row r: Int) -> Bool { r < isRow.count && isRow[r] }
    var isEmpty: Bool { count == 0 }
}

extension FactoredSolver {
    /// Peels every dependent the live rows hold (the batch build, before its crash): the
    /// free user columns named by one live row, that row a required, unbroken equality of
    /// user columns only, again until none is left.
    /// The dependents' rows leave the column lists once, after: a row taken out of the list of
    /// every column it names was a search of each (quadratic for a column a thousand rows name).
    func peelDependents() {
        var queue: [Int] = []
        // Live rows naming each column, read from the lists' spans (through `columnRows` each,
        // 8 M instructions of the 1,000-cell stack's three builds).
        var rowsLeft = columnRows.withBuffers { spans, _ in (0..<kind.count).map { $0 < spans.count ? Int(spans[$0].count) : 0 } }
        for j in kind.indices where isUser[j] && kind[j] == .free && rowsLeft[j] == 1 { queue.append(j) }
        guard !queue.isEmpty else { return }
        var peeled = 0
        // Each dependent's inputs, grouped by input once all are peeled: appended one by one,
        // the users' lists moved and compacted over and over (15 M instructions of the
        // 1,000-cell stack's three builds for 6,000 entries).
        var userRanks: [Int32] = [], userColumns: [Int32] = []
        while let c = queue.popLast() {
            // A quarter of a 60,000-view column's build: the budget is looked at within it
            // (stopped, what was peeled is thrown away with the engine).
            peeled += 1
            if peeled & 1023 == 0 && WorkBudget.exhausted() {
                dependents.users = SparseLists(grouping: userRanks, by: userColumns, lists: kind.count)
                return
            }
            guard !dependents.contains(column: c), rowsLeft[c] == 1,
                let r = columnRows[c].first(where: { rowLive[Int($0)] }).map(Int.init), peelable(r)
            else { continue }
            peel(c, row: r)
            for e in rows[r] {
                if e.index != c {
                    userRanks.append(Int32(dependents.byRank.count - 1))
                    userColumns.append(Int32(e.index))
                }
                rowsLeft[e.index] -= 1
                if e.index != c && isUser[e.index] && kind[e.index] == .free && rowsLeft[e.index] == 1 { queue.append(e.index) }
            }
        }
        dependents.users = SparseLists(grouping: userRanks, by: userColumns, lists: kind.count)
        if !dependents.isEmpty {
            dependents.sweep = true
            // The lists made before peeling, less the dependents' rows: what making them again
            // from the rows gives, for one pass over them (a transpose was 24 M instructions of
            // the 1,000-cell stack's three builds).
            let isRow = dependents.isRow  // a copy: read through `self`, each entry cost a call
            columnRows.removeAll { Int($0) < isRow.count && isRow[Int($0)] }
        }
    }

    /// An unbroken equality of free user columns; or an optional one, whose errors stay 0: the
    /// variable it defines absorbs any error (a chain of cells placed `@750` peels as a
    /// required one does, where the positions in the basis made each cell's pivot walk every
    /// cell below: n² for n cells).
    private func peelable(_ r: Int) -> Bool {
        let h = handleOfRow[r]
        guard h >= 0, let rec = records[h], rec.relation == .equal, !records.isBroken(h) else { return false }
        for e in rows[r] where !isUser[e.index] || kind[e.index] != .free {
            guard !rec.isRequired, kind[e.index] == .error, value[e.index] == 0, !basis.isBasic(e.index) else { return false }
        }
        return true
    }

    private func peel(_ c: Int, row r: Int) {
        if dependents.rankOfColumn.count < kind.count {
            dependents.rankOfColumn.append(contentsOf: repeatElement(-1, count: kind.count - dependents.rankOfColumn.count))
        }
        while dependents.isRow.count < rows.listCount { dependents.isRow.append(false) }
        let d = dependents.byRank.count
        dependents.byRank.append((Int32(c), Int32(r)))
        dependents.rankOfColumn[c] = Int32(d)
        dependents.isRow[r] = true
        dependents.count += 1
        rowLive[r] = false
        ambiguityCache = nil
    }

    /// Every dependent's row live again (the batch build makes the column lists, the basis
    /// and the dependents anew from the rows).
    func restoreAllDependents() {
        guard !dependents.isEmpty else { return }
        for (c, r) in dependents.byRank where c >= 0 { rowLive[Int(r)] = true }
        dependents = Dependents()
    }

    /// The dependent column row r defines.
    private func dependentColumn(ofRow r: Int) -> Int {
        rows[r].first { dependents.contains(column: $0.index) && dependents.byRank[dependents.rank($0.index)].row == r }!.index
    }

    /// Dependent column c's value from its row (`read` gives the others'), rhs included or not.
    @inline(__always) func evaluate(rank d: Int, rhs withRHS: Bool, _ read: (Int) -> Double) -> Double {
        let (c, r) = (Int(dependents.byRank[d].column), Int(dependents.byRank[d].row))
        var s = withRHS ? rhs[r] : 0, a = 0.0
        for e in rows[r] {
            if e.index == c { a = e.value } else { s -= e.value * read(e.index) }
        }
        return s / a
    }

    /// The dependents' values, brought up to date when they are read (a value, the changes,
    /// a verdict): from the columns written since that their rows name, each recomputed once
    /// its inputs are, in decreasing rank; a value that did not move stops there. A build
    /// sweeps them all. Read lazily, a change's many set-constants (a label settling its
    /// height in every cell of a chain) move the positions below them once, not once each.
    @inline(__always) func settleDependents() {
        if !dependents.seeds.isEmpty || !dependents.seedRanks.isEmpty || dependents.sweep { settleFromSeeds() }
    }

    private func settleFromSeeds() {
        defer {
            dependents.seeds.removeAll(keepingCapacity: dependents.seeds.count < 4096)
            dependents.seedRanks.removeAll(keepingCapacity: dependents.seedRanks.count < 4096)
            dependents.sweep = false
        }
        if dependents.sweep || dependents.seeds.count * 4 > dependents.byRank.count {
            for d in stride(from: dependents.byRank.count - 1, through: 0, by: -1) where dependents.byRank[d].column >= 0 {
                let c = Int(dependents.byRank[d].column)
                let v = evaluate(rank: d, rhs: true) { value[$0] }
                if v != value[c] { setValue(c, v) }
            }
            return
        }
        var heap = MinHeap()
        swap(&heap, &dependents.heap)
        defer { swap(&heap, &dependents.heap) }
        heap.removeAll()
        for j in dependents.seeds { for d in dependents.users[j] { heap.push(-Int(d)) } }
        for d in dependents.seedRanks { heap.push(-d) }
        var last = Int.min
        while !heap.isEmpty {
            let d = -heap.pop()
            if d == last { continue }
            last = d
            let c = Int(dependents.byRank[d].column)
            guard c >= 0 else { continue }
            let v = evaluate(rank: d, rhs: true) { value[$0] }
            guard v != value[c] else { continue }
            setValue(c, v)
            for d2 in dependents.users[c] { heap.push(-Int(d2)) }
        }
    }

    /// A set-constant on a dependent's row: its variable, and what hangs from it, move when
    /// next read (a stack's spacing changed is a set-constant on every gap of a chain: settled
    /// each, they walked the chain below each).
    func setDependentConstant(row r: Int, _ constant: Double) {
        rhs[r] = -constant
        dependents.seedRanks.append(dependents.rank(dependentColumn(ofRow: r)))
    }

    /// A dependent's row removed: its variable is defined by nothing now, a column in no
    /// row at 0 (as the basis leaves a free variable whose row is removed), still an input of
    /// the rows that name it.
    func removeDependentRow(_ r: Int) {
        let c = dependentColumn(ofRow: r)
        let d = dependents.rank(c)
        forget(rank: d)
        // An optional row's errors, in no other row, go with it.
        for e in rows[r] where kind[e.index] == .error {
            setCost(e.index, priority: 0)
            candidates.remove(e.index)
            kind[e.index] = .dead
            freeColumns.append(e.index)
        }
        rows.clear(r)
        freeRows.append(r)
        setValue(c, 0)
        ambiguityCache = nil
    }

    private func forget(rank d: Int) {
        makeColumnListsIfDropped()
        let (c, r) = (Int(dependents.byRank[d].column), Int(dependents.byRank[d].row))
        for e in rows[r] where e.index != c { dependents.users.removeAll(in: e.index) { Int($0) == d } }
        dependents.byRank[d] = (-1, -1)
        dependents.rankOfColumn[c] = -1
        dependents.isRow[r] = false
        dependents.count -= 1
        if dependents.count == 0 { dependents = Dependents() }
    }

    /// Puts dependent column c back in the basis, with what it is computed from first (a
    /// new row is about to name it): each row borders the factorization with its own
    /// variable basic, a triangular extension.
    func restoreDependent(_ c: Int) {
        var ranks: [Int] = [], stack = [c], seen: Set<Int> = []
        while let j = stack.popLast() {
            let d = dependents.rank(j)
            guard d >= 0, seen.insert(d).inserted else { continue }
            ranks.append(d)
            for e in rows[Int(dependents.byRank[d].row)] where e.index != j { stack.append(e.index) }
        }
        for d in ranks.sorted(by: >) {
            let (j, r) = (Int(dependents.byRank[d].column), Int(dependents.byRank[d].row))
            forget(rank: d)
            rowLive[r] = true
            var delta = rhs[r], a = 0.0
            var basic: [Entry] = []
            for e in rows[r] {
                columnRows.append(Int32(r), to: e.index)
                if e.index == j {
                    a = e.value
                } else if basis.isBasic(e.index) {
                    delta -= e.value * value[e.index]
                    basic.append(Entry(basis.stepOfColumn[e.index], e.value))
                }
            }
            // l = U⁻ᵀ·(rᵀE⁻¹): the new row of L, as `install` makes it.
            rowWork.reset(size: basis.stepCount)
            for e in basic { rowWork.add(e.index, e.value) }
            basis.etaBackward(&rowWork)
            basis.upperTransposed(&rowWork)
            basis.extend(row: r, column: j, l: rowWork.entries(), v: [], diagonal: a)
            setValue(j, delta / a)
            // An optional row's errors cost what they cost again: the row's dual is 0 (its
            // variable is basic in it alone).
            for e in rows[r] where kind[e.index] == .error {
                forEachLevel(ofColumn: e.index) { setReducedCost($0, e.index, cost($0, e.index)) }
                checkCandidate(e.index)
            }
        }
        ambiguityCache = nil
    }

    /// The dependents a realised move of the core columns (`delta`, by column) moves, into
    /// `moved`: its changes carried through their rows, inputs first.
    func dependentMoves(_ delta: inout [Double], tolerance: Double, into moved: inout [Bool]) {
        for d in stride(from: dependents.byRank.count - 1, through: 0, by: -1) where dependents.byRank[d].column >= 0 {
            let c = Int(dependents.byRank[d].column)
            let x = evaluate(rank: d, rhs: false) { delta[$0] }
            delta[c] = x
            if abs(x) > tolerance { moved[c] = true }
        }
    }

    /// The handles whose constants move dependent c: its row's, and those of what it is
    /// computed from (`core` for a column in the basis).
    func dependentAffecting(_ c: Int, core: (Int) -> [Int32]) -> Set<Int32> {
        var out = Set<Int32>(), stack = [c], seen: Set<Int> = [c]
        while let j = stack.popLast() {
            let d = dependents.rank(j)
            guard d >= 0 else {
                out.formUnion(core(j))
                continue
            }
            let r = Int(dependents.byRank[d].row)
            if records[handleOfRow[r]] != nil { out.insert(handleOfRow[r]) }
            for e in rows[r] where seen.insert(e.index).inserted { stack.append(e.index) }
        }
        return out
    }
}
