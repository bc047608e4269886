import LayoutModel

/// Where each view's frame sits in the root's coordinates (frames are in their parent's), and
/// whether it is shown (it and every view above it not hidden). Iterative: a chain of views
/// each inside the last may be as deep as the document is long, past a worker's stack.
struct Origins {
    private var resolved: [String: (x: Double, y: Double, shown: Bool)] = [:]
    private let frame: [String: Rect]
    private let parent: [String: String]
    private let hidden: Set<String>

    init(frames: [String: Rect], parents: [String: String], hidden: Set<String>) {
        frame = frames
        parent = parents
        self.hidden = hidden
    }

    mutating func origin(_ id: String) -> (x: Double, y: Double, shown: Bool) {
        if let o = resolved[id] { return o }
        // Up to the first view resolved (or a root), then back down; a cycle, which only a
        // client's comparison document can hold, stops where it meets itself.
        var chain: [String] = []
        var seen = Set<String>()
        var at: String? = id
        while let v = at, resolved[v] == nil, seen.insert(v).inserted {
            chain.append(v)
            at = parent[v]
        }
        var base = at.flatMap { resolved[$0] } ?? (0, 0, true)
        for v in chain.reversed() {
            let f = frame[v] ?? Rect(x: 0, y: 0, width: 0, height: 0)
            base = (base.x + f.x, base.y + f.y, base.shown && !hidden.contains(v))
            resolved[v] = base
        }
        return resolved[id]!
    }
}
