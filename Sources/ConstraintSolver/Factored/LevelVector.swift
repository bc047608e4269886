/// One level's duals (by row) or reduced costs (by column), each entry a default where
/// unset (0 for a dual, the column's cost for a reduced cost): dense, grown on write, NaN
/// marking an unset entry. Hashed instead, the two levels of the 1,000-cell feed took 49
/// bytes a view of a session rather than 304, but the pivots of `cells_n1000`'s resizes
/// ran 15–20% slower (`layoutd-bench`, alternated; with a bit an id in front, too).
struct LevelVector {
    private var values: [Double] = []

    subscript(i: Int) -> Double {
        get { self[i, default: 0] }
        set { self[i, default: 0] = newValue }
    }

    /// Entry i, `absent` where unset; writing `absent` to an unset entry stores nothing.
    subscript(i: Int, default absent: Double) -> Double {
        get {
            guard i < values.count else { return absent }
            let v = values[i]
            return v.isNaN ? absent : v
        }
        set {
            if i >= values.count {
                if newValue == absent { return }
                values.append(contentsOf: repeatElement(.nan, count: i + 1 - values.count))
            } else if values[i].isNaN && newValue == absent {
                return
            }
            values[i] = newValue
        }
    }

    /// Adds `delta` to entry i (`absent` where unset).
    mutating func add(_ i: Int, _ delta: Double, default absent: Double = 0) {
        self[i, default: absent] += delta
    }
}
