import JSON

/// Which of a conflict's required constraints breaks: the one Xcode's stored frames show
/// broken, else the last listed in the file. The engine breaks the first listed of a
/// conflicting set, so a constraint the stored frames do not satisfy is listed first (in the
/// file's order), the others after it in reverse file order (`ViewTree.inFileOrder`). Of the
/// IBCorpus's conflicting roots (stored sizes; development 73, validation 60), 44 and 31 then
/// agreed with Xcode fully, 780 of 918 and 398 of 499 views: the most roots of the orders
/// measured on both halves (BENCHMARKS §15; 45 and 31, 784 and 402 views with the stack rule,
/// `StackShadow`, since). The others in file order match 43 and 30 (787 and 406 views), stored
/// breaks last 14 and 13, file order alone 32 and 20, reverse file order alone 18 and 15.
extension RootBuilder {
    /// Off by more than this (points), a stored frame does not satisfy a constraint: Xcode
    /// rounds frames to pixels, a quarter point at most on a 2× screen.
    static let storedTolerance = 0.25

    /// `constraints` (in file order) with those the stored geometry violates first, in their
    /// order, then the others last-listed first.
    func listingStoredBreaksFirst(_ constraints: [JSON]) -> [JSON] {
        var violated: [JSON] = [], others: [JSON] = []
        for c in constraints {
            if isRequired(c) && storedViolates(c) { violated.append(c) } else { others.append(c) }
        }
        return violated + others.reversed()
    }

    private func isRequired(_ c: JSON) -> Bool { (c["priority"]?.number ?? 1000) >= 1000 }

    /// Whether the stored frames (and the guides made from them) break `c`; false when an
    /// item's stored place is not known (a content area, a baseline, a standard space).
    func storedViolates(_ c: JSON) -> Bool {
        guard let first = c["first"]?.string, let a = stored.value(of: first), let constant = c["constant"]?.number else { return false }
        var rhs = constant
        if let second = c["second"]?.string {
            guard let b = stored.value(of: second) else { return false }
            rhs += b * (c["multiplier"]?.number ?? 1)
        }
        switch c["relation"]?.string {
        case ">=": return a < rhs - Self.storedTolerance
        case "<=": return a > rhs + Self.storedTolerance
        default: return abs(a - rhs) > Self.storedTolerance
        }
    }

    /// Views whose stored frames break a required constraint between two of the root's views
    /// (or on one view's size): Xcode would show them misplaced, so their frames are stale
    /// evidence, counted apart by the bench (issue 62). Only what the stored frames alone
    /// decide: not a controller's root (a screen's size is stored where Xcode lays it out
    /// below an opaque bar or in a sheet) nor another root laid out at another size than
    /// stored, guides, margins, baselines, nor views whose frame is not their alignment rect
    /// (controls with alignment insets, SF Symbols).
    func storedStaleViews() -> Set<String> {
        let rootKeepsStoredSize =
            kind != .scene
            && stored.frames.first.map { f in stored.rects[f.id].map { $0.width == f.width && $0.height == f.height } ?? false } ?? false
        var stale: Set<String> = []
        for c in emitted.constraints where isRequired(c) {
            guard let first = c["first"]?.string.flatMap({ staleCheckedView($0, rootKeepsStoredSize) }) else { continue }
            var named = [first]
            if let anchor = c["second"]?.string {
                guard let second = staleCheckedView(anchor, rootKeepsStoredSize) else { continue }
                named.append(second)
            }
            if storedViolates(c) { stale.formUnion(named) }
        }
        return stale
    }

    /// The view an anchor names when its stored frame alone decides the anchor's value.
    private func staleCheckedView(_ anchor: String, _ rootKeepsStoredSize: Bool) -> String? {
        guard let dot = anchor.lastIndex(of: ".") else { return nil }
        let id = String(anchor[..<dot])
        let plain: Set<Substring> = ["left", "leading", "right", "trailing", "top", "bottom", "width", "height", "centerX", "centerY"]
        guard plain.contains(anchor[anchor.index(after: dot)...]), tree.parent[id] != nil || rootKeepsStoredSize, let e = tree.elements[id] else {
            return nil
        }
        return Self.alignmentInsets(e) == nil && !Self.showsSymbol(e) ? id : nil
    }
}
