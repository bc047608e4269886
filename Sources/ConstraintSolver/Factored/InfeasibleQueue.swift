/// The basics the dual simplex must repair, yielding the most infeasible (largest |value|,
/// the smallest id among equals): the textbook dual pricing. The smallest id, which this
/// replaced past 32 members, took one step per row when n rows are at odds over one
/// variable (`w == 40`, `w >= 41+k`), each step moving all n: n² where the worst row's
/// one step repairs them all. A lazy max-heap: each write of an infeasible value pushes it
/// at its key, and an entry whose column left or whose value moved since is dropped when it
/// surfaces (a fresher one is in the heap). Compacted when stale entries outnumber members.
struct InfeasibleQueue {
    private(set) var members: Set<Int> = []
    private var heap: [(key: Double, j: Int)] = []

    var isEmpty: Bool { members.isEmpty }
    var count: Int { members.count }

    /// j is infeasible by `by` (|value|) now.
    mutating func update(_ j: Int, by key: Double) {
        members.insert(j)
        push((key, j))
    }

    mutating func remove(_ j: Int) {
        guard members.remove(j) != nil else { return }
        if members.isEmpty { heap.removeAll(keepingCapacity: true) }
    }

    mutating func removeAll() {
        members.removeAll(keepingCapacity: true)
        heap.removeAll(keepingCapacity: true)
    }

    /// The most infeasible member; `key(j)` is its infeasibility now.
    mutating func most(_ key: (Int) -> Double) -> Int? {
        if heap.count > 2 * members.count + 64 {
            heap = members.map { (key($0), $0) }
            for i in stride(from: heap.count / 2 - 1, through: 0, by: -1) { siftDown(i) }
        }
        while let top = heap.first {
            if members.contains(top.j) && key(top.j) == top.key { return top.j }
            pop()
        }
        return nil
    }

    private static func above(_ a: (key: Double, j: Int), _ b: (key: Double, j: Int)) -> Bool {
        a.key != b.key ? a.key > b.key : a.j < b.j
    }

    private mutating func push(_ x: (key: Double, j: Int)) {
        heap.append(x)
        var i = heap.count - 1
        while i > 0 {
            let parent = (i - 1) >> 1
            if !Self.above(x, heap[parent]) { break }
            heap[i] = heap[parent]
            i = parent
        }
        heap[i] = x
    }

    private mutating func pop() {
        let last = heap.removeLast()
        guard !heap.isEmpty else { return }
        heap[0] = last
        siftDown(0)
    }

    private mutating func siftDown(_ start: Int) {
        let x = heap[start]
        var i = start
        while true {
            let l = 2 * i + 1
            if l >= heap.count { break }
            let c = l + 1 < heap.count && Self.above(heap[l + 1], heap[l]) ? l + 1 : l
            if !Self.above(heap[c], x) { break }
            heap[i] = heap[c]
            i = c
        }
        heap[i] = x
    }
}
