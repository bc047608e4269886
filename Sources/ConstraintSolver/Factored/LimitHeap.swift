/// The limits of a primal step (a basic's distance to zero along the entering column, its
/// column and step), nearest first (then by column): a binary min-heap. An entry goes stale
/// when its step's rate changes; the step says which is current (`FactoredSolver.longStep`).
struct LimitHeap {
    typealias Limit = (t: Double, column: Int, step: Int)
    private var items: [Limit] = []

    var first: Limit? { items.first }

    /// Floyd's construction: O(n), where n pushes cost O(n log n).
    init(_ limits: [Limit]) {
        items = limits
        for i in stride(from: items.count / 2 - 1, through: 0, by: -1) { siftDown(i) }
    }

    private static func less(_ a: Limit, _ b: Limit) -> Bool { a.t < b.t || (a.t == b.t && a.column < b.column) }

    mutating func push(_ x: Limit) {
        items.append(x)
        var i = items.count - 1
        while i > 0, case let parent = (i - 1) >> 1, Self.less(items[i], items[parent]) {
            items.swapAt(i, parent)
            i = parent
        }
    }

    mutating func pop() {
        let last = items.removeLast()
        guard !items.isEmpty else { return }
        items[0] = last
        siftDown(0)
    }

    private mutating func siftDown(_ start: Int) {
        var i = start
        while true {
            let (l, r) = (2 * i + 1, 2 * i + 2)
            var m = i
            if l < items.count && Self.less(items[l], items[m]) { m = l }
            if r < items.count && Self.less(items[r], items[m]) { m = r }
            if m == i { return }
            items.swapAt(i, m)
            i = m
        }
    }
}
