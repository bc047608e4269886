import CheckedNumbers

/// Lists that only grow until they are all dropped at once, each a chain through one flat
/// array, newest first: an append is one store and no allocation. The eta file's rows get
/// an entry in a different list at every step of a long eta's column, where arrays of arrays
/// paid a malloc for most of them (460 M instructions of a 4,000-cell star's build) and
/// `SparseLists` moved a list a step.
struct ChainedLists {
    private var head: [Int32] = []
    private var next: [Int32] = []
    private var items: [Entry] = []

    mutating func append(_ e: Entry, to l: Int) {
        if l >= head.count { head += repeatElement(-1, count: l + 1 - head.count) }
        next.append(head[l])
        head[l] = Int32(truncatingIfNeeded: items.count)
        items.append(e)
    }

    /// List l emptied; its entries stay in the array until `removeAll`.
    mutating func clear(_ l: Int) {
        if l < head.count { head[l] = -1 }
    }

    mutating func removeAll() { (head, next, items) = ([], [], []) }

    /// Entries held, those of cleared lists included.
    var stored: Int { items.count }

    /// List l's entries, newest first.
    @inline(__always) func forEach(in l: Int, _ body: (Entry) -> Void) {
        guard l < head.count else { return }
        var k = Int(head[l])
        while k >= 0 {
            body(items[k])
            k = Int(next[k])
        }
    }
}
