/// A binary min-heap of integers: the order in which sparse triangular solves visit the
/// steps their right-hand side reaches (Gilbert–Peierls with a heap instead of a DFS).
struct MinHeap {
    private var items: [Int] = []

    init() {}
    /// Floyd's heap construction: O(n), where n pushes cost O(n log n).
    init(_ xs: [Int]) {
        items = xs
        items.withUnsafeMutableBufferPointer { items in
            for i in stride(from: items.count / 2 - 1, through: 0, by: -1) { Self.siftDown(items, from: i, items[i]) }
        }
    }

    var isEmpty: Bool { items.isEmpty }
    var count: Int { items.count }
    /// The smallest item, left in place.
    var first: Int? { items.first }

    mutating func removeAll() { items.removeAll(keepingCapacity: true) }

    /// Every item, in no order.
    func forEach(_ body: (Int) -> Void) { for x in items { body(x) } }

    /// Push and pop work on the storage's buffer: one uniqueness check a call, where each
    /// element write checked it again (the heap's pops and pushes were 4% of a 1,000-cell
    /// nested screen's build, most of it those checks).
    mutating func push(_ x: Int) {
        items.append(x)
        items.withUnsafeMutableBufferPointer { items in
            var i = items.count - 1
            while i > 0 {
                let parent = (i - 1) >> 1
                if items[parent] <= x { break }
                items[i] = items[parent]
                i = parent
            }
            items[i] = x
        }
    }

    mutating func pop() -> Int {
        let last = items.removeLast()
        guard !items.isEmpty else { return last }
        return items.withUnsafeMutableBufferPointer { items in
            let top = items[0]
            Self.siftDown(items, from: 0, last)
            return top
        }
    }

    /// Puts x at i's place or below, moving smaller children up. Inlined: called, it made
    /// a drag step's solves ~5% slower (`drag_n1000`, alternated).
    @inline(__always)
    private static func siftDown(_ items: UnsafeMutableBufferPointer<Int>, from start: Int, _ x: Int) {
        var i = start
        let n = items.count
        while true {
            let l = 2 * i + 1
            if l >= n { break }
            let c = l + 1 < n && items[l + 1] < items[l] ? l + 1 : l
            if x <= items[c] { break }
            items[i] = items[c]
            i = c
        }
        items[i] = x
    }
}
