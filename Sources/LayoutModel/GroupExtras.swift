import CheckedNumbers
import JSON

/// VFL groups' `options` and `metrics` as sent, by entry. Groups mostly repeat their
/// neighbour's, so each names one of a few distinct pairs: a dictionary of the pairs
/// themselves was 21 bytes a view of a 1,000-cell feed (one `["alignAllTop"]` a cell), of
/// indices 4.
struct GroupExtras {
    typealias Pair = (options: JSON?, metrics: JSON?)
    private var index: [EntryRef: UInt32] = [:]
    private var pairs: [Pair] = []

    var isEmpty: Bool { index.isEmpty }

    subscript(e: EntryRef) -> Pair? {
        get { index[e].map { pairs[Int($0)] } }
        set {
            guard let p = newValue else {
                index[e] = nil
                return
            }
            if let last = pairs.last, last.options == p.options, last.metrics == p.metrics {
                index[e] = UInt32(pairs.count - 1)
                return
            }
            // Pairs no group names any more are dropped once they are most of the list.
            if pairs.count > 2 * index.count + 16 { repack() }
            pairs.append(p)
            index[e] = UInt32(pairs.count - 1)
        }
    }

    private mutating func repack() {
        var kept: [Pair] = []
        var renumbered: [UInt32: UInt32] = [:]
        for (e, i) in index.sorted(by: { $0.value < $1.value }) {
            if renumbered[i] == nil {
                renumbered[i] = UInt32(kept.count)
                kept.append(pairs[Int(i)])
            }
            index[e] = renumbered[i]
        }
        pairs = kept
    }
}
