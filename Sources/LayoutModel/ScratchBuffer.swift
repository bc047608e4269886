extension Array {
    /// Empties a buffer reused from change to change, keeping its room unless a large change
    /// (a whole document) grew it past 4,096: a session at rest does not hold a build's worth
    /// of scratch (81 bytes a view of the 1,000-cell feed).
    mutating func clearScratch() { removeAll(keepingCapacity: capacity <= 4096) }

    /// Empties a buffer that mostly holds one or two, one at a time: `removeAll` is the
    /// generic `replaceSubrange`, ~100 instructions (a set-constant's record to undo).
    @inline(__always) mutating func clearShort() {
        if count > 16 { clearScratch() } else { while !isEmpty { removeLast() } }
    }

    /// Grown with `filler` until index i exists, one element at a time: indices mostly come
    /// in order, one past the end, and appending a `repeatElement` is the generic
    /// `append(contentsOf:)`, ~90 instructions however few it adds.
    @inline(__always) mutating func grow(toInclude i: Int, with filler: Element) {
        while count <= i { append(filler) }
    }

    /// The last element taken, or nil when empty: `popLast` is the generic collection's, a
    /// call of ~30 instructions (a new atom and entry each asked, 42,000 in the 1,000-cell feed).
    @inline(__always) mutating func takeLast() -> Element? { isEmpty ? nil : removeLast() }
}
