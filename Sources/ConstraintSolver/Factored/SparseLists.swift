import CheckedNumbers
/// Many short sparse lists (a row's cells, a column's rows, a step of L or U) in one flat
/// array of entries, each list a span of it. An array of arrays paid a 32-byte header and a
/// malloc for every list, most of them two or three entries long: with the rows, the
/// columns, L and U kept this way, the factored engine of a 1,000-cell stacked feed holds
/// 2,298 bytes a view instead of 3,326, and builds in 51 ms instead of 58
/// (`layoutd-document-bench`, alternated).
///
/// A list that outgrows its span moves to the end of the array with room to grow,
/// leaving a hole; holes and spare room are squeezed out once they outweigh the live
/// entries, so the storage stays within a small factor of what is live.
///
/// The rows, L and U hold (index, value) entries; the columns only their rows' ids (the
/// value is the row's): 4 bytes an entry where an `Entry` is 12.
struct SparseLists<Element> {
    /// A list's place: 8 bytes, its capacity implied (a stored one made it 12, and the
    /// engine of a 1,000-cell session keeps 200,000 spans).
    struct Span {
        var start: UInt32
        /// The count, with `roomy` in its top bit: a list moved to the end with room to grow
        /// has the power of two (at least 4) at or above its count as capacity, any other
        /// list its count.
        private var raw: UInt32
        @inline(__always) private static var roomyBit: UInt32 { 1 << 31 }

        init(start: UInt32, count: UInt32, roomy: Bool) {
            self.start = start
            self.raw = count | (roomy ? Self.roomyBit : 0)
        }

        @inline(__always) var count: UInt32 {
            get { raw & ~Self.roomyBit }
            set { raw = newValue | (raw & Self.roomyBit) }
        }
        @inline(__always) var capacity: UInt32 { raw & Self.roomyBit == 0 ? raw : Self.room(for: count) }
        /// Where the list's entries are in `entries`.
        @inline(__always) var range: Range<Int> { Int(start)..<Int(start + count) }

        /// The room a moved list of `count` entries has: never more than it was given when
        /// it moved (a power of two at or above the count then, which was no smaller).
        @inline(__always) static func room(for count: UInt32) -> UInt32 {
            count <= 4 ? 4 : 1 << (32 - (count - 1).leadingZeroBitCount)
        }
    }
    /// The lists' places; lists past the last span are empty. A triangular basis (the crash's,
    /// a layout's usual) has U diagonal: its two lists of 30,000 empty steps kept 96 bytes a
    /// view of spans for nothing (1,000-cell feed).
    private(set) var spans: [Span] = []
    private(set) var listCount = 0
    private(set) var entries: [Element] = []
    /// Entries in every list (the rest of `entries` is room to grow and holes).
    private(set) var liveCount = 0
    /// False for scratch lists that only shrink to nothing (an elimination's rows): each
    /// compaction visits every list, and halving the live entries again and again took
    /// 28 of them, 156 M instructions, on the 1,000-cell feed's build.
    var compacts = true

    init() {}

    mutating func reserve(lists: Int, entries n: Int) {
        spans.reserveCapacity(lists)
        entries.reserveCapacity(n)
    }

    @inline(__always) subscript(l: Int) -> ArraySlice<Element> { entries[positions(l)] }

    @inline(__always) func count(_ l: Int) -> Int { l < spans.count ? Int(spans[l].count) : 0 }

    /// Where list l's entries are, as positions for `subscript(position:)`: valid until the
    /// next call that adds, replaces or removes (any of them may lay the lists out again).
    @inline(__always) func positions(_ l: Int) -> Range<Int> { l < spans.count ? spans[l].range : 0..<0 }

    /// Spans for the empty lists up to l, so that l can grow.
    private mutating func materialize(through l: Int) {
        while spans.count <= l { spans.append(Span(start: UInt32(entries.count), count: 0, roomy: false)) }
    }

    /// The entry at a position (no slice: a loop over positions retains nothing).
    @inline(__always) subscript(position k: Int) -> Element {
        get { entries[k] }
        set { entries[k] = newValue }
    }

    /// Packed (no holes, no room to grow) into storage of its live size: for lists that are
    /// kept once built (a doubling array holds up to twice what is live).
    mutating func trim() {
        if entries.capacity > liveCount { compact() }  // new storage of the live size
        // Trailing empty lists keep no span. Copied through a buffer: `Array(x[...])` keeps x's
        // storage when the slice is all of it.
        let kept = (spans.lastIndex { $0.count > 0 } ?? -1) + 1
        if spans.capacity > kept { spans = spans.withUnsafeBufferPointer { Array($0[..<kept]) } }
    }

    /// Adds a list holding `cells` (no room to grow unless it is last); returns its id.
    @discardableResult
    mutating func appendList(_ cells: some Collection<Element>) -> Int {
        listCount += 1
        if cells.isEmpty { return listCount - 1 }
        materialize(through: listCount - 2)
        spans.append(Span(start: UInt32(entries.count), count: UInt32(cells.count), roomy: false))
        entries.append(contentsOf: cells)
        liveCount += cells.count
        return listCount - 1
    }

    /// An empty list (not `appendList(EmptyCollection())`: the generic append cost a new
    /// column ~170 instructions).
    @discardableResult
    mutating func appendList() -> Int {
        listCount += 1
        return listCount - 1
    }

    /// Starts a list after the last, which `appendToLast` fills: for a writer that makes its
    /// lists in order, entry by entry (a batch's rows: one collection handed over a row, then
    /// its slack and errors appended, was ~300 instructions a row).
    mutating func beginList() -> Int {
        listCount += 1
        materialize(through: listCount - 1)
        return listCount - 1
    }

    /// Appends to the list `beginList` started; nothing else may grow the lists in between.
    @inline(__always) mutating func appendToLast(_ e: Element) {
        entries.append(e)
        spans[spans.count - 1].count += 1
        liveCount += 1
    }

    mutating func append(_ e: Element, to l: Int) {
        if l >= spans.count { materialize(through: l) }
        var s = spans[l]
        let end = Int(s.start + s.count)
        if s.count < s.capacity {
            entries[end] = e
            s.count += 1
        } else if end == entries.count {  // the last span grows in place, with no room beyond
            entries.append(e)
            s = Span(start: s.start, count: s.count + 1, roomy: false)
        } else {
            s = moveToEnd(l, filler: e)
            entries[Int(s.start + s.count)] = e
            s.count += 1
        }
        spans[l] = s
        liveCount += 1
    }

    /// List l's contents become `cells` (in place when they fit).
    mutating func replace(_ l: Int, with cells: some Collection<Element>) {
        if l >= spans.count {
            if cells.isEmpty { return }
            materialize(through: l)
        }
        var s = spans[l]
        liveCount += cells.count - Int(s.count)
        if cells.count > s.capacity {
            s = Span(start: UInt32(entries.count), count: 0, roomy: false)
            entries.append(contentsOf: cells)
        } else {
            var k = Int(s.start)
            for e in cells { entries[k] = e; k += 1 }
        }
        s.count = UInt32(cells.count)
        spans[l] = s
        compactIfSparse()
    }

    mutating func removeAll(in l: Int, where drop: (Element) -> Bool) {
        guard l < spans.count else { return }
        var s = spans[l]
        let start = Int(s.start)
        var kept = start
        for k in start..<start + Int(s.count) where !drop(entries[k]) {
            entries[kept] = entries[k]
            kept += 1
        }
        liveCount -= Int(s.count) - (kept - start)
        s.count = UInt32(kept - start)
        spans[l] = s
        compactIfSparse()
    }

    mutating func clear(_ l: Int) {
        guard l < spans.count else { return }
        liveCount -= Int(spans[l].count)
        spans[l].count = 0
        compactIfSparse()
    }

    /// The entries `drop` takes removed from every list, the lists packed in id order (one
    /// pass, where removing from each list in turn compacts again and again), in storage of
    /// their size. Inlined, with `drop`.
    @inline(__always)
    mutating func removeAll(where drop: (Element) -> Bool) {
        let compacts = compacts
        self = filtered(lists: { _ in true }, entries: { !drop($0) })
        self.compacts = compacts
        if entries.capacity > liveCount { entries = entries.withUnsafeBufferPointer { Array($0) } }
    }

    /// The lists `keepList` takes, each with the entries `keep` takes (the others empty), as
    /// many lists as this one: packed in id order, with room for every entry of this one.
    /// Inlined, with the closures: appended entry by entry, a crash's rows were 24 M
    /// instructions of the 1,000-cell stack's three builds.
    @inline(__always)
    func filtered(lists keepList: (Int) -> Bool, entries keep: (Element) -> Bool) -> SparseLists {
        var out = SparseLists()
        out.listCount = listCount
        out.spans.reserveCapacity(spans.count)
        var kept = 0
        out.entries = [Element](unsafeUninitializedCapacity: liveCount) { packed, count in
            withBuffers { spans, entries in
                for l in spans.indices {
                    let start = count
                    if keepList(l) {
                        for k in spans[l].range where keep(entries[k]) { (packed.baseAddress! + count).initialize(to: entries[k]); count += 1 }
                    }
                    out.spans.append(Span(start: UInt32(start), count: UInt32(count - start), roomy: false))
                }
            }
            kept = count
        }
        out.liveCount = kept
        return out
    }

    /// The spans and entries as buffers, for loops that visit many lists (a list past the last
    /// span is empty).
    @inline(__always)
    func withBuffers<R>(_ body: (UnsafeBufferPointer<Span>, UnsafeBufferPointer<Element>) throws -> R) rethrows -> R {
        try spans.withUnsafeBufferPointer { s in try entries.withUnsafeBufferPointer { e in try body(s, e) } }
    }

    private mutating func moveToEnd(_ l: Int, filler: Element) -> Span {
        compactIfSparse()
        let s = spans[l]
        let start = entries.count
        let capacity = Int(Span.room(for: s.count + 1))
        // Grown geometrically: an exact reserve here reallocated the whole array at every move
        // (an elimination's fill-in moves lists all the time: chain_n1000's build 5 → 12 ms).
        if entries.capacity < start + capacity { entries.reserveCapacity(max(start + capacity, 2 * entries.capacity)) }
        for k in s.range { entries.append(entries[k]) }
        entries.append(contentsOf: repeatElement(filler, count: capacity - Int(s.count)))
        let moved = Span(start: UInt32(start), count: s.count, roomy: true)
        spans[l] = moved
        return moved
    }

    private mutating func compactIfSparse() {
        if compacts && entries.count > 2 * liveCount + 64 { compact() }
    }

    /// Every list laid out again in id order, with no room to spare.
    private mutating func compact() {
        let live = liveCount
        let packed = [Element](unsafeUninitializedCapacity: live) { packed, count in
            entries.withUnsafeBufferPointer { entries in
                spans.withUnsafeMutableBufferPointer { spans in
                    for l in spans.indices {
                        let s = spans[l]
                        for k in s.range { (packed.baseAddress! + count).initialize(to: entries[k]); count += 1 }
                        spans[l] = Span(start: UInt32(count) - s.count, count: s.count, roomy: false)
                    }
                }
            }
        }
        entries = packed
    }
}

extension SparseLists where Element == Entry {
    /// Every live entry's index rewritten (ids to steps, say), the values kept.
    mutating func mapIndices(_ f: (Int) -> Int) {
        let spans = self.spans
        entries.withUnsafeMutableBufferPointer { entries in
            for s in spans { for k in s.range { entries[k].index = f(entries[k].index) } }
        }
    }

    /// The transpose, `lists` lists (as many as this one has when nil): list i of the result
    /// holds (l, a) for each (i, a) in list l, in order of l. Packed, by counting.
    func transposed(lists: Int? = nil) -> SparseLists<Entry> { transposed(lists: lists) { l, a in Entry(l, a) } }

    /// The transpose's row ids alone: list i holds l for each (i, _) in list l, in order of l.
    func transposedIndices(lists: Int? = nil) -> SparseLists<Int32> { transposed(lists: lists) { l, _ in Int32(l) } }

    /// The same, of the lists `keep` takes only.
    func transposedIndices(lists: Int? = nil, keeping keep: (Int) -> Bool) -> SparseLists<Int32> {
        transposed(lists: lists, keeping: keep) { l, _ in Int32(l) }
    }

    /// Inlined with its closures: called through them, the column lists' transpose was
    /// 480,000 calls (3% of the 1,000-cell feed's build).
    @inline(__always)
    private func transposed<T>(lists: Int?, keeping keep: (Int) -> Bool = { _ in true }, _ make: (Int, Double) -> T) -> SparseLists<T> {
        var out = SparseLists<T>()
        var next = [UInt32](repeating: 0, count: lists ?? listCount)
        // Buffers, not slices: a slice a list was a retain and a release (34 → 21 M
        // instructions on the 1,000-cell feed).
        withBuffers { spans, entries in
            next.withUnsafeMutableBufferPointer { next in
                for (l, s) in spans.enumerated() where keep(l) { for k in s.range { next[entries[k].index] += 1 } }
                out.layOut(next, filler: make(0, 0))
                out.entries.withUnsafeMutableBufferPointer { outEntries in
                    for (l, s) in spans.enumerated() where keep(l) {
                        for k in s.range {
                            let e = entries[k]
                            outEntries[Int(next[e.index])] = make(l, e.value)
                            next[e.index] += 1
                        }
                    }
                }
            }
        }
        return out
    }
}

extension SparseLists {
    /// `items` in `lists` lists, item n in list `keys[n]`, each list in the order given.
    /// Packed, by counting.
    init(grouping items: [Element], by keys: [Int32], lists: Int) {
        var next = [UInt32](repeating: 0, count: lists)
        guard let filler = items.first else {
            listCount = lists
            return
        }
        next.withUnsafeMutableBufferPointer { next in
            for k in keys { next[Int(k)] += 1 }
            layOut(next, filler: filler)
            entries.withUnsafeMutableBufferPointer { out in
                for (n, k) in keys.enumerated() {
                    out[Int(next[Int(k)])] = items[n]
                    next[Int(k)] += 1
                }
            }
        }
    }

    /// Packed spans for lists of `counts[i]` entries (trailing empty lists get none), the
    /// entries `filler` until the caller places them; each count becomes its list's start,
    /// where its first entry goes.
    fileprivate mutating func layOut(_ counts: UnsafeMutableBufferPointer<UInt32>, filler: Element) {
        var start: UInt32 = 0
        listCount = counts.count
        let kept = (counts.lastIndex { $0 > 0 } ?? -1) + 1
        spans.reserveCapacity(kept)
        for i in 0..<kept {
            spans.append(Span(start: start, count: counts[i], roomy: false))
            (counts[i], start) = (start, start + counts[i])
        }
        entries = Array(repeating: filler, count: Int(start))
        liveCount = Int(start)
    }
}
