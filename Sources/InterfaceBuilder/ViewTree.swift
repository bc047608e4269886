/// A root's views as the document has them: each id's element and first parent, the ids that
/// name another view, what the layout's size classes leave out, which views constraints name,
/// and the constraint elements with the view that holds each.
struct ViewTree {
    /// Every view and guide of the root, by IB id.
    var known: Set<String> = []
    var elements: [String: XMLElement] = [:]
    var parent: [String: String] = [:]
    /// Ids that name another view of the root (a cell's, its content view).
    var aliases: [String: String] = [:]
    /// Constraints and views not installed in the any-width, any-height configuration.
    var excluded: Set<String> = []
    /// Views some constraint of the root names.
    var constrained: Set<String> = []
    /// Constraint elements with the view that holds them (an omitted `firstItem`).
    var held: [HeldConstraint] = []

    /// Whether `view` is under `ancestor`.
    func isInside(_ view: String, _ ancestor: String) -> Bool {
        var v = parent[view]
        while let p = v {
            if p == ancestor { return true }
            v = parent[p]
        }
        return false
    }

    /// Every view a constraint under `e` names (one without `firstItem` names the view holding it).
    mutating func collectConstrained(_ e: XMLElement, owner: String) {
        for child in e.children {
            if child.name == "constraint" {
                constrained.insert(child["firstItem"] ?? owner)
                if let s = child["secondItem"] { constrained.insert(s) }
            } else {
                collectConstrained(child, owner: Importer.isView(child) ? child["id"] ?? owner : owner)
            }
        }
    }

    /// What is not installed in the layout's size classes: what `<variation key="default">`
    /// leaves out of the any-width, any-height configuration, less what a variation for these
    /// size classes includes, plus what one excludes.
    mutating func collectExclusions(_ e: XMLElement, sizeClasses: SizeClasses) {
        var included: Set<String> = [], excludedHere: Set<String> = []
        func walk(_ e: XMLElement) {
            for child in e.children {
                guard child.name == "variation", let key = child["key"] else {
                    walk(child)
                    continue
                }
                let specific = sizeClasses.applies(key)
                guard key == "default" || specific else { continue }
                for mask in child.children where mask.name == "mask" {
                    for item in mask.children {
                        guard let r = item["reference"] else { continue }
                        if item.name == "exclude" {
                            if specific { excludedHere.insert(r) } else { excluded.insert(r) }
                        } else if item.name == "include" && specific {
                            included.insert(r)
                        }
                    }
                }
            }
        }
        walk(e)
        excluded.subtract(included)
        excluded.formUnion(excludedHere)
    }

    /// The held constraints in the order the IB file lists them (a view's own, written
    /// inside it, before its superview's): where required constraints conflict and the stored
    /// frames satisfy them all, the last in the file breaks (`listingStoredBreaksFirst` lists
    /// them reversed; the engine breaks the first listed; frames, guides, content sizes and
    /// stacks keep their places). The views' order (a superview's first) matched fewer
    /// conflicting roots of the IBCorpus. Stored frames of a conflicting root are weak
    /// evidence: the benchmark reports those roots apart.
    var inFileOrder: [HeldConstraint] {
        held.sorted { ($0.element.line, $0.element.column) < ($1.element.line, $1.element.column) }
    }
}

/// A `<constraint>` element with the view that holds it.
struct HeldConstraint {
    var owner: String
    var element: XMLElement
}
