/// The basis B of the factored engine, kept as B = L·U·E₁…Eₜ and never inverted:
/// a sparse LU in pivot steps (step k eliminated row `rowOfStep[k]` on the basic column
/// `columnOfStep[k]`), then a product-form eta file for the basis changes since the last
/// factorization. On a dependent chain B is bidiagonal, and L and U keep O(N) nonzeros
/// where the substituted solved form (B⁻¹) holds N²/2.
///
/// Everything inside works in step space. Every solve takes a sparse right-hand side into
/// a `WorkVector` and visits only the steps it reaches, in order (Gilbert–Peierls, by
/// heap), so a set-constant at a chain's tail costs O(1) and at its head O(what moves).
final class BasisFactor {
    static let drop = 1e-13

    private(set) var rowOfStep = IndexMap()
    /// Row → its step, -1 for none (dense over row ids).
    private(set) var stepOfRow = IndexMap()
    private(set) var columnOfStep = IndexMap()
    /// Column → its step, -1 when nonbasic (dense over column ids).
    private(set) var stepOfColumn = IndexMap()

    /// L by column: step k's multipliers on later steps; L by row: the multipliers step k
    /// received from earlier steps. U by row (later steps) and by column (earlier steps).
    private var lcol = SparseLists<Entry>()
    private var lrow = SparseLists<Entry>()
    /// L by row is the transpose of L by column, made by the first transposed solve after a
    /// factorization or `dropTransposedL`: a built session that only moves constants (a drag)
    /// never needs it.
    private var lrowMade = false
    private var urow = SparseLists<Entry>()
    private var ucol = SparseLists<Entry>()
    private var udiag: [Double] = []

    /// The eta file: per basis change, its pivot step and column (entries by step).
    private var etaPivot: [Int] = []
    private var etaColumn: [[Entry]] = []
    private var etaPivotValue: [Double] = []
    private var etasByPivot: [[Int]] = []
    /// The eta file by row: slot i's (eta, value) for every eta whose column holds i off its pivot.
    private var etaRows = ChainedLists()
    /// Entries `etaRows` holds, cleared ones included (bounded: `compressEtas`).
    var etaRowEntries: Int { etaRows.stored }
    /// Per eta, Σ wᵢ·ηᵢ over its column during `etaBackward` (zero between solves).
    private var etaSums: [Double] = []
    private(set) var etaNonzeros = 0
    /// The steps the eta file pivots at.
    private var etaSteps: Set<Int> = []
    private(set) var luNonzeros = 0
    /// Etas applied by solves since the last factorization: the eta file's running cost.
    private(set) var etaVisits = 0

    private var heap = MinHeap()

    var stepCount: Int { rowOfStep.count }
    var hasEtas: Bool { !etaPivot.isEmpty }

    func growColumns(to n: Int) {
        stepOfColumn.grow(to: n)
    }

    func growRows(to n: Int) {
        stepOfRow.grow(to: n)
    }

    func reserve(rows: Int, columns: Int) {
        stepOfRow.reserveCapacity(rows)
        stepOfColumn.reserveCapacity(columns)
    }

    @inline(__always) func isBasic(_ column: Int) -> Bool { stepOfColumn[column] >= 0 }

    // MARK: Solves (in place on a work vector in step space)

    /// Loads a right-hand side given by row into `w` (by step).
    func load(rows rhs: some Sequence<Entry>, into w: inout WorkVector) {
        w.reset(size: stepCount)
        for e in rhs { w.add(stepOfRow[e.index], e.value) }
    }

    /// w ← L⁻¹·w, steps ascending.
    func lower(_ w: inout WorkVector) { triangular(&w, lcol, ascending: true, dividing: false, skipBelow: 0) }

    /// w ← U⁻¹·w, steps descending.
    func upper(_ w: inout WorkVector) { triangular(&w, ucol, ascending: false, dividing: true, skipBelow: Self.drop) }

    /// w ← U⁻ᵀ·w, steps ascending.
    func upperTransposed(_ w: inout WorkVector) { triangular(&w, urow, ascending: true, dividing: true, skipBelow: Self.drop) }

    /// w ← L⁻ᵀ·w, steps descending (the result is by step: row `rowOfStep[k]`).
    func lowerTransposed(_ w: inout WorkVector) {
        if !lrowMade { (lrow, lrowMade) = (lcol.transposed(), true) }
        triangular(&w, lrow, ascending: false, dividing: false, skipBelow: Self.drop)
    }

    /// One triangular solve in place: each live step k, in order, is final when visited
    /// (divided by U's diagonal when `dividing`) and scatters into the later steps of
    /// `factor[k]`. A right-hand side that reaches a large part of the steps is swept in
    /// order (every step visited once) instead of through the heap: the crash's values, a
    /// refactor's. Inlined, so each of the four solves gets its own constant arguments (a
    /// shared body cost a set-constant 800 more instructions, callgrind).
    @inline(__always)
    private func triangular(_ w: inout WorkVector, _ factor: SparseLists<Entry>, ascending: Bool, dividing: Bool, skipBelow: Double) {
        /// Step k's final value, or nil when it is (numerically) zero and scatters nothing.
        @inline(__always) func settle(_ k: Int, _ w: inout WorkVector) -> Double? {
            var x = w[k]
            if abs(x) <= skipBelow {
                if dividing { w.set(k, 0) }
                return nil
            }
            if dividing {
                x /= udiag[k]
                w.set(k, x)
            }
            return x
        }
        let n = stepCount
        factor.withBuffers { spans, entries in
            // Steps in solve order (i, as k: ascending or not) from `from` on, swept.
            var from = n
            if w.pattern.count * 8 > n {
                from = 0
            } else {
                let sign = ascending ? 1 : -1
                heap.removeAll()
                for k in w.pattern { heap.push(sign * k) }
                while let first = heap.first {
                    // A solve whose reach grows past an eighth of the steps left is swept from
                    // there: the heap's order is the sweep's, so nothing else changes (the crash's
                    // duals reached 21,000 of 32,000 steps through the heap, 24 M instructions of
                    // the 1,000-cell stack's three builds).
                    let i = ascending ? first : n - 1 + first
                    if heap.count * 8 > n - i {
                        from = i
                        break
                    }
                    let k = sign * heap.pop()
                    guard let x = settle(k, &w), k < spans.count else { continue }
                    for e in entries[spans[k].range] where w.add(e.index, -e.value * x) { heap.push(sign * e.index) }
                }
            }
            for i in from..<n {
                let k = ascending ? i : n - 1 - i
                guard w.contains(k), let x = settle(k, &w), k < spans.count else { continue }
                for e in entries[spans[k].range] { w.add(e.index, -e.value * x) }
            }
        }
    }

    /// w ← Eₜ⁻¹…E₁⁻¹·w: the etas whose pivot the vector reaches, oldest first.
    func etaForward(_ w: inout WorkVector) {
        guard !etaPivot.isEmpty else { return }
        heap.removeAll()
        var last = -1
        // Buffers borrowed, not iterated as arrays: iterating a nested array retains it
        // (2.9% of an in-process set-constant's instructions went to retains here).
        etasByPivot.withUnsafeBufferPointer { byPivot in
            for s in w.pattern { for j in byPivot[s] { heap.push(j) } }
            etaColumn.withUnsafeBufferPointer { columns in
                while !heap.isEmpty {
                    let j = heap.pop()
                    if j == last { continue }  // pushed twice
                    last = j
                    etaVisits += 1
                    let p = etaPivot[j]
                    let xp0 = w[p]
                    if xp0 == 0 { continue }
                    let xp = xp0 / etaPivotValue[j]
                    w.set(p, xp)
                    columns[j].withUnsafeBufferPointer { column in
                        for e in column where w.add(e.index, -e.value * xp) {
                            let i = e.index
                            byPivot[i].withUnsafeBufferPointer { for j2 in $0 where j2 > j { heap.push(j2) } }
                        }
                    }
                }
            }
        }
    }

    /// wᵀ ← wᵀ·Eₜ⁻¹…E₁⁻¹: newest first. Each eta's Σ wᵢ·ηᵢ is scattered from w's entries
    /// by row (`etaRows`) as they are set, not gathered over its column at its visit: a hub's
    /// eta holds a third of the basis, and the degenerate steps of a star with tied cells
    /// left dozens of them, each walked whole by every later transposed solve though w held
    /// 3 entries on average (433 M entries at 4,000 cells).
    func etaBackward(_ w: inout WorkVector) {
        guard !etaPivot.isEmpty else { return }
        heap.removeAll()
        if etaSums.count < etaPivot.count { etaSums += repeatElement(0, count: etaPivot.count - etaSums.count) }
        for s in w.pattern {
            for j in etasByPivot[s] { heap.push(-j) }
            let ws = w[s]
            if ws == 0 { continue }
            etaRows.forEach(in: s) { e in
                etaSums[e.index] += ws * e.value
                heap.push(-e.index)
            }
        }
        var last = -1
        while !heap.isEmpty {
            let j = -heap.pop()
            if j == last { continue }
            last = j
            etaVisits += 1
            let p = etaPivot[j]
            let acc = etaSums[j]
            etaSums[j] = 0
            let old = w[p]
            let new = (old - acc) / etaPivotValue[j]
            if new != old {
                w.set(p, new)
                let d = new - old
                for j2 in etasByPivot[p] where j2 < j { heap.push(-j2) }
                etaRows.forEach(in: p) { e in
                    guard e.index < j else { return }
                    etaSums[e.index] += d * e.value
                    heap.push(-e.index)
                }
            }
        }
    }

    /// B⁻¹·rhs (rhs by row) into w, by step.
    func ftran(_ rhs: some Sequence<Entry>, into w: inout WorkVector) {
        load(rows: rhs, into: &w)
        lower(&w)
        upper(&w)
        etaForward(&w)
    }

    /// dᵀ·B⁻¹ (d by step) into w, by step (row `rowOfStep[k]`).
    func btran(_ d: some Sequence<Entry>, into w: inout WorkVector) {
        w.reset(size: stepCount)
        for e in d { w.add(e.index, e.value) }
        etaBackward(&w)
        upperTransposed(&w)
        lowerTransposed(&w)
    }

    // MARK: Changes

    /// Column `entering` replaces the basic column of step `p`; `column` is B⁻¹·a (old
    /// basis) by step. Returns the column that left.
    @discardableResult
    func replace(step p: Int, with entering: Int, column: WorkVector) -> Int {
        let leaving = columnOfStep[p]
        stepOfColumn[leaving] = -1
        stepOfColumn[entering] = p
        columnOfStep[p] = entering
        etaSteps.insert(p)
        var entries: [Entry] = []
        for i in column.pattern where i != p && abs(column[i]) > Self.drop { entries.append(Entry(i, column[i])) }
        appendEta(pivot: p, value: column[p], entries)
        if etaPivot.count > 2 * etaSteps.count + 8 && etaSteps.count <= 32 { compressEtas() }
        return leaving
    }

    private func appendEta(pivot p: Int, value: Double, _ entries: [Entry]) {
        let j = etaPivot.count
        etaPivot.append(p)
        etaPivotValue.append(value)
        etaColumn.append(entries)
        if etasByPivot.count < stepCount {
            etasByPivot.append(contentsOf: repeatElement([], count: stepCount - etasByPivot.count))
        }
        etasByPivot[p].append(j)
        for e in entries { etaRows.append(Entry(j, e.value), to: e.index) }
        etaNonzeros += entries.count + 1
    }

    /// The eta file, however long, is T = E₁…Eₜ: the identity but in the columns of the
    /// few steps it pivots at. When it is much longer than those steps (a drag pivoting back
    /// and forth across a limit at two steps adds an eta a crossing), T is written again
    /// as one eta a step, in product form (each step's column of T through the etas made so
    /// far, the largest pivot first): the file shrinks to those steps, its solves stop
    /// growing, and the drag never needs a whole-basis factorization (which cost
    /// `drag_n1000` 34 ms stalls).
    private func compressEtas() {
        let steps = etaSteps.sorted()
        // T·e_s: the etas applied to the unit vector, newest first (E·v = v + (u − eₚ)·v[p]).
        var columns: [Int: [Int: Double]] = [:]
        for s in steps {
            var v: [Int: Double] = [s: 1]
            for j in stride(from: etaPivot.count - 1, through: 0, by: -1) {
                let p = etaPivot[j]
                guard let vp = v[p], vp != 0 else { continue }
                v[p] = etaPivotValue[j] * vp
                for e in etaColumn[j] { v[e.index, default: 0] += e.value * vp }
            }
            columns[s] = v
        }
        // P = E′₁…E′ₖ built up: step s's eta is P⁻¹·(T·e_s), so that P·E′ has T's column s.
        var made: [(p: Int, value: Double, entries: [Entry])] = []
        var left = steps
        while !left.isEmpty {
            var best: (s: Int, eta: [Int: Double], size: Double)? = nil
            for s in left {
                var x = columns[s]!
                for e in made {
                    guard let xp0 = x[e.p], xp0 != 0 else { continue }
                    let xp = xp0 / e.value
                    x[e.p] = xp
                    for eta in e.entries { x[eta.index, default: 0] -= eta.value * xp }
                }
                let size = abs(x[s] ?? 0)
                if size > (best?.size ?? 0) { best = (s, x, size) }
            }
            guard let b = best, b.size > 1e-9 else { return }  // nothing replaced yet: the file stays as it was
            let entries = b.eta.filter { $0.key != b.s && abs($0.value) > Self.drop }.sorted { $0.key < $1.key }.map { Entry($0.key, $0.value) }
            made.append((b.s, b.eta[b.s]!, entries))
            left.removeAll { $0 == b.s }
        }
        for j in etaPivot.indices {
            etasByPivot[etaPivot[j]] = []
            for e in etaColumn[j] { etaRows.clear(e.index) }
        }
        etaPivot = []; etaColumn = []; etaPivotValue = []; etaNonzeros = 0
        // The cleared rows' entries stay in `etaRows` until a factorization, which a file kept
        // short this way may not call for: flips at a few steps of a 4,000-cell build compressed
        // it thousands of times, the lists past 5 GB. Made again once mostly garbage.
        if etaRows.stored > 4 * made.reduce(0) { $0 + $1.entries.count } + 4096 { etaRows.removeAll() }
        for e in made { appendEta(pivot: e.p, value: e.value, e.entries) }
    }

    /// Makes `twin`, another column found only in the same row, basic in place of step k's
    /// column. Such a column has no L or U entries off its diagonal, so only the diagonal
    /// changes: no refactorization.
    func swapSingleton(step k: Int, to twin: Int, diagonal: Double) {
        precondition(lcol.count(k) == 0 && ucol.count(k) == 0 && etaPivot.isEmpty, "not a singleton step")
        stepOfColumn[columnOfStep[k]] = -1
        columnOfStep[k] = twin
        stepOfColumn[twin] = k
        udiag[k] = diagonal
    }

    /// Borders the factorization with a new row and its basic column: L gains row `l`
    /// (rᵀ·B_LU⁻¹ by step), U gains column `v` (L⁻¹·u by step) and the diagonal `s`.
    func extend(row: Int, column: Int, l: [Entry], v: [Entry], diagonal s: Double) {
        let m = rowOfStep.count
        rowOfStep.append(row)
        growRows(to: row + 1)
        stepOfRow[row] = m
        columnOfStep.append(column)
        stepOfColumn[column] = m
        lcol.appendList()
        for e in l { lcol.append(Entry(m, e.value), to: e.index) }
        if lrowMade { lrow.appendList(l) }
        ucol.appendList(v)
        urow.appendList()
        for e in v { urow.append(Entry(m, e.value), to: e.index) }
        udiag.append(s)
        if !etasByPivot.isEmpty {
            etasByPivot.append([])
        }
        luNonzeros += l.count + v.count + 1
    }

    /// Factors the basis anew (Markowitz order, threshold pivoting): list i of `rows` is live
    /// row i's coefficients on the basic columns (empty for a row that is not live), `live`
    /// how many rows are, `columns` past the largest column id. Clears the eta file.
    func factor(rows: SparseLists<Entry>, live: Int, columns: Int) throws(SingularBasis) {
        var elimination = Elimination(rows: rows, columns: columns, rank: nil)
        let factors = elimination.run()
        guard factors.pivots.count == live else { throw SingularBasis() }
        install(factors)
    }

    /// Takes an elimination's pivots, in order, as the factorization (one step each).
    func install(_ factors: Elimination.Factors) {
        for col in columnOfStep { stepOfColumn[col] = -1 }
        for r in rowOfStep { stepOfRow[r] = -1 }
        let pivots = factors.pivots
        rowOfStep = IndexMap(pivots.lazy.map(\.row))
        columnOfStep = IndexMap(pivots.lazy.map(\.column))
        for (k, p) in pivots.enumerated() {
            growRows(to: p.row + 1)
            stepOfRow[p.row] = k
            stepOfColumn[p.column] = k
        }
        udiag = pivots.map(\.pivot)
        // The elimination's lists are L by column and U by row already, by row and column id.
        lcol = factors.multipliers
        lcol.mapIndices { stepOfRow[$0] }
        lcol.trim()
        urow = factors.u
        urow.mapIndices { stepOfColumn[$0] }
        urow.trim()
        dropTransposedL()
        ucol = urow.transposed()
        luNonzeros = pivots.count + lcol.liveCount + urow.liveCount
        etaPivot = []; etaColumn = []; etaPivotValue = []; etaNonzeros = 0; etaVisits = 0; etaSteps = []
        etasByPivot = []  // sized by the first eta: a basis without etas needs none
        etaRows.removeAll()
    }

    /// Drops every step (before a factorization from a new basis).
    func reset() {
        for col in columnOfStep { stepOfColumn[col] = -1 }
        for r in rowOfStep { stepOfRow[r] = -1 }
        rowOfStep = IndexMap(); columnOfStep = IndexMap()
        lcol = SparseLists<Entry>(); urow = SparseLists<Entry>(); ucol = SparseLists<Entry>(); udiag = []
        dropTransposedL()
        etaPivot = []; etaColumn = []; etaPivotValue = []; etasByPivot = []; etaRows.removeAll(); etaSteps = []
        etaNonzeros = 0; luNonzeros = 0; etaVisits = 0
    }
}

struct SingularBasis: Error {}

extension BasisFactor {
    /// Releases L by row, which the next transposed solve makes again.
    func dropTransposedL() { (lrow, lrowMade) = (SparseLists<Entry>(), false) }

    /// Each part released in turn, for the footprint (the basis is empty afterwards).
    func releaseMeasuringFootprint(_ meter: inout FootprintMeter) {
        meter.release("basis: L by column") { lcol = SparseLists<Entry>() }
        meter.release("basis: L by row") { lrow = SparseLists<Entry>() }
        meter.release("basis: U") {
            urow = SparseLists<Entry>(); ucol = SparseLists<Entry>()
        }
        meter.release("basis: U diagonal") { udiag = [] }
        meter.release("basis: etas") {
            etaPivot = []; etaColumn = []; etaPivotValue = []; etasByPivot = []; etaRows.removeAll(); etaSteps = []
            etaSums = []
        }
        meter.release("basis: step maps") {
            rowOfStep = IndexMap(); columnOfStep = IndexMap(); stepOfRow = IndexMap(); stepOfColumn = IndexMap()
        }
    }
}
