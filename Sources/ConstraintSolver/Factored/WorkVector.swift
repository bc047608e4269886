import CheckedNumbers
import Glibc

/// A sparse vector being computed, on dense storage: values by index, a stamp that says
/// which entries are live, and the list of live indices. Reset is O(1) (the stamp moves on),
/// so a solve that reaches five entries costs five, with no allocation once it has grown.
/// The stamp is 16 bits, every stamp cleared once in 65,535 resets (a memset of the vector):
/// a byte's clear every 255 resets was a memset of every step per 255 solves, quadratic in a
/// build that pivots a few times a cell (5% of a 10,000-row stack feed's instructions, 0.03%
/// at 1,000). The vectors are the thread's, lent to an operation, not a session's memory. A
/// bit an index cleared through the pattern cost a chain's propagate 29% (chain_n1000).
struct WorkVector {
    typealias Stamp = UInt16
    /// Resets between two clears of every stamp.
    static let period = Int(Stamp.max)
    private(set) var values: [Double] = []
    private var stamps: [Stamp] = []
    private var stamp: Stamp = 1
    /// The live indices, in the order they were reached.
    private(set) var pattern: [Int] = []

    mutating func reset(size: Int) {
        if values.count < size {
            values.append(contentsOf: repeatElement(0, count: size - values.count))
            stamps.append(contentsOf: repeatElement(0, count: size - stamps.count))
        }
        pattern.clear()
        stamp &+= 1
        if stamp == 0 {  // wrapped: every stamp cleared, once a period
            stamps.withUnsafeMutableBufferPointer { $0.update(repeating: 0) }
            stamp = 1
        }
    }

    @inline(__always) func contains(_ i: Int) -> Bool { stamps[i] == stamp }
    @inline(__always) subscript(i: Int) -> Double { stamps[i] == stamp ? values[i] : 0 }

    /// Adds v at i; true when i was not live before.
    @inline(__always) @discardableResult
    mutating func add(_ i: Int, _ v: Double) -> Bool {
        if stamps[i] == stamp { values[i] += v; return false }
        stamps[i] = stamp
        values[i] = v
        pattern.append(i)
        return true
    }

    @inline(__always) mutating func set(_ i: Int, _ v: Double) {
        if stamps[i] != stamp { stamps[i] = stamp; pattern.append(i) }
        values[i] = v
    }

    /// The live entries whose magnitude passes `drop`, as (index, value) pairs.
    func entries(dropping drop: Double = BasisFactor.drop) -> [Entry] {
        var out: [Entry] = []
        out.reserveCapacity(pattern.count)
        for i in pattern where abs(values[i]) > drop { out.append(Entry(i, values[i])) }
        return out
    }
}

/// The work vectors of an operation under way, lent by the thread running it: a session at
/// rest holds none (sized to its system, they were 262 bytes a view of a 1,000-cell
/// session). Each thread keeps one set, grown to the largest system it has solved.
final class WorkVectors {
    var column = WorkVector(), row = WorkVector(), extra = WorkVector(), alpha = WorkVector()

    /// This thread's set.
    static var current: WorkVectors {
        if let p = pthread_getspecific(key) { return Unmanaged<WorkVectors>.fromOpaque(p).takeUnretainedValue() }
        let set = WorkVectors()
        pthread_setspecific(key, Unmanaged.passRetained(set).toOpaque())
        return set
    }

    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key) { p in if let p { Unmanaged<WorkVectors>.fromOpaque(p).release() } }
        return key
    }()
}

extension Array where Element: BitwiseCopyable {
    /// Emptied, its room kept. A short array is emptied from its end: `removeAll(keepingCapacity:)`
    /// goes through the generic `replaceSubrange` (~150 instructions however few it holds; a
    /// solve's pattern is often two or three).
    @inline(__always) mutating func clear() {
        if count <= 16 {
            while !isEmpty { removeLast() }
        } else {
            removeAll(keepingCapacity: true)
        }
    }
}
