/// A dense two-phase simplex with Bland's rule, for small systems only: the
/// independent reference the incremental solver is checked against.
struct DenseLP {
    /// Minimise c·z subject to rows (a·z == b) with z >= 0. Returns the optimum or nil if infeasible.
    static func minimize(_ a: [[Double]], _ b: [Double], _ c: [Double]) -> (value: Double, z: [Double])? {
        let m = a.count, n = c.count
        // Tableau with artificials: columns 0..<n real, n..<n+m artificial.
        var t = [[Double]](repeating: [Double](repeating: 0, count: n + m + 1), count: m)
        var basis = [Int](repeating: 0, count: m)
        for i in 0..<m {
            let s: Double = b[i] < 0 ? -1 : 1
            for j in 0..<n { t[i][j] = a[i][j] * s }
            t[i][n + i] = 1
            t[i][n + m] = b[i] * s
            basis[i] = n + i
        }
        func pivot(_ r: Int, _ col: Int) {
            let p = t[r][col]
            for j in 0...(n + m) { t[r][j] /= p }
            for i in 0..<m where i != r && t[i][col] != 0 {
                let f = t[i][col]
                for j in 0...(n + m) { t[i][j] -= f * t[r][j] }
            }
            basis[r] = col
        }
        func run(_ cost: [Double], allowed: Int) -> Bool {
            while true {
                // Reduced costs; Bland: the lowest index with a negative one enters.
                var entering = -1
                for j in 0..<allowed where !basis.contains(j) {
                    var rc = cost[j]
                    for i in 0..<m { rc -= cost[basis[i]] * t[i][j] }
                    if rc < -1e-9 { entering = j; break }
                }
                if entering < 0 { return true }
                var leave = -1
                var best = Double.infinity
                for i in 0..<m where t[i][entering] > 1e-9 {
                    let r = t[i][n + m] / t[i][entering]
                    if r < best - 1e-12 || (abs(r - best) <= 1e-12 && basis[i] < basis[leave]) { best = r; leave = i }
                }
                if leave < 0 { return false }  // unbounded
                pivot(leave, entering)
            }
        }
        var phase1 = [Double](repeating: 0, count: n + m)
        for i in 0..<m { phase1[n + i] = 1 }
        _ = run(phase1, allowed: n + m)
        var infeas = 0.0
        for i in 0..<m where basis[i] >= n { infeas += t[i][n + m] }
        if infeas > 1e-7 { return nil }
        // Drive zero-level artificials out of the basis where possible.
        for i in 0..<m where basis[i] >= n {
            if let j = (0..<n).first(where: { abs(t[i][$0]) > 1e-9 }) { pivot(i, j) }
        }
        var cost = c + [Double](repeating: 0, count: m)
        for i in 0..<m where basis[i] >= n { cost[basis[i]] = 0 }
        guard run(cost, allowed: n) else { return nil }
        var z = [Double](repeating: 0, count: n)
        for i in 0..<m where basis[i] < n { z[basis[i]] = t[i][n + m] }
        return (zip(c, z).map(*).reduce(0, +), z)
    }
}

/// A small system in the solver's own terms, solved lexicographically by the reference:
/// level by level, each level's optimum fixed before the next.
struct SmallSystem {
    struct C { var terms: [(Int, Double)]; var constant: Double; var relation: String; var priority: Double }
    var variables: Int
    var constraints: [C]

    /// The optimal error sum of each optional level, highest first; nil if the required part is infeasible.
    func referenceLevels() -> [Double]? { optimalFace()?.levels }

    /// The lexicographic optimal face: the system's rows in z ≥ 0 (x⁺, x⁻ per variable, then
    /// slack, e⁺, e⁻ per constraint), each level's error sum fixed at its optimum in turn.
    func optimalFace() -> (rows: [[Double]], rhs: [Double], levels: [Double])? {
        let levels = Array(Set(constraints.filter { $0.priority < 1000 }.map(\.priority))).sorted(by: >)
        let nx = 2 * variables
        let perC = 3
        let n = nx + perC * constraints.count
        var rows: [[Double]] = []
        var rhs: [Double] = []
        for (k, c) in constraints.enumerated() {
            var r = [Double](repeating: 0, count: n)
            for (v, a) in c.terms { r[2 * v] += a; r[2 * v + 1] -= a }
            let base = nx + perC * k
            if c.relation == "<=" { r[base] = 1 } else if c.relation == ">=" { r[base] = -1 }
            if c.priority < 1000 {
                // expr + slack - e+ + e- == -constant; errors only in the violating direction.
                if c.relation != ">=" { r[base + 1] = -1 }
                if c.relation != "<=" { r[base + 2] = 1 }
            }
            rows.append(r)
            rhs.append(-c.constant)
        }
        guard DenseLP.minimize(rows, rhs, [Double](repeating: 0, count: n)) != nil else { return nil }
        var results: [Double] = []
        for level in levels {
            var cost = [Double](repeating: 0, count: rows[0].count)
            for (k, c) in constraints.enumerated() where c.priority == level {
                cost[nx + perC * k + 1] = 1
                cost[nx + perC * k + 2] = 1
            }
            guard let (v, _) = DenseLP.minimize(rows, rhs, cost) else { return nil }
            results.append(v)
            // Fix this level: Σ errors + s == v + tolerance.
            var r = cost
            r.append(1)
            for i in rows.indices { rows[i].append(0) }
            rows.append(r)
            rhs.append(v + 1e-9)
        }
        return (rows, rhs, results)
    }
}
