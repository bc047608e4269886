import CheckedNumbers
/// The view names a run of expressions looked up last, by their bytes (up to 16, held as two
/// words), with their refs: a document's expressions name the same few views over and over
/// (a cell's constraints its own four and its parent). A hit is two loads and a compare where
/// the table's lookup hashed the name and compared it with the view's id string (~180
/// instructions; 22,000 names in the 1,000-cell feed, three in four of them hits).
///
/// Valid while the views stay as they were: the in-place reader keeps one for a document's
/// constraints, which add no views. A copy shares the slots; `deallocate` frees them.
struct NameMemo {
    private struct Slot {
        var lo: UInt64 = 0, hi: UInt64 = 0
        var count: Int32 = -1
        var ref = ViewRef(raw: 0)
    }
    /// 16 slots, direct-mapped (an array's uniqueness check a lookup was ~10% of a hit).
    private let slots: UnsafeMutablePointer<Slot>

    init() {
        slots = .allocate(capacity: 16)
        slots.initialize(repeating: Slot(), count: 16)
    }

    /// Its slots freed: the memo is not used again.
    func deallocate() { slots.deallocate() }

    /// The ref of the view these bytes name: remembered, or found by `lookup` (and remembered).
    @inline(__always) func view(_ b: UnsafeBufferPointer<UInt8>, lookup: (UnsafeBufferPointer<UInt8>) -> ViewRef?) -> ViewRef? {
        guard b.count <= 16, let base = b.baseAddress else { return lookup(b) }
        let raw = UnsafeRawPointer(base), n = b.count
        // Words covering every byte, the same way for the same bytes (overlapping when short).
        let lo: UInt64, hi: UInt64
        if n >= 8 {
            (lo, hi) = (raw.loadUnaligned(as: UInt64.self), raw.loadUnaligned(fromByteOffset: n - 8, as: UInt64.self))
        } else if n >= 4 {
            (lo, hi) = (UInt64(raw.loadUnaligned(as: UInt32.self)), UInt64(raw.loadUnaligned(fromByteOffset: n - 4, as: UInt32.self)))
        } else {
            (lo, hi) = (n == 0 ? 0 : UInt64(b[0]) << 16 | UInt64(b[n >> 1]) << 8 | UInt64(b[n - 1]), 0)
        }
        let k = Int(truncatingIfNeeded: ((lo ^ (hi << 29 | hi >> 35)) &* 0x9E37_79B9_7F4A_7C15) >> 60)
        if slots[k].count == Int32(n) && slots[k].lo == lo && slots[k].hi == hi { return slots[k].ref }
        guard let ref = lookup(b) else { return nil }
        slots[k] = Slot(lo: lo, hi: hi, count: Int32(n), ref: ref)
        return ref
    }
}
