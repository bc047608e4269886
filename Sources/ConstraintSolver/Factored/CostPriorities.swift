import CheckedNumbers
/// Each column's cost level as a priority (0: no cost), stored as an id into the distinct
/// priorities the engine has seen: 4 bytes a column where a `Double` was 8 (a document
/// uses a handful of priorities; a 1,000-cell session has 50,000 columns).
struct CostPriorities {
    private var ids: [UInt32] = []
    private var values: [Double] = [0]
    private var idOf: [Double: UInt32] = [0: 0]
    /// The last priority interned: a batch writes runs of the same one.
    private var last: (value: Double, id: UInt32) = (0, 0)

    var count: Int { ids.count }

    @inline(__always) subscript(j: Int) -> Double {
        get { values[Int(ids[j])] }
        set { ids[j] = intern(newValue) }
    }

    mutating func append(_ priority: Double) { ids.append(intern(priority)) }

    /// Many at the end: interned into a local array, the columns' ids grown once.
    mutating func append(contentsOf priorities: [Double]) {
        var interned: [UInt32] = []
        interned.reserveCapacity(priorities.count)
        for p in priorities { interned.append(intern(p)) }
        ids.append(contentsOf: interned)
    }

    mutating func reserveCapacity(_ n: Int) { ids.reserveCapacity(n) }

    @inline(__always) private mutating func intern(_ p: Double) -> UInt32 {
        if p == 0 { return 0 }  // a new column's, every time
        if p == last.value { return last.id }
        return internSlowly(p)
    }

    private mutating func internSlowly(_ p: Double) -> UInt32 {
        // A few priorities are looked through (hashing one was 3.5 M instructions of the
        // `drag_n1000` workload's build); many, hashed.
        if values.count <= 16, let i = values.firstIndex(of: p) {
            last = (p, UInt32(i))
            return UInt32(i)
        }
        let id =
            idOf[p]
            ?? {
                values.append(p)
                idOf[p] = UInt32(values.count - 1)
                return UInt32(values.count - 1)
            }()
        last = (p, id)
        return id
    }
}
