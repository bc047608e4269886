import HTTPTransport
import JSON
import LayoutModel
import Prometheus

/// The v1 layout endpoints: one-shot layout and sessions. A class: every route's closure
/// captures one reference, not a copy of the configuration.
final class LayoutRoutes: Sendable {
    let store: SessionStore
    let metrics: ServerMetrics
    let configuration: ServerConfiguration
    /// The durable store behind the sessions; nil keeps them in memory only.
    let persistence: SessionPersistence?

    init(store: SessionStore, metrics: ServerMetrics, configuration: ServerConfiguration, persistence: SessionPersistence?) {
        self.store = store
        self.metrics = metrics
        self.configuration = configuration
        self.persistence = persistence
    }

    func register(_ r: inout RouteTable) {
        r.on("POST", "/v1/layout") { [self] req throws(Problem) in
            try checkMemoryBudget()
            try checkJSONMedia(req)
            // One shot: a session made, read and dropped.
            let (session, doc) = try documentSession(req, limits: configuration.layoutLimits, oneShot: true)
            let diagnostics = session.diagnostics()
            count(diagnostics)
            var res = Response.json(200, WireFormat.layout(session, diagnostics))
            // Freed after the answer is queued: 2–3 ms sooner for 1,000 cells (BENCHMARKS §4).
            res.leftover = Discarded(session: session, document: doc)
            return res
        }
        r.on("POST", "/v1/fitting-size") { [self] req throws(Problem) in
            try checkMemoryBudget()
            let body = try jsonBody(req)
            do throws(LayoutError) {
                let fitted = try LayoutSession.fittingSize(body, limits: configuration.layoutLimits)
                return .json(200, WireFormat.fitting(view: fitted.view, width: fitted.width, height: fitted.height))
            } catch { throw Problem(error) }
        }
        r.on("POST", "/v1/sessions") { [self] req throws(Problem) in
            try checkMemoryBudget()
            try persistence?.checkWritable()
            try checkJSONMedia(req)
            var proposed: String? = nil
            if configuration.trustSessionIDHeader, let h = req.header("X-Layoutd-Session-Id") {
                guard SessionStore.isValidID(h) else {
                    _ = try jsonBody(req)  // a body that is not JSON is answered first, as it always was
                    throw Problem(400, "X-Layoutd-Session-Id is 32 lowercase hex digits")
                }
                proposed = h
            }
            let t0 = monotonicNanos()
            let (session, doc) = try documentSession(req, limits: configuration.sessionLimits, oneShot: false)
            session.compact()
            let nanos = monotonicNanos() - t0
            metrics.solveTime.recordNanoseconds(Int64(nanos))
            // With replicas on one store, the id's lease first: the session is this replica's.
            let claim = try persistence?.claimNew(proposed)
            let box: SessionBox
            do throws(SessionStore.InsertError) {
                box = try store.insert(session, id: claim?.id ?? proposed, epoch: claim?.epoch ?? 0, leaseUntil: claim?.until ?? .max)
            } catch {
                if let claim { persistence?.abandon(claim) }
                switch error {
                case .full:
                    throw Problem(
                        429, "the server keeps at most \(store.maxSessions) sessions: delete one or retry later", headers: [("Retry-After", "1")])
                case .idTaken: throw Problem(409, "a session with id \(proposed ?? "") exists")
                }
            }
            // The body as sent is the snapshot: it builds the same session again.
            let ticket = persistence?.created(box, document: req.body)
            metrics.sessionsCreated.increment()
            let result = ChangeResult(
                revision: session.revision, frames: session.allFrames, removed: [],
                diagnostics: session.diagnostics(), added: [])
            count(result.diagnostics)
            var res = Response.json(201, WireFormat.change(result, session: box.id))
            res.headers.append(("Location", "/v1/sessions/\(box.id)"))
            res.leftover = doc  // a parsed tree, if one was made: freed after the answer is queued
            persistence?.hold(&res, until: ticket)
            return res
        }
        r.on("GET", "/v1/sessions/{id}") { [self] req throws(Problem) in
            try withSession(req) { box, s in
                let st = s.stats
                return .json(
                    200,
                    JSON.object([
                        ("session", .string(box.id)), ("revision", .number(Double(s.revision))), ("document", s.document.json),
                        (
                            "stats",
                            .object([
                                ("views", .number(Double(st.views))), ("constraints", .number(Double(st.constraints))),
                                ("rows", .number(Double(st.rows))), ("columns", .number(Double(st.columns))),
                                ("pivots", .number(Double(st.pivots))), ("broken", .number(Double(st.broken))),
                                ("priorityLevels", .number(Double(st.priorityLevels)))
                            ])
                        )
                    ]))
            }
        }
        r.on("DELETE", "/v1/sessions/{id}") { [self] req throws(Problem) in
            let id = req.parameter("id")
            try persistence?.checkWritable()
            // A stored session not in memory is restored first: one path for both.
            guard let box = try store.get(id), store.remove(id) else { throw Problem(404, "no session '\(id)'") }
            var res = Response.noContent
            persistence?.hold(&res, until: persistence?.deleted(box))
            return res
        }
        r.on("POST", "/v1/sessions/{id}/changes") { [self] req throws(Problem) in
            let body = try jsonBody(req)
            return try changed(req, .ops(body))
        }
        r.on("POST", "/v1/sessions/{id}/constants") { [self] req throws(Problem) in
            let body = try jsonBody(req)
            return try changed(req, .constants(body))
        }
        r.on("GET", "/v1/sessions/{id}/frames") { [self] req throws(Problem) in
            var since: Int? = nil
            if let q = req.query("since") {
                guard let n = Int(q), n >= 0 else { throw Problem(400, "since is a revision: a non-negative integer") }
                since = n
            }
            return try withSession(req) { _, s throws(Problem) in
                do throws(LayoutError) { return .json(200, WireFormat.framesAnswer(try s.frames(since: since))) } catch { throw Problem(error) }
            }
        }
        r.on("GET", "/v1/sessions/{id}/explain") { [self] req throws(Problem) in
            guard let view = req.query("view") else { throw Problem(400, "explain needs ?view=V&axis=horizontal|vertical") }
            guard let axis = Axis(rawValue: req.query("axis") ?? "horizontal") else { throw Problem(400, "axis is horizontal or vertical") }
            return try withSession(req) { _, s throws(Problem) in
                let list: [LayoutSession.ExplainedConstraint]
                do throws(LayoutError) { list = try s.explain(view: view, axis: axis) } catch { throw Problem(404, error.detail) }
                return .json(
                    200,
                    JSON.object([
                        ("view", .string(view)), ("axis", .string(axis.rawValue)),
                        (
                            "constraints",
                            .array(
                                list.map { c in
                                    .object([
                                        ("id", .string(c.id)), ("description", .string(c.description)),
                                        ("priority", .number(c.priority)), ("broken", .bool(c.broken)), ("role", .string(c.role.rawValue))
                                    ])
                                })
                        )
                    ]))
            }
        }
        r.on("GET", "/v1/sessions/{id}/trace") { [self] req throws(Problem) in
            try withSession(req) { _, s in .text(200, s.trace()) }
        }
        r.on("POST", "/v1/sessions/{id}/fitting-size") { [self] req throws(Problem) in
            let body = try jsonBody(req)
            return try withSession(req) { _, s throws(Problem) in
                do throws(LayoutError) {
                    let fitted = try s.fittingSize(body)
                    return .json(200, WireFormat.fitting(view: fitted.view, width: fitted.width, height: fitted.height))
                } catch { throw Problem(error) }
            }
        }
        r.on("POST", "/v1/sessions/{id}/exercise-ambiguity") { [self] req throws(Problem) in
            try withSession(req) { _, s in
                var w = JSONWriter()
                w.beginObject()
                w.key("revision"); w.int(s.revision)
                w.key("frames"); WireFormat.frames(&w, s.exerciseAmbiguity())
                w.endObject()
                return .json(200, w.bytes)
            }
        }
    }

    // MARK: Shared steps

    /// Checked before a document is parsed, so a refused request allocates nothing.
    func checkMemoryBudget() throws(Problem) {
        guard configuration.memoryBudget.isSpent else { return }
        throw Problem(
            503,
            "the server's memory budget (\(configuration.memoryBudget.limitBytes >> 20) MiB) is spent: delete sessions you no longer need, or retry later",
            headers: [("Retry-After", "5")])
    }

    func withSession<T>(_ req: Request, _ body: (SessionBox, LayoutSession) throws(Problem) -> T) throws(Problem) -> T {
        // The id is read from the path's bytes; a String is made only for the 404.
        guard let key = req.parameterUTF8("id", { SessionKey(utf8: $0) }) ?? nil,
            let result = try store.withSession(key, body)
        else { throw notFound(req) }
        return result
    }

    private func notFound(_ req: Request) -> Problem {
        Problem(404, "no session '\(req.parameter("id"))' (it may have been deleted, or expired from the store)")
    }

    /// A change over HTTP: applied under the session's lock, answered once the store's policy allows.
    private func changed(_ req: Request, _ change: Change) throws(Problem) -> Response {
        let timed = try Self.timingRequested(req)
        var ticket: SessionPersistence.Ticket? = nil
        var res = try withSession(req) { box, s throws(Problem) in
            let (result, t, timing) = try apply(s, change, in: box, timed: timed)
            ticket = t
            return Response.json(200, WireFormat.change(result, timing: timing))
        }
        persistence?.hold(&res, until: ticket)
        return res
    }

    /// `?timing=true` asks for what the engine did (as the playground's timeline shows it).
    static func timingRequested(_ req: Request) throws(Problem) -> Bool {
        switch req.query("timing") {
        case nil, "false", "0": return false
        case "true", "1": return true
        default: throw Problem(400, "timing is true or false")
        }
    }

    /// A body of `/changes` or `/constants` (also what a stream message is).
    enum Change {
        case ops(JSON)
        case constants(JSON)
    }

    /// Applies a change, timing the engine (the session store keeps the engine gauges), and
    /// queues it for the store: the ticket, when there is one, is what its answer waits for.
    func apply(_ s: LayoutSession, _ change: Change, in box: SessionBox, timed: Bool = false) throws(Problem)
        -> (ChangeResult, SessionPersistence.Ticket?, WireFormat.Timing?)
    {
        try persistence?.checkWritable()
        let counters = timed ? s.engineWork : nil
        let t0 = monotonicNanos()
        let result: ChangeResult
        do throws(LayoutError) {
            switch change {
            case .ops(let body): result = try s.apply(changes: body)
            case .constants(let body):
                result = try s.setConstants(body)
                metrics.setConstants.increment(by: body.members?.count ?? 0)
            }
        } catch { throw Problem(error) }
        let nanos = monotonicNanos() - t0
        metrics.solveTime.recordNanoseconds(Int64(nanos))
        count(result.diagnostics)
        var ticket: SessionPersistence.Ticket? = nil
        if let persistence {
            switch change {
            case .ops(let body): ticket = persistence.changed(box, revision: result.revision, body)
            case .constants(let body): ticket = persistence.constantsSet(box, revision: result.revision, body)
            }
        }
        let timing = counters.map { c in
            let now = s.engineWork
            return WireFormat.Timing(nanoseconds: nanos, pivots: now.pivots - c.pivots, rowsTouched: now.rowsTouched - c.rowsTouched)
        }
        return (result, ticket, timing)
    }

    func count(_ ds: [Diagnostic]) {
        guard !ds.isEmpty else { return }
        var by: [String: Int] = [:]
        for d in ds { by[d.kind, default: 0] += 1 }
        for (k, n) in by { metrics.diagnostic(k, count: n) }
    }
}

/// A layout document's session (`LayoutSession.make(body:)`: read in place, else from the
/// tree, which then goes with the answer to be freed): 400 or the document's problem. The
/// media type is the caller's to check first.
func documentSession(_ req: Request, limits: SessionLimits, oneShot: Bool) throws(Problem) -> (LayoutSession, JSON?) {
    do throws(LayoutSession.BodyError) { return try LayoutSession.make(body: req.body, limits: limits, oneShot: oneShot) } catch {
        switch error {
        case .notJSON(let e): throw notJSON(e)
        case .refused(let e): throw Problem(e)
        }
    }
}

/// The request body as JSON: 415 unless it says JSON, 400 unless it is JSON.
func jsonBody(_ req: Request) throws(Problem) -> JSON {
    try checkJSONMedia(req)
    do { return try JSONParser.parse(req.body) } catch { throw notJSON(error) }
}

private func notJSON(_ error: JSONParseError) -> Problem {
    Problem(400, "the body is not JSON: \(error.message) at byte \(error.offset)", pointer: "")
}

/// 415 unless the body says it is JSON.
func checkJSONMedia(_ req: Request) throws(Problem) {
    // The common spelling is checked in place; anything else is parsed below.
    if !req.header("Content-Type", is: "application/json") {
        guard let header = req.header("Content-Type") else {
            throw Problem(415, "send the body as application/json (Content-Type is missing)")
        }
        let media = header.lowercased().split(separator: ";").first.map { $0.trimming(" ") } ?? ""
        guard media == "application/json" || media.hasSuffix("+json") else {
            throw Problem(415, "send the body as application/json, not \(media)")
        }
    }
}

/// A one-shot layout's session and document, handed to the transport only to be freed.
/// Unchecked: the answer holds the only references, and the worker only drops them.
private struct Discarded: @unchecked Sendable {
    let session: LayoutSession
    let document: JSON?
}
