/// What the engine has to say about a layout, each with a message a person can act on.
public enum Diagnostic: Equatable, Sendable {
    /// `constraint` was broken so the engine could go on; `conflicts` (which contains it)
    /// cannot all hold at once. A set past `SessionLimits.maxConflictsListed` lists that many,
    /// `omitted` the rest.
    case unsatisfiable(constraint: String, conflicts: [String], omitted: Int)
    /// More than one optimal layout moves or resizes `view` along `axis`.
    case ambiguous(view: String, axis: Axis)
    /// Constraints removed (or deactivated) and added back unchanged in one change.
    case churn(constraints: [String], views: [String])

    public var kind: String {
        switch self {
        case .unsatisfiable: return "unsatisfiable"
        case .ambiguous: return "ambiguous"
        case .churn: return "churn"
        }
    }

    public var message: String {
        switch self {
        case let .unsatisfiable(c, conflicts, omitted):
            let others = conflicts.filter { $0 != c }
            return "Unable to satisfy constraints simultaneously: broke '\(c)' to recover. It conflicts with "
                + (others.isEmpty ? "the other required constraints" : others.map { "'\($0)'" }.joined(separator: ", "))
                + (omitted > 0 ? " and \(omitted) more" : "")
                + "; remove one of them or lower a priority below 1000."
        case let .ambiguous(view, axis):
            return "'\(view)' has an ambiguous \(axis.rawValue) layout: more than one optimal layout exists. Add a constraint for its "
                + (axis == .horizontal ? "horizontal position or width" : "vertical position or height")
                + ", or make competing priorities differ."
        case let .churn(cs, views):
            return "\(cs.count) constraint\(cs.count == 1 ? " was" : "s were") removed and added back unchanged in one change ("
                + cs.prefix(5).map { "'\($0)'" }.joined(separator: ", ") + (cs.count > 5 ? ", …" : "") + ") on "
                + views.prefix(5).map { "'\($0)'" }.joined(separator: ", ") + (views.count > 5 ? ", …" : "")
                + ": keep constraints that do not change and change only what differs (set-constant, activate/deactivate)."
        }
    }
}
