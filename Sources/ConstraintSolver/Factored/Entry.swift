import CheckedNumbers
/// An (index, value) entry of a sparse row or column: 12 bytes, where an `(Int, Double)`
/// pair took 16. The value is kept as two 32-bit halves so that the entry aligns to 4
/// bytes and packs without padding; the halves load as one (unaligned) 8-byte read.
/// The rows, L and U of a 1,000-cell session hold ~150,000 entries: its heap went from 2,634
/// to 2,515 bytes a view, its build unchanged (`layoutd-document-bench`, alternated).
struct Entry: Equatable {
    private var rawIndex: Int32
    private var low: UInt32
    private var high: UInt32

    @inline(__always) init(_ index: Int, _ value: Double) {
        rawIndex = Int32(truncatingIfNeeded: index)
        let bits = value.bitPattern
        low = UInt32(truncatingIfNeeded: bits)
        high = UInt32(truncatingIfNeeded: bits >> 32)
    }

    @inline(__always) var index: Int {
        get { Int(rawIndex) }
        set { rawIndex = Int32(truncatingIfNeeded: newValue) }
    }

    @inline(__always) var value: Double {
        get { Double(bitPattern: UInt64(high) << 32 | UInt64(low)) }
        set { self = Entry(index, newValue) }
    }
}
