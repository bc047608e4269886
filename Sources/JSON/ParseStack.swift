/// The values of the objects and arrays a parse has open, in one buffer that only grows:
/// each closes by moving its own values out into an array of exactly their count.
/// Appending straight into each object's array grew it 1 → 2 → 4…: 14 M of the 50 M
/// instructions that parsed a 1,000-cell feed.
struct ParseStack<Element>: ~Copyable {
    private var base: UnsafeMutablePointer<Element>
    private var capacity = 64
    /// Values pushed and not yet popped: a mark for `pop(to:)`.
    private(set) var count = 0

    init() { base = .allocate(capacity: capacity) }

    deinit {
        base.deinitialize(count: count)
        base.deallocate()
    }

    mutating func push(_ e: consuming Element) {
        if count == capacity { grow() }
        (base + count).initialize(to: e)
        count += 1
    }

    private mutating func grow() {
        let bigger = UnsafeMutablePointer<Element>.allocate(capacity: capacity * 2)
        bigger.moveInitialize(from: base, count: count)
        base.deallocate()
        base = bigger
        capacity *= 2
    }

    /// The values pushed since `mark` (a `count` read then), moved out in order.
    mutating func pop(to mark: Int) -> [Element] {
        let n = count - mark
        guard n > 0 else { return [] }
        let from = base + mark
        count = mark
        // Reserved, then appended by moving: `Array(unsafeUninitializedCapacity:)` reaches
        // the standard library's unspecialized allocation, which looks the storage type up
        // again each time (670 instructions an array, where this is half).
        var out: [Element] = []
        out.reserveCapacity(n)
        for k in 0..<n { out.append((from + k).move()) }
        return out
    }
}
