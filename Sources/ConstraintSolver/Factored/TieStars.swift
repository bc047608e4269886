import CheckedNumbers

/// Required ties (`a·x − a·y + k == 0` of two free user columns) that a batch joins into deep
/// trees, held as stars: the row of the tie that hangs member u below its parent is written
/// `x_u − x_anchor == offset_u`, so every member is one row from its tree's anchor. The rows
/// combined are the ties' rows combined: the same solutions.
///
/// Why: with a chain of ties as written (`gᵢ.height == gᵢ₋₁.height`), the row of B⁻¹ for a
/// cell's own row runs down the chain to wherever the chain's value is decided, so a dual
/// step repairing cell i read i rows: n²/2 for a build that repairs each cell once
/// (`found15-box-heights-chained-fixed-cells`, 1,000 cells: a dual step a cell, ρ of 500
/// entries on average).
///
/// A star's rows stand for paths of ties. A set-constant keeps them (a tie's constant moves the
/// offsets of the members below it: their rows, each a view that moves); whatever needs one tie
/// in a row of its own (removing a tie or changing its priority, a conflict's certificate)
/// first writes every row back as written (`FactoredSolver.unwindTies`).
struct TieStars {
    struct Tie {
        /// The tie as written: `a·x − a·y == a·d`, x = y + d.
        var x: Int32, y: Int32, a: Double, d: Double
        /// The end hung below the other: the member whose star row is the tie's row.
        var member: Int32
        /// The next tie hung below the same member as this one (-1: none).
        var beside: Int32 = -1
        /// The end it hangs from.
        var parent: Int32 { member == x ? y : x }
    }
    struct Member {
        /// The tie above it (-1: the anchor) and the first below it (-1: none).
        var above: Int32 = -1, below: Int32 = -1
        var depth: Int32 = 0
        /// x_member = x_anchor + offset.
        var offset = 0.0
    }
    /// By handle, and by member (column): one record each (a dictionary a field, and an
    /// array a member's children, were 3,700 instructions a member of a 1,000-box chain).
    private(set) var ties: [Int32: Tie] = [:]
    var members: [Int32: Member] = [:]

    /// Trees this deep from their most connected member, of this many members, are made stars:
    /// a shallower tree's rows are short paths already, and stay as written.
    static let minimumDepth = 8
    static let minimumMembers = 16

    var isEmpty: Bool { ties.isEmpty }
    func contains(_ h: Int32) -> Bool { !ties.isEmpty && ties[h] != nil }
    subscript(tie h: Int32) -> Tie? { ties.isEmpty ? nil : ties[h] }

    mutating func reserve(_ n: Int) {
        ties.reserveCapacity(ties.count + n)
        members.reserveCapacity(members.count + n + 1)
    }

    /// `tie` hangs its member below `tie.parent` (already added, or the anchor).
    mutating func hang(_ h: Int32, _ tie: Tie, depth: Int, offset: Double) {
        var t = tie, parent = members[tie.parent] ?? Member()
        (t.beside, parent.below) = (parent.below, h)
        members[tie.parent] = parent
        ties[h] = t
        members[tie.member] = Member(above: h, depth: Int32(depth), offset: offset)
    }

    /// Tie h's constant as written, as `d` (x = y + d).
    mutating func setD(_ h: Int32, _ d: Double) { ties[h]!.d = d }

    /// The members at and below `member`, each with the tie above it.
    func subtree(_ member: Int32) -> [(member: Int32, tie: Int32)] {
        var out: [(member: Int32, tie: Int32)] = [(member, members[member]!.above)], next = 0
        while next < out.count {
            var t = members[out[next].member]!.below
            while t >= 0 {
                let tie = ties[t]!
                out.append((tie.member, t))
                t = tie.beside
            }
            next += 1
        }
        return out
    }

    /// The ties whose multipliers are not 0 in a combination of star rows (by member): a tie
    /// carries what the rows at and below its member carry, summed, so the charges climb from
    /// the deepest member until they cancel (as far as the conflict's ties reach).
    func ties(carrying charges: [Int32: Double]) -> [Int32] {
        if charges.count == 2 { return ties(carrying: charges.first!, charges.dropFirst().first!) }
        var charge = charges, out: [Int32] = []
        let key = { (m: Int32) in (Int(Int32.max - members[m]!.depth) << 32) | Int(m) }
        var heap = MinHeap(charge.keys.map(key))
        while let k = heap.first {
            heap.pop()
            let m = Int32(truncatingIfNeeded: k)
            guard let c = charge.removeValue(forKey: m), abs(c) > 1e-9, case let t = members[m]!.above, t >= 0 else { continue }
            out.append(t)
            let parent = ties[t]!.parent
            guard members[parent]!.above >= 0 else { continue }
            if charge[parent] == nil { heap.push(key(parent)) }
            charge[parent, default: 0] += c
        }
        return out
    }

    /// Two charges (most certificates: a row at each end of a chain), walked up side by side
    /// until they meet, then together while their sum is not 0: no heap and no charge table (a
    /// conflict a hidden view along a chain of 400 widths spent 22% of its layout in those).
    private func ties(carrying a: (key: Int32, value: Double), _ b: (key: Int32, value: Double)) -> [Int32] {
        var out: [Int32] = [], (u, cu, v, cv) = (a.key, a.value, b.key, b.value)
        var (mu, mv) = (members[u]!, members[v]!)
        while u != v && (mu.above >= 0 || mv.above >= 0) {
            if mv.above >= 0 && (mu.above < 0 || mv.depth > mu.depth) { (u, cu, mu, v, cv, mv) = (v, cv, mv, u, cu, mu) }
            if abs(cu) > 1e-9 { out.append(mu.above) }
            u = ties[mu.above]!.parent
            mu = members[u]!
        }
        guard u == v else { return out }
        let c = cu + cv
        while abs(c) > 1e-9 && mu.above >= 0 {
            out.append(mu.above)
            u = ties[mu.above]!.parent
            mu = members[u]!
        }
        return out
    }

    /// The ties from `member` up to its anchor.
    func path(_ member: Int32) -> [Int32] {
        var out: [Int32] = [], m = member
        while let t = members[m]?.above, t >= 0 {
            out.append(t)
            m = ties[t]!.parent
        }
        return out
    }
}
