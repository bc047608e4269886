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
        r.on("GET", "/v1/sessions/{id}/trace", caller: { [self] req, caller throws(Problem) in try read(req, caller) { .text(200, $0.trace()) } })
        r.on("POST", "/v1/sessions/{id}/fitting-size", caller: { [self] req, caller throws(Problem) in try fittingSize(req, caller) })
        r.on("POST", "/v1/sessions/{id}/frames-at", caller: { [self] req, caller throws(Problem) in try framesAt(req, caller) })
        r.on(
            "POST", "/v1/sessions/{id}/exercise-ambiguity",
            caller: { [self] req, caller throws(Problem) in
                try read(req, caller) { s in .json(200, WireFormat.revisionFrames(s.revision, s.exerciseAmbiguity())) }
            })
    }

    func create(_ req: Request, _ caller: Caller) throws(Problem) -> Response {
        try checkJSONMedia(req)
        var proposed: String? = nil
        if sessions.configuration.trustSessionIDHeader, let h = req.header("X-Layoutd-Session-Id") {
            guard SessionStore.isValidID(h) else {
                _ = try jsonBody(req)  // a body that is not JSON is answered first, as it always was
                throw Problem(400, "X-Layoutd-Session-Id is 32 lowercase hex digits")
            }
            proposed = h
        }
        let created = try sessions.create(req.body, proposed: proposed, for: caller)
        var res = Response.json(201, WireFormat.change(created.result, session: created.box.id))
        res.headers.append(("Location", "/v1/sessions/\(created.box.id)"))
        res.leftover = created.document  // a parsed tree, if one was made: freed after the answer is queued
        sessions.hold(&res, until: created.ticket)
        return res
    }

    func show(_ req: Request, _ caller: Caller) throws(Problem) -> Response {
        let id = req.parameter("id")
        return try read(req, caller) { .json(200, WireFormat.session(id, $0)) }
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
        return try read(req, caller) { s throws(Problem) in
            do throws(LayoutError) { return .json(200, WireFormat.framesAnswer(try s.frames(since: since))) } catch { throw Problem(error) }
        }
    }

    func explain(_ req: Request, _ caller: Caller) throws(Problem) -> Response {
        guard let view = req.query("view") else { throw Problem(400, "explain needs ?view=V&axis=horizontal|vertical") }
        guard let axis = Axis(rawValue: req.query("axis") ?? "horizontal") else { throw Problem(400, "axis is horizontal or vertical") }
        return try read(req, caller) { s throws(Problem) in
            do throws(LayoutError) { return .json(200, WireFormat.explain(view: view, axis: axis, try s.explain(view: view, axis: axis))) } catch {
                throw Problem(404, error.detail)
            }
        }
    }

    func fittingSize(_ req: Request, _ caller: Caller) throws(Problem) -> Response {
        let body = try jsonBody(req)
        return try read(req, caller) { s throws(Problem) in
            do throws(LayoutError) {
                let fitted = try s.fittingSize(body)
                return .json(200, WireFormat.fitting(view: fitted.view, width: fitted.width, height: fitted.height))
            } catch { throw Problem(error) }
        }
    }

    /// The session at each of `sizes`, and afterwards as it was.
    func framesAt(_ req: Request, _ caller: Caller) throws(Problem) -> Response {
        let body = try jsonBody(req)
        guard let key = Self.key(req), let (list, layouts) = try sessions.framesAt(key, for: caller, body) else { throw notFound(req) }
        return .json(200, WireFormat.sizes(list, layouts))
    }

    // MARK: Shared steps

    /// The session the path names, under its lock; 404 when there is none.
    private func read(_ req: Request, _ caller: Caller, _ body: (LayoutSession) throws(Problem) -> Response) throws(Problem) -> Response {
        guard let key = Self.key(req), let res = try sessions.read(key, for: caller, { _, s throws(Problem) in try body(s) }) else {
            throw notFound(req)
        }
        return res
    }

    /// The id read from the path's bytes; a String is made only for the 404.
    private static func key(_ req: Request) -> SessionKey? { req.parameterUTF8("id", { SessionKey(utf8: $0) }) ?? nil }

    private func notFound(_ req: Request) -> Problem {
        Problem(404, "no session '\(req.parameter("id"))' (it may have been deleted, or expired from the store)")
    }
}
