import CheckedNumbers

/// Deep trees of required ties written as stars (`TieStars`): made by a batch build, kept by
/// set-constants, written back as they came before anything that needs a tie in a row of its own.
extension FactoredSolver {
    /// The reason a conflict's certificate gives when it held a star's row: the rows were written
    /// back, and the basis is made again from them (`recover`, not counted as a recovery).
    static let tiesUnwound = "ties written back"

    /// The batch's ties that join a tree at least `TieStars.minimumDepth` deep from its most
    /// connected member, written as that tree's star around it. Before the column lists are made
    /// from the rows. Read from the batch's arrays and marked in arrays by column: a feed's ties
    /// (`c.width == root.width`, `v.top == c.top + 12`) are a few a cell, and the search costs
    /// 1.2% of a 1,000-cell feed's one-shot layout (2.2% with a record read a constraint and
    /// hashed sets of members).
    func starTies(_ batch: ConstraintBatch, _ handles: [ConstraintHandle]) {
        guard writesTieStars, handles.count == batch.count else { return }
        var edges: [(tie: Int32, x: Int32, y: Int32)] = []
        var start = 0
        for (i, row) in batch.rows.enumerated() {
            defer { start = Int(row.end) }
            guard Int(row.end) - start == 2, row.relation == .equal, row.priority >= Priority.required else { continue }
            let (p, q) = (batch.termStore[start], batch.termStore[start + 1])
            guard p.coefficient != 0, p.coefficient == -q.coefficient, p.variable != q.variable else { continue }
            let (x, y) = (p.variable.symbol.index, q.variable.symbol.index)
            guard isUser[x], isUser[y], kind[x] == .free, kind[y] == .free else { continue }
            edges.append((handles[i].raw, Int32(x), Int32(y)))
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
        forest.reserveCapacity(2 * edges.count)
        ends.reserveCapacity(2 * edges.count)
        for (i, e) in edges.enumerated() {
            let (a, b) = (find(e.x), find(e.y))
            guard a != b else { continue }
            let (big, small) = up[Int(a)] <= up[Int(b)] ? (a, b) : (b, a)
            up[Int(big)] += up[Int(small)]
            up[Int(small)] = big
            forest.append(Int32(i))
            forest.append(Int32(i))
            ends.append(e.x)
            ends.append(e.y)
        }
        // Each member's ties in the forest (its neighbours through them).
        let adjacent = SparseLists<Int32>(grouping: forest, by: ends, lists: kind.count)
        // By tree (its root in `up`): its most connected member, ties to the smaller id.
        var center = [Int32](repeating: -1, count: kind.count), anchors: [Int32] = []
        for m in ends where -up[Int(find(m))] >= TieStars.minimumMembers {
            let root = Int(find(m)), c = center[root]
            if c < 0 { anchors.append(Int32(root)) }
            let (dm, dc) = (adjacent.count(Int(m)), c < 0 ? -1 : adjacent.count(Int(c)))
            if dm > dc || (dm == dc && m < c) { center[root] = m }
        }
        guard !anchors.isEmpty else { return }
        var seen = BitVector()
        seen.append(false, count: kind.count)
        for anchor in anchors.map({ center[Int($0)] }).sorted() { starTree(anchor, edges, adjacent, &seen) }
    }

    /// The tree around `anchor` as its star, if it is deep enough (breadth first from it).
    private func starTree(_ anchor: Int32, _ edges: [(tie: Int32, x: Int32, y: Int32)], _ adjacent: SparseLists<Int32>, _ seen: inout BitVector) {
        var order: [(member: Int32, edge: Int32, offset: Double, depth: Int)] = [(anchor, -1, 0, 0)], next = 0
        seen[Int(anchor)] = true
        while next < order.count {
            let (m, from, offset, depth) = order[next]
            next += 1
            for i in adjacent[Int(m)] where i != from {
                let e = edges[Int(i)]
                let other = e.x == m ? e.y : e.x
                guard !seen[Int(other)] else { continue }
                seen[Int(other)] = true
                let r = records[e.tie]!.row
                let d = rhs[r] / rows[r].first!.value  // x = y + d
                order.append((other, i, other == e.x ? offset + d : offset - d, depth + 1))
            }
        }
        guard order.last!.depth >= TieStars.minimumDepth else { return }
        tieStars.reserve(order.count)
        for (m, i, offset, depth) in order.dropFirst() {
            let e = edges[Int(i)]
            let r = records[e.tie]!.row
            let a = rows[r].first!.value
            tieStars.hang(e.tie, TieStars.Tie(x: e.x, y: e.y, a: a, d: rhs[r] / a, member: m), depth: depth, offset: offset)
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
    func unwindTiesAndRebuild() throws(Unsatisfiable) {
        guard !tieStars.isEmpty else { return }
        unwindTies()
        let made = lastAdded
        defer { lastAdded = made }
        _ = try tryAdd(batch: ConstraintBatch())
    }

    /// A star's tie given constant k: `a·x − a·y + k == 0` moves the offset of every member at
    /// and below the end it hangs. The rows whose right-hand sides move, with their new constants.
    func starConstants(_ h: Int32, _ k: Double) -> [(row: Int, constant: Double)] {
        let t = tieStars[tie: h]!
        let moved = -k / t.a - t.d
        guard moved != 0 else { return [] }
        tieStars.setD(h, t.d + moved)
        let shift = t.member == t.x ? moved : -moved
        return tieStars.subtree(t.member).map { m, tie in
            tieStars.members[m]!.offset += shift
            return (records[tie]!.row, -tieStars.members[m]!.offset)
        }
    }

    /// A star's tie as written (its row holds the member's row to the anchor).
    func starDefinition(_ h: Int32) -> ConstraintDefinition? {
        guard let t = tieStars[tie: h] else { return nil }
        let terms = [(Variable(symbol: Symbol(id: t.x, kind: .external)), t.a), (Variable(symbol: Symbol(id: t.y, kind: .external)), -t.a)]
        return ConstraintDefinition(LinearExpression(terms, constant: -t.a * t.d), .equal)
    }

    /// A certificate's required rows as written: its star rows replaced by the ties that carry
    /// their multipliers.
    func unstarred(_ support: [Int], _ rho: [Entry]) -> [Int] {
        guard !tieStars.isEmpty else { return support }
        var charges: [Int32: Double] = [:], out: [Int] = []
        for e in rho where abs(e.value) > 1e-9 {
            if let t = tieStars[tie: handleOfRow[e.index]] { charges[t.member] = e.value }
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
        for h in handles { if let t = tieStars[tie: h] { out.formUnion(tieStars.path(t.member)) } }
        return Array(out)
    }
}
