import CheckedNumbers
import ConstraintSolver

/// Debugging aids in the manner of Auto Layout's: what affects a view, the view tree
/// with ambiguity marked, and another valid layout of the ambiguous views.
extension LayoutSession {
    public struct ExplainedConstraint: Equatable, Sendable {
        /// What a constraint does for the view as solved.
        public enum Role: String, Sendable {
            /// The view's position or size on the axis depends on it.
            case determining
            /// It holds but decides nothing (an inequality with room to spare).
            case satisfied
            /// An optional constraint the answer does not meet.
            case unsatisfied
            /// A required constraint the engine broke to go on.
            case broken
        }
        public var id: String
        public var description: String
        public var priority: Double
        public var broken: Bool
        public var role: Role
    }

    /// Every active constraint naming `view` on `axis` (implicit and stack-made ones too),
    /// and any other the engine says the view's position or size depends on, each with its
    /// role, in the order they were added.
    public func explain(view: String, axis: Axis) throws(LayoutError) -> [ExplainedConstraint] {
        guard let r = document.viewRef(view), let vars = views[r] else { throw LayoutError(.invalid, "", "unknown view '\(view)'") }
        let engineVars = axis == .horizontal ? [vars.x, vars.width] : [vars.y, vars.height]
        var determining = Set<AtomRef>()
        for v in engineVars { for h in solver.constraintsAffecting(v) { if let a = atom(ofHandle: h) { determining.insert(a) } } }
        let broken = Set(solver.brokenConstraints.compactMap { atom(ofHandle: $0.constraint) })
        var found = determining
        for (i, x) in document.atoms.enumerated() where x.live && x.active {
            if (x.first == r && x.firstAttribute.axis == axis) || (x.hasSecond && x.second == r && x.secondAttribute.axis == axis) {
                found.insert(AtomRef(i))
            }
        }
        return found.sorted { document.atoms[Int($0)].sequence < document.atoms[Int($1)].sequence }.map { a in
            let role: ExplainedConstraint.Role =
                broken.contains(a)
                ? .broken
                : determining.contains(a)
                    ? .determining
                    : holds(a) ? .satisfied : .unsatisfied
            return ExplainedConstraint(
                id: document.atomName(a), description: document.describe(a),
                priority: document.atoms[Int(a)].priority, broken: role == .broken, role: role)
        }
    }

    /// Whether an atom's constraint holds at the engine's current values.
    private func holds(_ a: AtomRef) -> Bool {
        guard let h = link(a)?.handle, let d = solver.definition(h) else { return true }
        var v = d.expression.constant
        var scale = abs(v)
        for t in d.expression.terms {
            let x = t.coefficient * solver.value(t.variable)
            v += x
            scale = max(scale, abs(x))
        }
        let eps = 1e-7 * max(1, scale)
        switch d.relation {
        case .equal: return abs(v) <= eps
        case .greaterOrEqual: return v >= -eps
        case .lessOrEqual: return v <= eps
        }
    }

    /// The view tree, one view a line, indented, with `AMBIGUOUS LAYOUT` and the axis
    /// after each ambiguous view (like `_autolayoutTrace`). Indented four spaces a level up
    /// to `traceIndentLevels`, then by its depth written out: the text stays linear in the
    /// views (spaces all the way made a 13,500-deep chain 364 MB). Walked with a stack of
    /// its own, not recursion, whatever the depth.
    public func trace() -> String {
        var ambiguous: [String: [Axis]] = [:]
        for d in diagnostics() { if case .ambiguous(let v, let axis) = d { ambiguous[v, default: []].append(axis) } }
        var lines: [String] = []
        let children = document.childLists()
        var stack: [(ViewRef, Int)] = document.viewOrder.filter { document.views[Int($0)].parent == .noRef }.reversed().map { ($0, 0) }
        while let (v, depth) = stack.popLast() {
            let spec = document.views[Int(v)].spec
            guard let f = views.reported(v)?.frame else { continue }
            let id = spec.id
            let indent = depth <= Self.traceIndentLevels ? String(repeating: "    ", count: depth) : "[\(depth)] "
            var line = indent + (depth == 0 ? "•" : "|") + id
            if spec.isGuide { line += " [guide]" }
            line += " (\(fmt(f.x)), \(fmt(f.y)), \(fmt(f.width)), \(fmt(f.height)))"
            if spec.hidden { line += " hidden" }
            if let axes = ambiguous[id] { line += " AMBIGUOUS LAYOUT " + axes.map(\.rawValue).joined(separator: ", ") }
            lines.append(line)
            for c in (children[v] ?? []).reversed() { stack.append((c, depth + 1)) }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Levels a trace indents with spaces; deeper lines say their depth instead.
    static let traceIndentLevels = 32

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
