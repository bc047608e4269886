/// The views each recent revision changed and removed, for `frames(since:)`. A ring of
/// `capacity` entries: recording a revision overwrites the oldest in place, so the
/// per-change cost is one entry, never a shift of the whole log.
struct RevisionHistory {
    struct Entry {
        var revision: Int
        var changed: [String]
        var removed: [String]
    }

    let capacity: Int
    private var ring: [Entry] = []
    private var oldest = 0

    init(capacity: Int) { self.capacity = max(1, capacity) }

    mutating func record(_ entry: Entry) {
        if ring.count < capacity {
            ring.append(entry)
        } else {
            ring[oldest] = entry
            oldest = (oldest + 1) % capacity
        }
    }

    var oldestRevision: Int? { ring.isEmpty ? nil : ring[oldest].revision }

    /// The entries after `revision`, oldest first.
    func forEach(after revision: Int, _ body: (Entry) -> Void) {
        for k in 0..<ring.count {
            let e = ring[(oldest + k) % ring.count]
            if e.revision > revision { body(e) }
        }
    }
}
