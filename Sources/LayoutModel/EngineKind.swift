public import ConstraintSolver

#if canImport(Glibc)
    import Glibc
#endif

/// Which engine a session runs on: the model picks it; the solver only provides both.
public enum EngineKind: String, Sendable, CaseIterable {
    case solved, factored

    public func make() -> any ConstraintEngine {
        switch self {
        case .solved: return Solver()
        case .factored: return FactoredSolver()
        }
    }

    /// `LAYOUTD_ENGINE` when set (so a test run can exercise either engine on every
    /// document), else the solved form, large documents going to the factored basis
    /// (`SessionLimits.factoredFromViews`).
    public static let defaultKind: EngineKind = {
        guard let raw = getenv("LAYOUTD_ENGINE") else { return .solved }
        return EngineKind(rawValue: String(cString: raw)) ?? .solved
    }()

    /// nil when `LAYOUTD_ENGINE` names an engine (it holds for every document), else the
    /// automatic threshold.
    public static let defaultFactoredFromViews: Int? = getenv("LAYOUTD_ENGINE") == nil ? SessionLimits.autoFactoredFromViews : nil
}
