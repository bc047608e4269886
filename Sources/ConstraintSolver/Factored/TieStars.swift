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
    }
    /// By handle.
    var ties: [Int32: Tie] = [:]
    /// By member: the tie above it (a handle), its anchor, offset and depth, the ties below it.
    var above: [Int32: Int32] = [:]
    var anchor: [Int32: Int32] = [:]
    var offset: [Int32: Double] = [:]
    var depth: [Int32: Int32] = [:]
    var below: [Int32: [Int32]] = [:]

    /// Trees this deep from their most connected member, of this many members, are made stars:
    /// a shallower tree's rows are short paths already, and stay as written.
    static let minimumDepth = 8
    static let minimumMembers = 16

    var isEmpty: Bool { ties.isEmpty }
    func contains(_ h: Int32) -> Bool { !ties.isEmpty && ties[h] != nil }

    /// The members at and below `member`, each with the tie above it.
    func subtree(_ member: Int32) -> [(member: Int32, tie: Int32)] {
        var out: [(member: Int32, tie: Int32)] = [(member, above[member]!)], next = 0
        while next < out.count {
            for t in below[out[next].member] ?? [] { out.append((ties[t]!.member, t)) }
            next += 1
        }
        return out
    }

    /// The ties whose multipliers are not 0 in a combination of star rows (by member): a tie
    /// carries what the rows at and below its member carry, summed, so the charges climb from
    /// the deepest member until they cancel (as far as the conflict's ties reach).
    func ties(carrying charges: [Int32: Double]) -> [Int32] {
        var charge = charges, out: [Int32] = []
        let key = { (m: Int32) in (Int(Int32.max - depth[m]!) << 32) | Int(m) }
        var heap = MinHeap(charge.keys.map(key))
        while let k = heap.first {
            heap.pop()
            let m = Int32(truncatingIfNeeded: k)
            guard let c = charge.removeValue(forKey: m), abs(c) > 1e-9, let t = above[m] else { continue }
            out.append(t)
            let tie = ties[t]!
            let parent = tie.member == tie.x ? tie.y : tie.x
            guard above[parent] != nil else { continue }
            if charge[parent] == nil { heap.push(key(parent)) }
            charge[parent, default: 0] += c
        }
        return out
    }

    /// The ties from `member` up to its anchor.
    func path(_ member: Int32) -> [Int32] {
        var out: [Int32] = [], m = member
        while let t = above[m] {
            out.append(t)
            let tie = ties[t]!
            m = tie.member == tie.x ? tie.y : tie.x
        }
        return out
    }
}
