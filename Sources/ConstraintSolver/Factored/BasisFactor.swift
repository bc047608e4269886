/// A sparse vector: index → value (rows, steps or columns, as each use says).
typealias SparseVector = [Int: Double]

/// The basis B of the factored engine, kept as B = L·U·E₁…Eₜ and never inverted:
/// a sparse LU in pivot steps (step k eliminated row `rowOfStep[k]` on the basic column
/// `columnOfStep[k]`), then a product-form eta file for the basis changes since the last
/// factorization. On a dependent chain B is bidiagonal, and L and U keep O(N) nonzeros
/// where the substituted solved form (B⁻¹) holds N²/2.
///
/// Every solve takes a sparse right-hand side and visits only the steps it reaches
/// (Gilbert–Peierls order, by heap), so a set-constant at a chain's tail costs O(1) and at
/// its head O(what moves).
struct BasisFactor {
    static let drop = 1e-13

    private(set) var rowOfStep: [Int] = []
    private(set) var stepOfRow: [Int: Int] = [:]
    private(set) var columnOfStep: [Int] = []
    /// Column → its step, -1 when nonbasic (dense over column ids).
    private(set) var stepOfColumn: [Int] = []

    /// L by column (step → row → multiplier) and by row (row → step → multiplier).
    private var lcol: [SparseVector] = []
    private var lrow: [Int: SparseVector] = [:]
    /// U by row (step → later step → value) and by column (step → earlier step → value).
    private var urow: [SparseVector] = []
    private var ucol: [SparseVector] = []
    private var udiag: [Double] = []

    /// The eta file: each basis change since the factorization, pivot step and column.
    private var etas: [(pivot: Int, column: SparseVector)] = []
    private var etasByPivot: [Int: [Int]] = [:]
    private var etasBySlot: [Int: [Int]] = [:]
    private(set) var etaNonzeros = 0
    private(set) var luNonzeros = 0

    var stepCount: Int { rowOfStep.count }
    var hasEtas: Bool { !etas.isEmpty }

    mutating func growColumns(to n: Int) {
        if stepOfColumn.count < n { stepOfColumn.append(contentsOf: repeatElement(-1, count: n - stepOfColumn.count)) }
    }

    func isBasic(_ column: Int) -> Bool { stepOfColumn[column] >= 0 }

    // MARK: Triangular solves

    /// L⁻¹·rhs: rhs by row, the result by step.
    func lSolve(_ rhs: SparseVector) -> SparseVector {
        var w = rhs
        var heap = MinHeap(w.keys.map { stepOfRow[$0]! })
        var seen = Set(w.keys.map { stepOfRow[$0]! })
        while !heap.isEmpty {
            let k = heap.pop()
            guard let v = w[rowOfStep[k]], v != 0 else { continue }
            for (i, l) in lcol[k] {
                w[i, default: 0] -= l * v
                let s = stepOfRow[i]!
                if seen.insert(s).inserted { heap.push(s) }
            }
        }
        var out: SparseVector = [:]
        out.reserveCapacity(w.count)
        for (r, v) in w where abs(v) > Self.drop { out[stepOfRow[r]!] = v }
        return out
    }

    /// U⁻¹·z, by step.
    func uSolve(_ z: SparseVector) -> SparseVector {
        var z = z
        var heap = MinHeap(z.keys.map { -$0 })
        var seen = Set(z.keys)
        var x: SparseVector = [:]
        while !heap.isEmpty {
            let k = -heap.pop()
            guard let v = z[k], abs(v) > Self.drop else { continue }
            let xv = v / udiag[k]
            x[k] = xv
            for (k2, u) in ucol[k] {
                z[k2, default: 0] -= u * xv
                if seen.insert(k2).inserted { heap.push(-k2) }
            }
        }
        return x
    }

    /// U⁻ᵀ·d, by step.
    func utSolve(_ d: SparseVector) -> SparseVector {
        var d = d
        var heap = MinHeap(d.keys)
        var seen = Set(d.keys)
        var out: SparseVector = [:]
        while !heap.isEmpty {
            let k = heap.pop()
            guard let v = d[k], abs(v) > Self.drop else { continue }
            let wk = v / udiag[k]
            out[k] = wk
            for (k2, u) in urow[k] {
                d[k2, default: 0] -= u * wk
                if seen.insert(k2).inserted { heap.push(k2) }
            }
        }
        return out
    }

    /// L⁻ᵀ·w: w by step, the result by row.
    func ltSolve(_ w: SparseVector) -> SparseVector {
        var w = w
        var heap = MinHeap(w.keys.map { -$0 })
        var seen = Set(w.keys)
        var y: SparseVector = [:]
        while !heap.isEmpty {
            let k = -heap.pop()
            guard let v = w[k], abs(v) > Self.drop else { continue }
            let r = rowOfStep[k]
            y[r] = v
            for (k2, l) in lrow[r] ?? [:] {
                w[k2, default: 0] -= l * v
                if seen.insert(k2).inserted { heap.push(-k2) }
            }
        }
        return y
    }

    // MARK: The eta file

    func etaFtran(_ x: SparseVector) -> SparseVector {
        guard !etas.isEmpty else { return x }
        var x = x
        var seen = Set<Int>()
        for s in x.keys { for j in etasByPivot[s] ?? [] { seen.insert(j) } }
        var heap = MinHeap(seen)
        while !heap.isEmpty {
            let j = heap.pop()
            let (p, d) = etas[j]
            guard let xp0 = x[p], xp0 != 0 else { continue }
            let xp = xp0 / d[p]!
            x[p] = xp
            for (i, di) in d where i != p {
                x[i, default: 0] -= di * xp
                for j2 in etasByPivot[i] ?? [] where j2 > j && seen.insert(j2).inserted { heap.push(j2) }
            }
        }
        return x.filter { abs($0.value) > Self.drop }
    }

    /// rᵀ·Eₜ⁻¹…E₁⁻¹, by step.
    func etaBtran(_ r: SparseVector) -> SparseVector {
        guard !etas.isEmpty else { return r }
        var r = r
        var seen = Set<Int>()
        for s in r.keys { for j in etasBySlot[s] ?? [] { seen.insert(j) } }
        var heap = MinHeap(seen.map { -$0 })
        while !heap.isEmpty {
            let j = -heap.pop()
            let (p, d) = etas[j]
            var acc = 0.0
            if d.count < r.count {
                for (i, di) in d where i != p { if let ri = r[i] { acc += ri * di } }
            } else {
                for (i, ri) in r where i != p { if let di = d[i] { acc += ri * di } }
            }
            let old = r[p] ?? 0
            let new = (old - acc) / d[p]!
            if new != old {
                r[p] = new
                for j2 in etasBySlot[p] ?? [] where j2 < j && seen.insert(j2).inserted { heap.push(-j2) }
            }
        }
        return r.filter { abs($0.value) > Self.drop }
    }

    /// B⁻¹·rhs: rhs by row, the result by step.
    func ftran(_ rhs: SparseVector) -> SparseVector { etaFtran(uSolve(lSolve(rhs))) }

    /// B⁻ᵀ·d: d by step, the result by row.
    func btran(_ d: SparseVector) -> SparseVector { ltSolve(utSolve(etaBtran(d))) }

    // MARK: Changes

    /// Column `entering` replaces the basic column of step `p`; `column` is B⁻¹·a (old basis).
    /// Returns the column that left.
    @discardableResult
    mutating func replace(step p: Int, with entering: Int, column: SparseVector) -> Int {
        let leaving = columnOfStep[p]
        stepOfColumn[leaving] = -1
        stepOfColumn[entering] = p
        columnOfStep[p] = entering
        var d = column.filter { abs($0.value) > Self.drop }
        d[p] = column[p]!
        let j = etas.count
        etas.append((p, d))
        etasByPivot[p, default: []].append(j)
        for s in d.keys { etasBySlot[s, default: []].append(j) }
        etaNonzeros += d.count
        return leaving
    }

    /// Borders the factorization with a new row and its basic column: L gains row `l`
    /// (rᵀ·B_LU⁻¹ by step), U gains column `v` (L⁻¹·u by step) and the diagonal `s`.
    mutating func extend(row: Int, column: Int, l: SparseVector, v: SparseVector, diagonal s: Double) {
        let m = rowOfStep.count
        rowOfStep.append(row)
        stepOfRow[row] = m
        columnOfStep.append(column)
        stepOfColumn[column] = m
        lcol.append([:])
        for (k, lk) in l { lcol[k][row] = lk }
        if !l.isEmpty { lrow[row] = l }
        ucol.append(v)
        urow.append([:])
        for (k, vk) in v { urow[k][m] = vk }
        udiag.append(s)
        luNonzeros += l.count + v.count + 1
    }

    /// Factors the basis anew (Markowitz order, threshold pivoting): `rows` are the live
    /// rows' coefficients on basic columns. Clears the eta file.
    mutating func factor(rows: [(row: Int, cells: SparseVector)], basic: [Int]) throws(SingularBasis) {
        var r: [Int: SparseVector] = [:]
        var c: [Int: SparseVector] = [:]
        r.reserveCapacity(rows.count)
        for j in basic { c[j] = [:] }
        for (i, cells) in rows {
            r[i] = cells
            for (j, a) in cells { c[j]![i] = a }
        }
        let pivots = Self.eliminate(rows: &r, columns: &c, rank: { _ in 0 })
        guard r.isEmpty else { throw SingularBasis() }
        let stepRow = pivots.map(\.row), stepCol = pivots.map(\.column), diag = pivots.map(\.pivot)
        let lc = pivots.map(\.multipliers), uRaw = pivots.map(\.u)
        for k in columnOfStep where k >= 0 && k < stepOfColumn.count { stepOfColumn[k] = -1 }
        rowOfStep = stepRow
        stepOfRow = [:]
        stepOfRow.reserveCapacity(stepRow.count)
        for (k, row) in stepRow.enumerated() { stepOfRow[row] = k }
        columnOfStep = stepCol
        for (k, col) in stepCol.enumerated() { stepOfColumn[col] = k }
        udiag = diag
        lcol = lc
        lrow = [:]
        for (k, l) in lc.enumerated() { for (r2, m) in l { lrow[r2, default: [:]][k] = m } }
        urow = uRaw.map { u in
            var out: SparseVector = [:]
            for (col, a) in u { out[stepOfColumn[col]] = a }
            return out
        }
        ucol = Array(repeating: [:], count: stepRow.count)
        for (k, u) in urow.enumerated() { for (k2, a) in u { ucol[k2][k] = a } }
        luNonzeros = stepRow.count + lc.reduce(0) { $0 + $1.count } + urow.reduce(0) { $0 + $1.count }
        etas = []; etasByPivot = [:]; etasBySlot = [:]; etaNonzeros = 0
    }

    /// Drops every step (before a factorization from a new basis).
    mutating func reset() {
        for col in columnOfStep { stepOfColumn[col] = -1 }
        rowOfStep = []; stepOfRow = [:]; columnOfStep = []
        lcol = []; lrow = [:]; urow = []; ucol = []; udiag = []
        etas = []; etasByPivot = [:]; etasBySlot = [:]; etaNonzeros = 0; luNonzeros = 0
    }
}

struct SingularBasis: Error {}

/// A min-heap of (count, id), smallest count first, then smallest id: Markowitz's order,
/// deterministic. Entries go stale as counts change; `top` skips those.
struct PairHeap {
    private var heap = MinHeap()
    private static let shift = 32

    mutating func push(_ count: Int, _ id: Int) { heap.push(count << Self.shift | id) }

    /// The smallest live entry: its stored count must equal `current(id)`.
    mutating func top(where current: (Int) -> Int?) -> (Int, Int)? {
        while !heap.isEmpty {
            let x = heap.pop()
            let count = x >> Self.shift, id = x & ((1 << Self.shift) - 1)
            if let now = current(id), now == count {
                heap.push(x)
                return (count, id)
            }
        }
        return nil
    }
}
