import ConstraintSolver

/// Debugging aids in the manner of Auto Layout's: what affects a view, the view tree
/// with ambiguity marked, and another valid layout of the ambiguous views.
extension LayoutSession {
    public struct ExplainedConstraint: Equatable, Sendable {
        public var id: String
        public var description: String
        public var priority: Double
        public var broken: Bool
    }

    /// The constraints affecting `view` on `axis`: those the engine says its position and
    /// size depend on, and any broken ones naming it on that axis.
    public func explain(view: String, axis: Axis) throws(LayoutError) -> [ExplainedConstraint] {
        guard let vars = views[view] else { throw LayoutError(.invalid, "", "unknown view '\(view)'") }
        let engineVars = axis == .horizontal ? [vars.x, vars.width] : [vars.y, vars.height]
        var ids = Set<String>()
        for v in engineVars { for h in solver.constraintsAffecting(v) { if let id = atomOfHandle[h.raw] { ids.insert(id) } } }
        let broken = Set(solver.brokenConstraints.compactMap { atomOfHandle[$0.constraint.raw] })
        for id in document.atomsOfView[view] ?? [] where broken.contains(id) {
            if let a = document.atoms[id]?.atom, a.first.attribute.axis == axis { ids.insert(id) }
        }
        return ids.compactMap { id in document.atoms[id].map { (id, $0) } }
            .sorted { $0.1.sequence < $1.1.sequence }
            .map { id, rec in
                ExplainedConstraint(id: id, description: description(id, rec), priority: rec.atom.priority, broken: broken.contains(id))
            }
    }

    func description(_ id: String, _ rec: AtomRecord) -> String {
        if let k = rec.frameComponent {
            return "\(rec.atom.first.view).frame.\(["x", "y", "width", "height"][k]) == \(fmt(rec.atom.constant))"
        }
        return rec.atom.description
    }

    /// The view tree, one view a line, indented, with `AMBIGUOUS LAYOUT` and the axis
    /// after each ambiguous view (like `_autolayoutTrace`).
    public func trace() -> String {
        var ambiguous: [String: [Axis]] = [:]
        for d in diagnostics() { if case .ambiguous(let v, let axis) = d { ambiguous[v, default: []].append(axis) } }
        var lines: [String] = []
        func visit(_ id: String, _ depth: Int) {
            guard let spec = document.views[id], let f = views.reported(id)?.frame else { return }
            var line = String(repeating: "    ", count: depth) + (depth == 0 ? "•" : "|") + id
            if spec.isGuide { line += " [guide]" }
            line += " (\(fmt(f.x)), \(fmt(f.y)), \(fmt(f.width)), \(fmt(f.height)))"
            if spec.hidden { line += " hidden" }
            if let axes = ambiguous[id] { line += " AMBIGUOUS LAYOUT " + axes.map(\.rawValue).joined(separator: ", ") }
            lines.append(line)
            for c in document.children[id] ?? [] { visit(c, depth + 1) }
        }
        for v in document.viewOrder where document.views[v]?.parent == nil { visit(v, 0) }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Another optimal layout of the ambiguous views (Auto Layout's
    /// `exerciseAmbiguityInLayout`); not kept, the revision does not change.
    public func exerciseAmbiguity() -> [FrameEntry] {
        let ambiguous = solver.ambiguousVariables()
        let alternative = solver.alternativeValues(for: ambiguous, maxStep: 20)
        var moved = Set<String>()
        for v in alternative.keys { if let o = viewOfVariable[v.id] { moved.insert(self.views.id(ofSlot: o.slot)) } }
        return moved.sorted().compactMap { v in
            guard let spec = document.views[v] else { return nil }
            return FrameEntry(id: v, frame: currentFrame(v, values: alternative), hidden: spec.hidden)
        }
    }
}
