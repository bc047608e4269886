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
        guard let r = document.viewNamed[view], let vars = views[r] else { throw LayoutError(.invalid, "", "unknown view '\(view)'") }
        let engineVars = axis == .horizontal ? [vars.x, vars.width] : [vars.y, vars.height]
        var found = Set<AtomRef>()
        for v in engineVars { for h in solver.constraintsAffecting(v) { if let a = atom(ofHandle: h) { found.insert(a) } } }
        let broken = Set(solver.brokenConstraints.compactMap { atom(ofHandle: $0.constraint) })
        for a in broken {
            let x = document.atoms[Int(a)]
            if (x.first == r || x.second == r) && x.firstAttribute.axis == axis { found.insert(a) }
        }
        return found.sorted { document.atoms[Int($0)].sequence < document.atoms[Int($1)].sequence }.map { a in
            ExplainedConstraint(id: document.atomName(a), description: document.describe(a),
                                priority: document.atoms[Int(a)].priority, broken: broken.contains(a))
        }
    }

    /// The view tree, one view a line, indented, with `AMBIGUOUS LAYOUT` and the axis
    /// after each ambiguous view (like `_autolayoutTrace`).
    public func trace() -> String {
        var ambiguous: [String: [Axis]] = [:]
        for d in diagnostics() { if case .ambiguous(let v, let axis) = d { ambiguous[v, default: []].append(axis) } }
        var lines: [String] = []
        let children = document.childLists()
        func visit(_ v: ViewRef, _ depth: Int) {
            let spec = document.views[Int(v)].spec
            guard let f = views.reported(v)?.frame else { return }
            let id = spec.id
            var line = String(repeating: "    ", count: depth) + (depth == 0 ? "•" : "|") + id
            if spec.isGuide { line += " [guide]" }
            line += " (\(fmt(f.x)), \(fmt(f.y)), \(fmt(f.width)), \(fmt(f.height)))"
            if spec.hidden { line += " hidden" }
            if let axes = ambiguous[id] { line += " AMBIGUOUS LAYOUT " + axes.map(\.rawValue).joined(separator: ", ") }
            lines.append(line)
            for c in children[v] ?? [] { visit(c, depth + 1) }
        }
        for v in document.viewOrder where document.views[Int(v)].parent == noRef { visit(v, 0) }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Another optimal layout of the ambiguous views (Auto Layout's
    /// `exerciseAmbiguityInLayout`); not kept, the revision does not change.
    public func exerciseAmbiguity() -> [FrameEntry] {
        let ambiguous = solver.ambiguousVariables()
        let alternative = solver.alternativeValues(for: ambiguous, maxStep: 20)
        var moved = Set<ViewRef>()
        for v in alternative.keys { if let o = viewOfVariable[v.id], !document.views[Int(o.slot)].internalGuide { moved.insert(o.slot) } }
        return moved.map { v in
            let spec = document.views[Int(v)].spec
            return FrameEntry(id: spec.id, frame: currentFrame(v, values: alternative), hidden: spec.hidden)
        }.sorted { $0.id < $1.id }
    }
}
