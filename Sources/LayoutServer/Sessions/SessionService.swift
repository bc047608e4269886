import CheckedNumbers
import HTTPTransport
import JSON
import LayoutModel
import Prometheus
import Synchronization
import WorkBudget

/// The one door into a session: HTTP routes and WebSocket streams both reach the model
/// through here. It holds the store, its persistence and the metrics a change counts in;
/// what comes back is a model value or a `Problem`, never an HTTP response.
final class SessionService: Sendable {
    private let store: SessionStore
    let metrics: ServerMetrics
    let configuration: ServerConfiguration
    /// The durable store behind the sessions; nil keeps them in memory only.
    private let persistence: SessionPersistence?
    /// Creations under way, by tenant: counted with its live sessions, so that concurrent
    /// creates cannot all pass a quota that has room for one.
    private let creating = Mutex<[String: Int]>([:])
    /// The one-shot work a session shares: the memory budget, sizes, pictures, counting diagnostics.
    let layouts: LayoutService

    init(store: SessionStore, layouts: LayoutService, persistence: SessionPersistence?) {
        self.store = store
        self.layouts = layouts
        metrics = layouts.metrics
        configuration = layouts.configuration
        self.persistence = persistence
    }

    /// A body of `/changes` or `/constants` (also what a stream message is).
    enum Change {
        case ops(JSON)
        case constants(JSON)
        /// A whole new document (`PUT …/document`), as sent: applied as the ops it differs by.
        case document([UInt8])
    }

    /// A tenant's live sessions: with a store, those it holds (every replica's) and those in
    /// memory not yet written; without, those in memory. A deletion not yet written still
    /// counts, for a flush interval at most under relaxed durability (never under strict).
    private func liveSessions(of owner: String) throws(Problem) -> Int {
        guard let persistence else { return store.count(ownedBy: owner) }
        return try persistence.storedCount(ownedBy: owner) + store.count(ownedBy: owner, unstored: true)
    }

    /// Takes one of the tenant's session slots for a creation under way (given back when it
    /// ends, made or not: a made session counts as live by then), or 429.
    private func reserveCreation(of owner: String, quota n: Int) throws(Problem) {
        let live = try liveSessions(of: owner)
        let taken = creating.withLock { pending -> Bool in
            guard live + pending[owner, default: 0] < n else { return false }
            pending[owner, default: 0] += 1
            return true
        }
        guard taken else {
            metrics.tenant(owner, "sessions")
            throw Problem(429, "tenant \(owner) keeps at most \(n) sessions: delete one or retry later", headers: [("Retry-After", "1")])
        }
    }

    /// The limits a change to a tenant's session runs under: its quotas of views and
    /// constraints, and the heap its memory share leaves this session beside its others.
    private func tighten(_ s: LayoutSession, of box: SessionBox, for caller: Caller) {
        var limits = s.limits
        limits.maxViews = configuration.maxViewsPerSession
        limits.maxConstraints = configuration.maxConstraintsPerSession
        limits.maxHeapEstimate = nil
        if let quotas = caller.tenant?.quotas {
            if let n = quotas.viewsPerSession { limits.maxViews = min(limits.maxViews, n) }
            if let n = quotas.constraintsPerSession { limits.maxConstraints = min(limits.maxConstraints, n) }
            let budget = configuration.memoryBudget.limitBytes
            if let share = quotas.memoryShare, budget > 0 {
                let others = store.heapEstimate(ownedBy: caller.owner) - box.heapEstimate.load(ordering: .relaxed)
                limits.maxHeapEstimate = Int(saturating: share * Double(budget)) - others
            }
        }
        s.limits = limits
    }

    /// A tenant's sessions in memory hold at most its share of the budget (estimated: see
    /// `LayoutSession.heapEstimate`), so one tenant cannot spend the memory another needs.
    /// Checked at creation, before the build and with the new session's own estimate after.
    private func checkMemoryShare(of caller: Caller, adding bytes: Int) throws(Problem) {
        let budget = configuration.memoryBudget.limitBytes
        guard let share = caller.tenant?.quotas.memoryShare, budget > 0 else { return }
        let allowed = Int(saturating: share * Double(budget))
        let held = store.heapEstimate(ownedBy: caller.owner)
        guard held + max(bytes, 1) > allowed else { return }
        metrics.tenant(caller.owner, "memory")
        throw Problem(
            429,
            "tenant \(caller.owner)'s sessions would hold \((held + bytes) >> 20) MiB, past its share of the memory budget (\(allowed >> 20) MiB): delete sessions it no longer needs",
            headers: [("Retry-After", "5")])
    }

    // MARK: Sessions

    struct Created {
        let box: SessionBox
        let result: ChangeResult
        /// What the answer waits for under the store's policy.
        let ticket: SessionPersistence.Ticket?
        /// A parsed tree, if one was made: freed after the answer is queued.
        let document: JSON?
    }

    /// A new session from a document (`proposed`: the id a trusted proxy chose), owned by
    /// its caller, within the caller's quotas.
    func create(_ body: [UInt8], proposed: String?, for caller: Caller) throws(Problem) -> Created {
        try layouts.checkMemoryBudget()
        try persistence?.checkWritable()
        var limits = configuration.sessionLimits
        if let quotas = caller.tenant?.quotas {
            if let n = quotas.viewsPerSession { limits.maxViews = min(limits.maxViews, n) }
            if let n = quotas.constraintsPerSession { limits.maxConstraints = min(limits.maxConstraints, n) }
            try checkMemoryShare(of: caller, adding: 0)
            // Last: nothing between the reservation and the `defer` that gives it back throws.
            if let n = quotas.sessions { try reserveCreation(of: caller.owner, quota: n) }
        }
        defer { if caller.tenant?.quotas.sessions != nil { creating.withLock { $0[caller.owner, default: 1] -= 1 } } }
        let t0 = monotonicNanos()
        let (session, doc) = try Self.session(body, limits: limits, oneShot: false)
        session.compact()
        try checkMemoryShare(of: caller, adding: session.heapEstimate)
        metrics.solveTime.recordNanoseconds(Int64(monotonicNanos() - t0))
        // With replicas on one store, the id's lease first: the session is this replica's.
        let claim = try persistence?.claimNew(proposed)
        let box: SessionBox
        do throws(SessionStore.InsertError) {
            box = try store.insert(
                session, id: claim?.id ?? proposed, epoch: claim?.epoch ?? 0, leaseUntil: claim?.until ?? .max, owner: caller.owner)
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
        let ticket = persistence?.created(box, document: body)
        metrics.sessionsCreated.increment()
        let result = ChangeResult(revision: session.revision, frames: session.allFrames, removed: [], diagnostics: session.diagnostics(), added: [])
        layouts.count(result.diagnostics)
        return Created(box: box, result: result, ticket: ticket, document: doc)
    }

    /// Runs `body` on the caller's session under its lock (restored first if it is only
    /// stored); nil when the caller has no such session (another tenant's is none of theirs).
    func read<T>(_ key: SessionKey, for caller: Caller, _ body: (SessionBox, LayoutSession) throws(Problem) -> T) throws(Problem) -> T? {
        try store.withSession(key) { box, s throws(Problem) -> T? in box.owner == caller.owner ? try body(box, s) : nil } ?? nil
    }

    /// Whether the caller has the session (restoring it if it is only stored).
    func exists(_ id: String, for caller: Caller) throws(Problem) -> Bool { try store.get(id).map { $0.owner == caller.owner } ?? false }

    /// `frames-at`: the caller's session laid out at each size, then as it was (nil: no such
    /// session). Under the session's lock, so no change lands half-way through.
    func framesAt(_ key: SessionKey, for caller: Caller, _ body: JSON) throws(Problem) -> (SizeList, [SizedLayout])? {
        // The session first: a request for one that does not exist is 404 whatever its sizes.
        try read(key, for: caller) { _, s throws(Problem) in
            guard let members = body.members else { throw Problem(422, "a frames-at body is {\"sizes\": [...]}", pointer: "") }
            for (k, _) in members where k != "sizes" { throw Problem(422, "unknown field '\(k)'", pointer: "/\(jsonPointerToken(k))") }
            let list = try layouts.sizeList(body["sizes"])
            do throws(LayoutError) {
                let layouts = try s.layouts(at: list.entries.map(\.size))
                for l in layouts { self.layouts.count(l.diagnostics) }
                return (list, layouts)
            } catch { throw Problem(error) }
        }
    }

    /// What a picture of the caller's session draws, as it is (nil: no such session). Read
    /// under the session's lock; the drawing is the wire side's, after it.
    func scene(_ key: SessionKey, for caller: Caller) throws(Problem) -> SessionScene? {
        try read(key, for: caller) { _, s in s.scene() }
    }

    /// Keeps a session in memory from idle eviction (an open stream on it).
    func keepAlive(_ id: String) { store.touch(id) }

    /// Applies a change under the session's lock, timing the engine, queues it for the store,
    /// and has `answer` encode the result while the lock is still held (no copy of the frames
    /// is made). nil when there is no such session; the ticket is what the answer waits for.
    func apply<T>(_ change: Change, to key: SessionKey, for caller: Caller, timed: Bool, answer: (ChangeResult, WireFormat.Timing?) -> T)
        throws(Problem) -> (T, SessionPersistence.Ticket?)?
    {
        // The request's budget; a set-constant and a stream's message run under one of their own.
        let outer = WorkBudget.current
        return try store.withSession(key) { box, s throws(Problem) -> (T, SessionPersistence.Ticket?)? in
            guard box.owner == caller.owner else { return nil }
            try persistence?.checkWritable()
            if case .constants = change {} else { tighten(s, of: box, for: caller) }
            let counters = timed ? s.engineWork : nil
            let t0 = monotonicNanos()
            let result: ChangeResult
            // What the journal keeps: the change as sent, or the ops a document differed by.
            var journaled: JSON? = nil
            // Kept to roll back to: the change copies what it alters anyway (the session keeps
            // its document until the change commits), so holding it copies nothing more. A
            // set-constant, the fast path, changes the document in place (held, each step
            // would copy it): stopped, it puts back what it changed instead.
            let previous: Earlier? = {
                if case .constants = change { return nil }
                return (s.document, s.revision, s.nextAutoID)
            }()
            var own: WorkBudget? = nil
            do throws(LayoutSession.BodyError) {
                switch change {
                case .ops(let body):
                    result = try within(outer, &own) { () throws(LayoutSession.BodyError) in
                        try refusing { () throws(LayoutError) in try s.apply(changes: body) }
                    }
                case .constants(let body):
                    result = try within(outer, &own) { () throws(LayoutSession.BodyError) in
                        try refusing { () throws(LayoutError) in try s.setConstants(body) }
                    }
                    metrics.setConstants.increment(by: body.members?.count ?? 0)
                case .document(let body):
                    let put = try within(outer, &own) { () throws(LayoutSession.BodyError) in try s.put(body: body) }
                    (result, journaled) = (put.result, put.changes)
                    for (op, n) in put.result.applied ?? [] { metrics.documentOps(op, count: n) }
                }
            } catch {
                guard let budget = outer ?? own, budget.stoppedWork else { throw Problem(error) }
                try rollBack(box, s, to: previous ?? (s.document, s.revision, s.nextAutoID))
                // A heavy request's stop is answered where its budget was set.
                guard own != nil else { throw Problem(error) }
                metrics.requestsStopped.increment()
                throw Problem(stopped: budget)
            }
            let nanos = monotonicNanos() - t0
            metrics.solveTime.recordNanoseconds(Int64(nanos))
            layouts.count(result.diagnostics)
            var ticket: SessionPersistence.Ticket? = nil
            if let persistence {
                switch change {
                case .ops(let body): ticket = persistence.changed(box, revision: result.revision, body)
                case .document: ticket = persistence.changed(box, revision: result.revision, journaled!)
                case .constants(let body): ticket = persistence.constantsSet(box, revision: result.revision, body)
                }
            }
            let timing = counters.map { c in
                let now = s.engineWork
                return WireFormat.Timing(nanoseconds: nanos, pivots: now.pivots - c.pivots, rowsTouched: now.rowsTouched - c.rowsTouched)
            }
            return (answer(result, timing), ticket)
        } ?? nil
    }

    /// Runs a change under the request's budget (`outer`; the store runs a session's work
    /// outside it), or, without one, under one of its own of `--request-deadline`, named in `own`.
    private func within<R>(_ outer: WorkBudget?, _ own: inout WorkBudget?, _ body: () throws(LayoutSession.BodyError) -> R)
        throws(LayoutSession.BodyError) -> R
    {
        if let outer { return try WorkBudget.run(outer, body) }
        return try WorkBudget.run(seconds: configuration.requestDeadlineSeconds) { budget throws(LayoutSession.BodyError) -> R in
            own = budget
            return try body()
        }
    }

    /// What a change is rolled back to: the session's document, revision and id counter.
    typealias Earlier = (document: LayoutDocument, revision: Int, nextAutoID: Int)

    /// A change stopped half way by its budget: the session built again from the document it
    /// had, at its revision, in the box in its place (no write was queued: the store has it as
    /// it was). Its history of frames starts again (`frames?since=` answers whole).
    private func rollBack(_ box: SessionBox, _ s: LayoutSession, to previous: Earlier) throws(Problem) {
        do throws(LayoutError) {
            let rebuilt = try WorkBudget.run(nil) { () throws(LayoutError) -> LayoutSession in
                try LayoutSession.make(document: previous.document.json, limits: s.limits)
            }
            rebuilt.restore(revision: previous.revision, nextAutoID: previous.nextAutoID)
            rebuilt.compact()
            box.rollBack(to: rebuilt)
        } catch {
            throw Problem(503, "a change stopped half way could not be rolled back: \(error.detail)", headers: [("Retry-After", "1")])
        }
    }

    /// A change's refusal, as a body's (a document's body may also not be JSON).
    private func refusing<R>(_ body: () throws(LayoutError) -> R) throws(LayoutSession.BodyError) -> R {
        do throws(LayoutError) { return try body() } catch { throw .refused(error) }
    }

    /// Deletes a session (restored first if only stored, one path for both); nil when there
    /// is none, else the ticket its answer waits for.
    func delete(_ id: String, for caller: Caller) throws(Problem) -> SessionPersistence.Ticket?? {
        try persistence?.checkWritable()
        guard let box = try store.get(id), box.owner == caller.owner, store.remove(id) else { return nil }
        return .some(persistence?.deleted(box))
    }

    // MARK: Answers and the store's policy

    /// Holds an HTTP answer until `ticket` is durable (a lost write answers 503 instead, one
    /// perhaps stored 502; `session`, a new session's id, is named in that 502).
    func hold(_ response: inout Response, until ticket: SessionPersistence.Ticket?, session: String? = nil) {
        persistence?.hold(&response, until: ticket, session: session)
    }

    /// Blocks until `ticket` is durable: a stream's answers keep their order this way.
    func wait(_ ticket: SessionPersistence.Ticket?) throws(Problem) { try persistence?.wait(ticket) }

    /// A layout document's session (`LayoutSession.make(body:)`: read in place, else from the
    /// tree, which then goes with the answer to be freed).
    static func session(_ body: [UInt8], limits: SessionLimits, oneShot: Bool) throws(Problem) -> (LayoutSession, JSON?) {
        do throws(LayoutSession.BodyError) { return try LayoutSession.make(body: body, limits: limits, oneShot: oneShot) } catch {
            throw Problem(error)
        }
    }
}
