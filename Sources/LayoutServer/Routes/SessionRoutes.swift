import CheckedNumbers
import HTTPTransport
import JSON
import LayoutModel

/// `/v1/sessions`: each route reads its request, asks the session service, and writes the
/// answer with `WireFormat`.
struct SessionRoutes: Sendable {
    let sessions: SessionService

    func register(_ r: inout RouteTable) {
        r.on("POST", "/v1/sessions", caller: { [self] req, caller throws(Problem) in try create(req, caller) })
        r.on("GET", "/v1/sessions/{id}", caller: { [self] req, caller throws(Problem) in try show(req, caller) })
        r.on("DELETE", "/v1/sessions/{id}", caller: { [self] req, caller throws(Problem) in try delete(req, caller) })
        r.on("POST", "/v1/sessions/{id}/changes", caller: { [self] req, caller throws(Problem) in try change(req, caller, .ops(try jsonBody(req))) })
        r.on(
            "PUT", "/v1/sessions/{id}/document",
            caller: { [self] req, caller throws(Problem) in
                try checkJSONMedia(req)
                return try change(req, caller, .document(req.body))
            })
        r.on(
            "POST", "/v1/sessions/{id}/constants",
            caller: { [self] req, caller throws(Problem) in
                try change(req, caller, .constants(try jsonBody(req)))
            })
        r.on("GET", "/v1/sessions/{id}/frames", caller: { [self] req, caller throws(Problem) in try frames(req, caller) })
        r.on("GET", "/v1/sessions/{id}/explain", caller: { [self] req, caller throws(Problem) in try explain(req, caller) })
        r.on("GET", "/v1/sessions/{id}/trace", caller: { [self] req, caller throws(Problem) in try trace(req, caller) })
        r.on("POST", "/v1/sessions/{id}/fitting-size", caller: { [self] req, caller throws(Problem) in try fittingSize(req, caller) })
        r.on("POST", "/v1/sessions/{id}/frames-at", caller: { [self] req, caller throws(Problem) in try framesAt(req, caller) })
        r.on("POST", "/v1/sessions/{id}/exercise-ambiguity", caller: { [self] req, caller throws(Problem) in try exerciseAmbiguity(req, caller) })
    }

    func create(_ req: Request, _ caller: Caller) throws(Problem) -> Response {
        try checkJSONMedia(req)
        var proposed: String? = nil
        if sessions.configuration.trustSessionIDHeader, let h = req.header("X-Layoutd-Session-Id") {
            guard SessionKey(h) != nil else {
                _ = try jsonBody(req)  // a body that is not JSON is answered first, as it always was
                throw Problem(400, "X-Layoutd-Session-Id is 32 lowercase hex digits")
            }
            proposed = h
        }
        let created = try sessions.create(req.body, proposed: proposed, for: caller)
        var res = Response.json(201, WireFormat.change(created.result, session: created.box.id))
        res.headers.append(("Location", "/v1/sessions/\(created.box.id)"))
        res.leftover = created.document  // a parsed tree, if one was made: freed after the answer is queued
        sessions.hold(&res, until: created.ticket, session: created.box.id)
        return res
    }

    func show(_ req: Request, _ caller: Caller) throws(Problem) -> Response {
        guard let key = Self.key(req), let state = try sessions.state(key, for: caller) else { throw notFound(req) }
        return .json(200, WireFormat.session(req.parameter("id"), revision: state.revision, document: state.document, stats: state.stats))
    }

    func delete(_ req: Request, _ caller: Caller) throws(Problem) -> Response {
        guard let ticket = try sessions.delete(req.parameter("id"), for: caller) else { throw notFound(req) }
        var res = Response.noContent
        sessions.hold(&res, until: ticket)
        return res
    }

    /// A change: applied under the session's lock, answered once the store's policy allows.
    func change(_ req: Request, _ caller: Caller, _ change: SessionService.Change) throws(Problem) -> Response {
        let timed = try timingRequested(req)
        guard let key = Self.key(req),
            let (body, ticket) = try sessions.apply(change, to: key, for: caller, timed: timed, answer: { WireFormat.change($0, timing: $1) })
        else { throw notFound(req) }
        var res = Response.json(200, body)
        sessions.hold(&res, until: ticket)
        return res
    }

    func frames(_ req: Request, _ caller: Caller) throws(Problem) -> Response {
        var since: Int? = nil
        if let q = req.query("since") {
            guard let n = Int(q), n >= 0 else { throw Problem(400, "since is a revision: a non-negative integer") }
            since = n
        }
        guard let key = Self.key(req), let answer = try sessions.frames(key, since: since, for: caller) else { throw notFound(req) }
        return .json(200, WireFormat.framesAnswer(answer))
    }

    func explain(_ req: Request, _ caller: Caller) throws(Problem) -> Response {
        guard let view = req.query("view") else { throw Problem(400, "explain needs ?view=V&axis=horizontal|vertical") }
        guard let axis = Axis(rawValue: req.query("axis") ?? "horizontal") else { throw Problem(400, "axis is horizontal or vertical") }
        guard let key = Self.key(req), let list = try sessions.explain(key, view: view, axis: axis, for: caller) else { throw notFound(req) }
        return .json(200, WireFormat.explain(view: view, axis: axis, list))
    }

    func trace(_ req: Request, _ caller: Caller) throws(Problem) -> Response {
        guard let key = Self.key(req), let text = try sessions.trace(key, for: caller) else { throw notFound(req) }
        return .text(200, text)
    }

    func exerciseAmbiguity(_ req: Request, _ caller: Caller) throws(Problem) -> Response {
        guard let key = Self.key(req), let other = try sessions.exerciseAmbiguity(key, for: caller) else { throw notFound(req) }
        return .json(200, WireFormat.revisionFrames(other.revision, other.frames))
    }

    func fittingSize(_ req: Request, _ caller: Caller) throws(Problem) -> Response {
        let body = try jsonBody(req)
        guard let key = Self.key(req), let fitted = try sessions.fittingSize(key, body, for: caller) else { throw notFound(req) }
        return .json(200, WireFormat.fitting(view: fitted.view, width: fitted.width, height: fitted.height))
    }

    /// The session at each of `sizes`, and afterwards as it was.
    func framesAt(_ req: Request, _ caller: Caller) throws(Problem) -> Response {
        let body = try jsonBody(req)
        guard let key = Self.key(req), let (list, layouts) = try sessions.framesAt(key, for: caller, body) else { throw notFound(req) }
        return .json(200, WireFormat.sizes(list, layouts))
    }

    // MARK: Shared steps

    /// The id read from the path's bytes; a String is made only for the 404.
    private static func key(_ req: Request) -> SessionKey? { req.parameterUTF8("id", { SessionKey(utf8: $0) }) ?? nil }

    private func notFound(_ req: Request) -> Problem {
        Problem(404, "no session '\(req.parameter("id"))' (it may have been deleted, or expired from the store)")
    }
}
