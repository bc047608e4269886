import JSON
import LayoutModel

/// What a session is asked without being changed. Each runs under the session's lock (the
/// session restored first if it is only stored) and answers a model value that the wire side
/// writes after the lock is let go; nil when the caller has no such session.
extension SessionService {
    /// `GET /v1/sessions/{id}`: its revision, document and engine's figures.
    func state(_ key: SessionKey, for caller: Caller) throws(Problem) -> (revision: Int, document: JSON, stats: LayoutSession.Stats)? {
        try read(key, for: caller) { _, s in (s.revision, s.document.json, s.stats) }
    }

    /// The frames changed since a revision (all of them without one).
    func frames(_ key: SessionKey, since: Int?, for caller: Caller) throws(Problem) -> LayoutSession.FramesAnswer? {
        try read(key, for: caller) { _, s throws(Problem) in
            do throws(LayoutError) { return try s.frames(since: since) } catch { throw Problem(error) }
        }
    }

    /// The constraints that hold a view on an axis; 404 for a view the session does not have.
    func explain(_ key: SessionKey, view: String, axis: Axis, for caller: Caller) throws(Problem) -> [LayoutSession.ExplainedConstraint]? {
        try read(key, for: caller) { _, s throws(Problem) in
            do throws(LayoutError) { return try s.explain(view: view, axis: axis) } catch { throw Problem(404, error.detail) }
        }
    }

    /// The view tree with each view's frame and ambiguity, as text.
    func trace(_ key: SessionKey, for caller: Caller) throws(Problem) -> String? {
        try read(key, for: caller) { _, s in s.trace() }
    }

    /// The size a view asks for at a target size (`systemLayoutSizeFitting`); the session does not change.
    func fittingSize(_ key: SessionKey, _ request: JSON, for caller: Caller) throws(Problem) -> (view: String, width: Double, height: Double)? {
        try read(key, for: caller) { _, s throws(Problem) in
            do throws(LayoutError) { return try s.fittingSize(request) } catch { throw Problem(error) }
        }
    }

    /// Another valid layout of the ambiguous views, not kept: the revision and its frames.
    func exerciseAmbiguity(_ key: SessionKey, for caller: Caller) throws(Problem) -> (revision: Int, frames: [FrameEntry])? {
        try read(key, for: caller) { _, s in (s.revision, s.exerciseAmbiguity()) }
    }
}
