import TestSupport
import XCTest

@testable import ConstraintSolver

/// The factored basis against dense arithmetic after many basis changes, most of them long
/// columns (a hub's: every row), so that the eta file's transposed solves run through etas
/// reached by rows (`etaRows`), and the chained lists they are kept in against arrays.
final class BasisFactorTests: XCTestCase {
    func testSolvesThroughLongEtasMatchDenseArithmetic() throws {
        var rng = LCG(state: 20261130)
        let m = 40, extra = 60
        // Column j of the matrix by row: the basic columns diagonal-dominant, the others long.
        var a = [[Double]](repeating: [Double](repeating: 0, count: m + extra), count: m)
        for i in 0..<m {
            a[i][i] = 4 + Double(Int.random(in: 0...4, using: &rng))
            for _ in 0..<2 { a[i][Int.random(in: 0..<m, using: &rng)] += Double(Int.random(in: -1...1, using: &rng)) }
        }
        for j in m..<(m + extra) {
            for i in 0..<m where Int.random(in: 0..<4, using: &rng) > 0 { a[i][j] = Double(Int.random(in: -3...3, using: &rng)) }
        }
        var rows = SparseLists<Entry>()
        for i in 0..<m { rows.appendList((0..<m).filter { a[i][$0] != 0 }.map { Entry($0, a[i][$0]) }) }
        let basis = BasisFactor()
        basis.growColumns(to: m + extra)
        basis.growRows(to: m)
        try basis.factor(rows: rows, live: m, columns: m + extra)
        var w = WorkVector(), check = WorkVector()
        var longEtas = 0
        for change in 0..<60 {
            let q = m + change % extra
            guard basis.stepOfColumn[q] < 0 else { continue }
            basis.ftran((0..<m).filter { a[$0][q] != 0 }.map { Entry($0, a[$0][q]) }, into: &w)
            guard let p = w.pattern.max(by: { abs(w[$0]) < abs(w[$1]) }), abs(w[p]) > 0.5 else { continue }
            if w.pattern.count > m / 2 { longEtas += 1 }
            basis.replace(step: p, with: q, column: w)
            // B·x = e_r for a random row, and yᵀ·B = e_kᵀ for a random step.
            let r = Int.random(in: 0..<m, using: &rng)
            basis.ftran(CollectionOfOne(Entry(r, 1)), into: &check)
            for i in 0..<m {
                let sum = (0..<m).reduce(0.0) { $0 + a[i][basis.columnOfStep[$1]] * check[$1] }
                XCTAssertEqual(sum, i == r ? 1 : 0, accuracy: 1e-8, "ftran after change \(change), row \(i)")
            }
            let k = Int.random(in: 0..<m, using: &rng)
            basis.btran(CollectionOfOne(Entry(k, 1)), into: &check)
            for s in 0..<m {
                let column = basis.columnOfStep[s]
                let sum = (0..<m).reduce(0.0) { $0 + check[$1] * a[basis.rowOfStep[$1]][column] }
                XCTAssertEqual(sum, s == k ? 1 : 0, accuracy: 1e-8, "btran after change \(change), step \(s)")
            }
        }
        XCTAssertGreaterThan(longEtas, 10, "the changes must leave long etas for the transposed solves to cross")
    }

    /// Two long columns entering at one step in turn, thousands of times: the eta file is
    /// compressed every few changes and no factorization comes. The rows' lists of the etas it
    /// replaced were kept until one did (a 4,000-cell build past 5 GB); they stay within a few
    /// files' size, and the solves stay right.
    func testAnEtaFileCompressedThousandsOfTimesKeepsItsRowsBounded() throws {
        let m = 200
        // Columns 0..<m the identity, m and m + 1 long: every row, the first row's entry largest.
        func column(_ j: Int) -> [Entry] { j < m ? [Entry(j, 1)] : (0..<m).map { Entry($0, $0 == 0 ? 4 : Double((j + $0) % 3) - 1) } }
        var rows = SparseLists<Entry>()
        for i in 0..<m { rows.appendList([Entry(i, 1)]) }
        let basis = BasisFactor()
        basis.growColumns(to: m + 2)
        basis.growRows(to: m)
        try basis.factor(rows: rows, live: m, columns: m + 2)
        var w = WorkVector()
        for change in 0..<3_000 {
            let q = m + change % 2
            basis.ftran(column(q), into: &w)
            basis.replace(step: 0, with: q, column: w)
        }
        XCTAssertLessThanOrEqual(basis.etaRowEntries, 4 * m + 4096 + 32 * m)
        // B·x = a_j for a basic column j is e at its step: the last to enter (m + 1) at step 0,
        // and column 5 at its own.
        XCTAssertEqual(basis.columnOfStep[0], m + 1)
        for (j, step) in [(m + 1, 0), (5, 5)] {
            basis.ftran(column(j), into: &w)
            for k in 0..<m { XCTAssertEqual(w[k], k == step ? 1 : 0, accuracy: 1e-9, "column \(j), step \(k)") }
        }
    }

    func testChainedListsMatchArrays() {
        var rng = LCG(state: 7)
        var lists = ChainedLists()
        var reference = [[Entry]](repeating: [], count: 50)
        for step in 0..<5_000 {
            let l = Int.random(in: 0..<50, using: &rng)
            if Int.random(in: 0..<20, using: &rng) == 0 {
                lists.clear(l)
                reference[l] = []
            } else {
                lists.append(Entry(step, Double(l)), to: l)
                reference[l].append(Entry(step, Double(l)))
            }
        }
        for l in 0..<60 {
            var got: [Entry] = []
            lists.forEach(in: l) { got.append($0) }
            XCTAssertEqual(got, (l < 50 ? reference[l] : []).reversed(), "list \(l), newest first")
        }
        lists.removeAll()
        var none = 0
        lists.forEach(in: 3) { _ in none += 1 }
        XCTAssertEqual(none, 0)
    }
}
