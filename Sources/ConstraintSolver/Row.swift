/// One tableau row, `basic = constant + Σ coefficient·symbol`, kept sorted by symbol
/// so merges are linear and iteration is deterministic.
struct Row {
    struct Cell { var symbol: Symbol; var coefficient: Double }

    var constant: Double
    var cells: [Cell]

    init(constant: Double = 0, cells: [Cell] = []) {
        self.constant = constant
        self.cells = cells
    }

    func position(of s: Symbol) -> Int? {
        var lo = 0, hi = cells.count
        while lo < hi {
            let mid = (lo + hi) >> 1
            let m = cells[mid].symbol.raw
            if m == s.raw { return mid }
            if m < s.raw { lo = mid + 1 } else { hi = mid }
        }
        return nil
    }

    func coefficient(for s: Symbol) -> Double {
        guard let i = position(of: s) else { return 0 }
        return cells[i].coefficient
    }

    /// Adds `c·s`, dropping the cell when it cancels. Returns +1 if the symbol was
    /// added, -1 if removed, 0 otherwise (callers keep the column index in step).
    @discardableResult
    mutating func add(_ s: Symbol, _ c: Double) -> Int {
        var lo = 0, hi = cells.count
        while lo < hi {
            let mid = (lo + hi) >> 1
            if cells[mid].symbol.raw < s.raw { lo = mid + 1 } else { hi = mid }
        }
        if lo < cells.count && cells[lo].symbol == s {
            let v = cells[lo].coefficient + c
            if nearZero(v) { cells.remove(at: lo); return -1 }
            cells[lo].coefficient = v
            return 0
        }
        if nearZero(c) { return 0 }
        cells.insert(Cell(symbol: s, coefficient: c), at: lo)
        return 1
    }

    mutating func remove(_ s: Symbol) -> Double {
        guard let i = position(of: s) else { return 0 }
        return cells.remove(at: i).coefficient
    }

    mutating func negate() {
        constant = -constant
        for i in cells.indices { cells[i].coefficient = -cells[i].coefficient }
    }

    /// Rewrites `0 = self` (or `old = self` when `old` is a symbol of the row) so that
    /// `subject` is on the left: the row then reads `subject = …`.
    mutating func solve(for subject: Symbol, replacing old: Symbol?) {
        let c = remove(subject)
        if let old { _ = add(old, -1) }
        let f = -1.0 / c
        constant *= f
        for i in cells.indices { cells[i].coefficient *= f }
    }

    /// self += other·k, reporting symbols that enter or leave the row.
    mutating func add(_ other: Row, times k: Double, entered: inout [Symbol], left: inout [Symbol]) {
        constant += other.constant * k
        if other.cells.count == 1 {
            let cell = other.cells[0]
            switch add(cell.symbol, cell.coefficient * k) {
            case 1: entered.append(cell.symbol)
            case -1: left.append(cell.symbol)
            default: break
            }
            return
        }
        var merged: [Cell] = []
        merged.reserveCapacity(cells.count + other.cells.count)
        var i = 0, j = 0
        while i < cells.count || j < other.cells.count {
            if j == other.cells.count || (i < cells.count && cells[i].symbol.raw < other.cells[j].symbol.raw) {
                merged.append(cells[i]); i += 1
            } else if i == cells.count || other.cells[j].symbol.raw < cells[i].symbol.raw {
                let c = other.cells[j].coefficient * k
                if !nearZero(c) { merged.append(Cell(symbol: other.cells[j].symbol, coefficient: c)); entered.append(other.cells[j].symbol) }
                j += 1
            } else {
                let v = cells[i].coefficient + other.cells[j].coefficient * k
                if nearZero(v) { left.append(cells[i].symbol) } else { merged.append(Cell(symbol: cells[i].symbol, coefficient: v)) }
                i += 1; j += 1
            }
        }
        cells = merged
    }
}

@inline(__always) func nearZero(_ v: Double) -> Bool { v < 1e-9 && v > -1e-9 }
