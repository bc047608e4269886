import CheckedNumbers

/// Deep trees of required ties written as stars (`TieStars`): made by a batch build, kept by
/// set-constants, written back as they came before anything that needs a tie in a row of its own.
extension FactoredSolver {
    /// The reason a conflict's certificate gives when it held a star's row: the rows were written
    /// back, and the basis is made again from them (`recover`, not counted as a recovery).
    static let tiesUnwound = "ties written back"

    /// The batch's ties (`handles`) that join a tree at least `TieStars.minimumDepth` deep from its most
    /// connected member, written as that tree's star around it. Before the column lists are made
    /// from the rows.
    func starTies(_ handles: [ConstraintHandle]) {
        guard writesTieStars else { return }
        var edges: [(tie: Int32, x: Int32, y: Int32)] = []
        for h in handles {
            guard let rec = records[h.raw], rec.isRequired, rec.relation == .equal, rows.count(rec.row) == 2 else { continue }
            let (p, q) = (rows[rec.row].first!, rows[rec.row].last!)
            guard p.value == -q.value, isUser[p.index], isUser[q.index], kind[p.index] == .free, kind[q.index] == .free else { continue }
            edges.append((h.raw, Int32(p.index), Int32(q.index)))
        }
        guard edges.count >= TieStars.minimumMembers else { return }
        // A spanning forest (union by size): a tie that closes a cycle stays as written.
        var up = [Int32](repeating: -1, count: kind.count)
        func find(_ j: Int32) -> Int32 {
            var r = j
            while up[Int(r)] >= 0 { r = up[Int(r)] }
            var k = j
            while up[Int(k)] >= 0 { (up[Int(k)], k) = (r, up[Int(k)]) }
            return r
        }
        var forest: [Int32] = [], ends: [Int32] = []
        for (i, e) in edges.enumerated() {
            let (a, b) = (find(e.x), find(e.y))
            guard a != b else { continue }
            let (big, small) = up[Int(a)] <= up[Int(b)] ? (a, b) : (b, a)
            up[Int(big)] += up[Int(small)]
            up[Int(small)] = big
            forest.append(Int32(i))
            ends.append(e.x)
            ends.append(e.y)
        }
        // Each member's ties in the forest (its neighbours through them).
        let adjacent = SparseLists<Int32>(grouping: forest.flatMap { [$0, $0] }, by: ends, lists: kind.count)
        var center: [Int32: Int32] = [:]  // by tree (its root in `up`): its most connected member
        for m in Set(ends) where -up[Int(find(m))] >= TieStars.minimumMembers {
            let root = find(m)
            guard let c = center[root] else {
                center[root] = m
                continue
            }
            let (dm, dc) = (adjacent.count(Int(m)), adjacent.count(Int(c)))
            if dm > dc || (dm == dc && m < c) { center[root] = m }
        }
        for anchor in center.values.sorted() { starTree(anchor, edges, adjacent) }
    }

    /// The tree around `anchor` as its star, if it is deep enough (breadth first from it).
    private func starTree(_ anchor: Int32, _ edges: [(tie: Int32, x: Int32, y: Int32)], _ adjacent: SparseLists<Int32>) {
        var order: [(member: Int32, edge: Int32, offset: Double, depth: Int)] = [(anchor, -1, 0, 0)], next = 0
        var seen: Set<Int32> = [anchor]
        while next < order.count {
            let (m, from, offset, depth) = order[next]
            next += 1
            for i in adjacent[Int(m)] where i != from {
                let e = edges[Int(i)]
                let other = e.x == m ? e.y : e.x
                guard seen.insert(other).inserted else { continue }
                let r = records[e.tie]!.row
                let d = rhs[r] / rows[r].first!.value  // x = y + d
                order.append((other, i, other == e.x ? offset + d : offset - d, depth + 1))
            }
        }
        guard order.last!.depth >= TieStars.minimumDepth else { return }
        for (m, i, offset, depth) in order.dropFirst() {
            let e = edges[Int(i)]
            let r = records[e.tie]!.row
            let a = rows[r].first!.value
            tieStars.ties[e.tie] = TieStars.Tie(x: e.x, y: e.y, a: a, d: rhs[r] / a, member: m)
            tieStars.above[m] = e.tie
            tieStars.below[e.x == m ? e.y : e.x, default: []].append(e.tie)
            tieStars.anchor[m] = anchor
            tieStars.offset[m] = offset
            tieStars.depth[m] = Int32(depth)
            rows.replace(r, with: [Entry(Int(m), 1), Entry(Int(anchor), -1)])
            rhs[r] = offset
        }
    }

    /// Every star's rows written back as their ties came (the column lists made again at their
    /// next use); the caller makes the basis again.
    func unwindTies() {
        guard !tieStars.isEmpty else { return }
        restoreAllDependents()
        for (h, t) in tieStars.ties {
            let r = records[h]!.row
            rows.replace(r, with: [Entry(Int(t.x), t.a), Entry(Int(t.y), -t.a)])
            rhs[r] = t.a * t.d
        }
        tieStars = TieStars()
        dropColumnLists()
        ambiguityCache = nil
    }

    /// Written back, with the basis made again for the rows as they came: before removing a
    /// tie of a star or changing its priority.
    func unwindTies(rebuilding: Void) throws(Unsatisfiable) {
        guard !tieStars.isEmpty else { return }
        unwindTies()
        let made = lastAdded
        defer { lastAdded = made }
        _ = try tryAdd(batch: ConstraintBatch())
    }

    /// A star's tie given constant k: `a·x − a·y + k == 0` moves the offset of every member at
    /// and below the end it hangs. The rows whose right-hand sides move, with their new constants.
    func starConstants(_ h: Int32, _ k: Double) -> [(row: Int, constant: Double)] {
        let t = tieStars.ties[h]!
        let moved = -k / t.a - t.d
        guard moved != 0 else { return [] }
        tieStars.ties[h]!.d += moved
        let shift = t.member == t.x ? moved : -moved
        return tieStars.subtree(t.member).map { m, tie in
            tieStars.offset[m]! += shift
            return (records[tie]!.row, -tieStars.offset[m]!)
        }
    }

    /// A star's tie as written (its row holds the member's row to the anchor).
    func starDefinition(_ h: Int32) -> ConstraintDefinition? {
        guard let t = tieStars.ties[h] else { return nil }
        let terms = [(Variable(symbol: Symbol(id: t.x, kind: .external)), t.a), (Variable(symbol: Symbol(id: t.y, kind: .external)), -t.a)]
        return ConstraintDefinition(LinearExpression(terms, constant: -t.a * t.d), .equal)
    }

    /// A certificate's required rows as written: its star rows replaced by the ties that carry
    /// their multipliers.
    func unstarred(_ support: [Int], _ rho: [Entry]) -> [Int] {
        guard !tieStars.isEmpty else { return support }
        var charges: [Int32: Double] = [:], out: [Int] = []
        for e in rho where abs(e.value) > 1e-9 {
            if let t = tieStars.ties[handleOfRow[e.index]] { charges[t.member] = e.value }
        }
        if charges.isEmpty { return support }
        for r in support where !tieStars.contains(handleOfRow[r]) { out.append(r) }
        for t in tieStars.ties(carrying: charges) { out.append(records[t]!.row) }
        return out
    }

    /// With each star row's handle, the ties of the path its row stands for.
    func withStarPaths(_ handles: [Int32]) -> [Int32] {
        guard !tieStars.isEmpty else { return handles }
        var out = Set(handles)
        for h in handles { if let t = tieStars.ties[h] { out.formUnion(tieStars.path(t.member)) } }
        return Array(out)
    }
}
