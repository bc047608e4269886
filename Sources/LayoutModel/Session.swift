public import ConstraintSolver
public import JSON
#if canImport(Glibc)
    import Glibc
#endif
import CheckedNumbers
import TextLayout
import WorkBudget

/// A view's reported frame in its parent's coordinates, with its hidden flag.
public struct FrameEntry: Equatable, Sendable {
    public var id: String
    public var frame: Rect
    public var hidden: Bool
    public init(id: String, frame: Rect, hidden: Bool) { (self.id, self.frame, self.hidden) = (id, frame, hidden) }
}

/// The answer to a change.
public struct ChangeResult: Sendable {
    public var revision: Int
    public var frames: [FrameEntry]
    public var removed: [String]
    public var diagnostics: [Diagnostic]
    /// Ids of the constraints this change added, in order (server-given ones included).
    public var added: [String]
    /// A document sent whole: how many items each op the server found carried.
    public var applied: [(op: String, count: Int)]? = nil

    public init(revision: Int, frames: [FrameEntry], removed: [String], diagnostics: [Diagnostic], added: [String]) {
        self.revision = revision; self.frames = frames; self.removed = removed; self.diagnostics = diagnostics; self.added = added
    }
}

public struct SessionLimits: Sendable {
    public var maxViews: Int
    public var maxConstraints: Int
    /// The heap (`heapEstimate`) a change may grow the session to (nil: any): its tenant's
    /// share of memory, less what its other sessions hold. Checked before the engine is
    /// touched, from the views and constraints the change adds; a change that adds none
    /// always passes.
    public var maxHeapEstimate: Int? = nil
    /// Views nested at most this deep (a root is 0): every walk of the tree, and a trace's
    /// indentation, follows the depth.
    public var maxDepth = 512
    /// Names an unsatisfiable diagnostic lists of its conflicting set at most (the rest
    /// counted): the answer stays linear in the document.
    public var maxConflictsListed = 64
    public var historyDepth: Int
    /// The engine sessions are built on.
    public var engine: EngineKind
    /// Documents of at least this many views are built on the factored basis whatever
    /// `engine` says (nil: always `engine`). The solved form has the cheaper set-constant
    /// (`make load`: 0.80 of the bare server against 0.69), the factored basis stays linear
    /// on chains, where the solved form fills in as n² (a 1,000-cell feed of wrapping labels
    /// builds in 326 ms against 1,974; BENCHMARKS.md §7): small documents take the first,
    /// large ones the second. A session grown past it by a change moves to the factored basis.
    public var factoredFromViews: Int?
    /// `--engine auto`'s threshold: the solved form's fill-in is small below it.
    public static let autoFactoredFromViews = 128

    public init(
        maxViews: Int = 20_000, maxConstraints: Int = 100_000, historyDepth: Int = 256,
        engine: EngineKind = .defaultKind, factoredFromViews: Int? = EngineKind.defaultFactoredFromViews
    ) {
        self.maxViews = maxViews; self.maxConstraints = maxConstraints; self.historyDepth = historyDepth
        self.engine = engine
        self.factoredFromViews = factoredFromViews
    }

    /// The engine a document of `views` views and `constraints` constraints is built on. Many
    /// constraints on few views go to the factored basis too: the solved form explains each
    /// conflict it breaks by a scan of the constraints on its variables (two views and 8,000
    /// constraints at odds: 1,353 ms solved, 9 ms factored).
    public func engine(forViews views: Int, constraints: Int = 0) -> EngineKind {
        if let n = factoredFromViews, views >= n || constraints >= 8 * n { return .factored }
        return engine
    }
}

/// One engine and one document, changed together. Not thread-safe: the server serialises
/// each session's requests.
public final class LayoutSession {
    public private(set) var solver: any ConstraintEngine
    /// Which engine `solver` is.
    public private(set) var engineKind: EngineKind
    public internal(set) var document = LayoutDocument()
    public private(set) var revision = 1
    /// What the session may grow to; a server tightens them for its tenant before a change
    /// (its quotas apply to a session restored from the store as to one just made).
    public var limits: SessionLimits

    /// Each view's variables and last reported frame, stamped with the revision that
    /// changed it: `frames(since:)` reads the stamps, so a change records no history.
    var views = ViewTable()
    var viewOfVariable = VariableOwners()
    /// By `AtomRef`: each atom's constraint in the engine (nil while inactive). Its terms
    /// are the engine's to keep: a second copy here was 0.2 KB a view.
    var links = EngineLinks()
    /// Views removed, by revision (rare: only ops remove views). Kept for the last
    /// `historyDepth` revisions, the window in which `frames(since:)` answers incrementally.
    var removals: [(revision: Int, view: String)] = []
    var lastChurn: [Diagnostic] = []
    /// Buffers `finish` reuses from change to change.
    var movedScratch: [Variable] = []
    /// Variables moved during the text passes of a change, before `finish` takes the rest.
    var carriedMoves: [Variable] = []
    var slotScratch: [ViewRef] = []
    /// What a set-constant changed, to put back if its budget stops it.
    var earlierScratch: [LayoutDocument.EarlierConstant] = []

    /// Builds a session from a layout document (the body of `POST /v1/sessions`). A
    /// `oneShot` session is read once and dropped (`POST /v1/layout`): its document keeps
    /// no `expr` texts, which only a kept session gives back (21 M instructions of the
    /// 1,000-cell feed's build rendered each text to see whether it needed keeping).
    public convenience init(document json: JSON, limits: SessionLimits = SessionLimits(), oneShot: Bool = false) throws(LayoutError) {
        try self.init(built: Self.loaded(json, oneShot: oneShot), viewsSent: json["views"]?.array?.count ?? 0, limits: limits)
    }

    /// A session on a document already decoded; the number of views sent picks the engine.
    private init(built doc: consuming LayoutDocument, viewsSent: Int, limits: SessionLimits) throws(LayoutError) {
        self.limits = limits
        engineKind = Self.engine(for: doc, views: viewsSent, limits: limits)
        solver = engineKind.make()
        try commit(consume doc, added: [], countRevision: false, collect: false)
    }

    /// Builds on the engine the limits name; if the factored basis had to recover (rows so
    /// ill-scaled that its simplex cycled: one random extreme document in 500 seen), builds
    /// again on the solved form, so an answer is never worse than the solved form's.
    public static func make(document json: JSON, limits: SessionLimits = SessionLimits(), oneShot: Bool = false) throws(LayoutError)
        -> LayoutSession
    {
        try recovering(limits) { limits throws(LayoutError) in try LayoutSession(document: json, limits: limits, oneShot: oneShot) }!
    }

    /// `build` on the limits' engine, and again on the solved form when the factored basis
    /// had to recover; nil when `build` gives nil.
    static func recovering(_ limits: SessionLimits, _ build: (SessionLimits) throws(LayoutError) -> LayoutSession?)
        throws(LayoutError) -> LayoutSession?
    {
        guard let s = try build(limits) else { return nil }
        guard s.solver.recoveries > 0, s.engineKind != .solved, !WorkBudget.exhausted() else { return s }
        var fallback = limits
        fallback.engine = .solved
        fallback.factoredFromViews = nil
        return try build(fallback)
    }

    /// Builds from the body's bytes, read in place (`LayoutDocument.read`); nil when the
    /// body needs the tree's path (`make(body:)` takes it then, and it answers any error).
    public static func make(
        documentBytes body: [UInt8], limits: SessionLimits = SessionLimits(), oneShot: Bool = false, sizes: ((JSON) -> Void)? = nil
    )
        throws(LayoutError) -> LayoutSession?
    {
        try recovering(limits) { limits throws(LayoutError) in
            var doc = LayoutDocument()
            doc.keepsSentText = !oneShot
            guard let viewsSent = LayoutDocument.read(body, into: &doc, beside: sizes.map { ("sizes", $0) }) else {
                // Stopped by the request's work budget: not for the tree's path to read again.
                if WorkBudget.exhausted() { throw Pointer().fail("the request's work passed its budget") }
                return nil
            }
            return try LayoutSession(built: consume doc, viewsSent: viewsSent, limits: limits)
        }
    }

    /// Why a request body built no session.
    public enum BodyError: Error {
        case notJSON(JSONParseError)
        case refused(LayoutError)
    }

    /// A request body's session: read in place, else built from the parsed tree, which names
    /// whatever is wrong exactly as it always has. The tree, when one was made, is returned
    /// for the caller to free when it likes (after the answer).
    public static func make(body: [UInt8], limits: SessionLimits = SessionLimits(), oneShot: Bool = false) throws(BodyError)
        -> (session: LayoutSession, tree: JSON?)
    {
        let made = try make(body: body, limits: limits, oneShot: oneShot, takingSizes: false)
        return (made.session, made.tree)
    }

    /// A request body's session, and with `takingSizes` the `sizes` member sent beside the
    /// document's fields (nil when none was), read in place as the document is.
    public static func make(body: [UInt8], limits: SessionLimits = SessionLimits(), oneShot: Bool = false, takingSizes: Bool)
        throws(BodyError) -> (session: LayoutSession, tree: JSON?, sizes: JSON?)
    {
        var sizes: JSON? = nil
        do throws(LayoutError) {
            if let s = try make(documentBytes: body, limits: limits, oneShot: oneShot, sizes: takingSizes ? { sizes = $0 } : nil) {
                return (s, nil, sizes)
            }
        } catch {
            throw .refused(error)
        }
        var tree: JSON
        do { tree = try JSONParser.parse(body) } catch { throw .notJSON(error) }
        if takingSizes, let members = tree.members, let sent = tree["sizes"] {
            sizes = sent
            tree = .object(members.filter { $0.key != "sizes" })
        }
        do throws(LayoutError) { return (try make(document: tree, limits: limits, oneShot: oneShot), tree, sizes) } catch { throw .refused(error) }
    }

    // MARK: Restoring from a store

    /// The counter behind server-given constraint ids (`c7`): a store keeps it with the
    /// document, so ids continue without reuse after a restore.
    public var nextAutoID: Int { document.nextAuto }

    /// The oldest revision `frames?since=` answers incrementally from: a restored session
    /// knows nothing of what changed before its snapshot.
    private var historyFloor = 0

    /// Puts back what a stored snapshot had beyond its document: its revision and id counter.
    public func restore(revision: Int, nextAutoID: Int) {
        self.revision = revision
        historyFloor = revision
        document.nextAuto = max(document.nextAuto, nextAutoID)
    }

    /// Replays a stored change so that it lands at `revision`, as it did when accepted. One
    /// refused leaves the revision as it was (the restore's journal ends before it).
    public func replay(changes json: JSON, at revision: Int) throws(LayoutError) {
        try replaying(at: revision) { () throws(LayoutError) in _ = try apply(changes: json) }
    }

    public func replay(constants json: JSON, at revision: Int) throws(LayoutError) {
        try replaying(at: revision) { () throws(LayoutError) in _ = try setConstants(json) }
    }

    private func replaying(at revision: Int, _ body: () throws(LayoutError) -> Void) throws(LayoutError) {
        let before = self.revision
        self.revision = revision - 1
        do { try body() } catch {
            self.revision = before
            throw error
        }
    }

    /// The current frames of every view, in document order.
    public var allFrames: [FrameEntry] {
        var out: [FrameEntry] = []
        out.reserveCapacity(document.liveViews)
        forEachFrame { out.append(FrameEntry(id: $0, frame: $1, hidden: $2)) }
        return out
    }

    /// Every view's current frame in document order, one at a time: a whole answer is
    /// written from here (the list first was ~1 M instructions of the 1,000-cell feed's
    /// one-shot layout, callgrind).
    public func forEachFrame(_ body: (_ id: String, _ frame: Rect, _ hidden: Bool) -> Void) {
        document.forEachViewInOrder { v in
            if let r = views.reported(v) { body(document.viewName(v), r.frame, r.hidden) }
        }
    }

    /// A view's last reported frame, with its id.
    func reportedEntry(_ v: ViewRef) -> FrameEntry? {
        views.reported(v).map { FrameEntry(id: document.viewName(v), frame: $0.frame, hidden: $0.hidden) }
    }

    func atom(ofHandle h: ConstraintHandle) -> AtomRef? { links.atom(ofHandle: h) }

    /// An atom's link, when it has a constraint in the engine (its `handle` is then set).
    func link(_ a: AtomRef) -> EngineLink? { links.link(a) }

    // MARK: Changes

    /// A document read from its JSON, as a new session reads it.
    static func loaded(_ json: JSON, oneShot: Bool) throws(LayoutError) -> LayoutDocument {
        var doc = LayoutDocument()
        doc.keepsSentText = !oneShot
        try load(json, into: &doc)
        return doc
    }

    static func load(_ json: JSON, into doc: inout LayoutDocument) throws(LayoutError) {
        let p = Pointer()
        guard let members = json.members else { throw LayoutError(.invalid, "", "a layout document is a JSON object") }
        for (k, _) in members where !["options", "views", "constraints"].contains(k) { throw p(k).fail("unknown document field '\(k)'") }
        if let o = json["options"], !o.isNull { try doc.setOptions(o, at: p("options")) }
        doc.reserve(views: json["views"]?.array?.count ?? 0, constraints: json["constraints"]?.array?.count ?? 0)
        if let v = json["views"], !v.isNull { try doc.addViews(v, at: p("views")) }
        var ids: [String] = []  // what a change answers with; a document's build answers with frames
        if let c = json["constraints"], !c.isNull {
            doc.reserveAutoIDs(sentIn: c.array ?? [])
            try doc.addConstraints(c, at: p("constraints"), added: &ids)
        }
        doc.texts.trim()
    }

    /// Applies `{baseRevision?, ops: [...]}` all or nothing.
    public func apply(changes json: JSON) throws(LayoutError) -> ChangeResult {
        let p = Pointer()
        guard let members = json.members else { throw LayoutError(.invalid, "", "a change is a JSON object with ops") }
        for (k, _) in members where k != "ops" && k != "baseRevision" { throw p(k).fail("unknown field '\(k)'") }
        try check(baseRevision: json["baseRevision"])
        guard let ops = json["ops"]?.array else { throw p("ops").fail("ops must be an array") }
        return try apply(ops: ops)
    }

    /// A change's `baseRevision` (absent or null: none) is the current revision, or 409.
    func check(baseRevision b: JSON?) throws(LayoutError) {
        guard let b, !b.isNull else { return }
        guard let n = b.number, n == n.rounded() else { throw Pointer()("baseRevision").fail("baseRevision is an integer") }
        // Checked: an integral Double past Int's range (-1e30) would trap in Int(n).
        guard Int(exactly: n) == revision else {
            throw LayoutError(.revisionMismatch, "/baseRevision", "baseRevision \(fmt(n)) is not the current revision \(revision)")
        }
    }

    /// `{"constraintId": constant, ...}`: the set-constant fast path. Each value goes
    /// straight to the engine's marker shift; nothing is re-translated. One that makes or
    /// ends a conflict is settled by the document's order (the engine breaks the one set).
    public func setConstants(_ json: JSON) throws(LayoutError) -> ChangeResult {
        guard let members = json.members else { throw LayoutError(.invalid, "", "a constants body is an object of constraint ids to numbers") }
        let epoch = solver.brokenEpoch
        earlierScratch.clearShort()
        try document.setConstants(members, at: Pointer(), earlier: &earlierScratch) { a, value in
            guard let link = link(a) else { return }
            let c = link.base + link.sign * value
            solver.setConstant(link.handle!, c)
        }
        if solver.brokenEpoch != epoch { breakAsUIKitDoes() }
        settleText(changed: [])
        if !WorkBudget.exhausted() {
            let result = finish(added: [], countRevision: true)
            if !WorkBudget.exhausted() { return result }  // its diagnostics too
        }
        // Stopped half way by the request's budget: the document as it was, for the
        // session to be built again from (the engine's state is not a layout).
        document.restore(earlierScratch)
        throw LayoutError.stopped
    }

    /// Applies a change's ops to a copy of the document, all or nothing (`changes`, and the
    /// ops a document sent whole became).
    func apply(ops: [JSON]) throws(LayoutError) -> ChangeResult {
        if let updates = try viewUpdates(ops) { return try applyInPlace(updates) }
        var doc = document
        doc.reserveAutoIDs(sentInOps: ops)
        var added: [String] = []
        for (k, op) in ops.enumerated() { try ChangeOps.apply(op, to: &doc, at: Pointer()("ops")(k), added: &added) }
        if outgrowsEngine(doc) { return try rebuildOnFactoredBasis(doc, added: added) }
        return try commit(consume doc, added: added, countRevision: true)
    }

    /// A change of `updateView` ops alone, each of its own view and none placing it or
    /// changing its kind or stack, checked against the document (the first failing op's error,
    /// as applying them in turn gives): each view and its new spec. Nil for any other change,
    /// and on the solved form, which a change can outgrow (`outgrowsEngine`).
    private func viewUpdates(_ ops: [JSON]) throws(LayoutError) -> [(ViewRef, ViewSpec)]? {
        guard engineKind == .factored else { return nil }
        var out: [(ViewRef, ViewSpec)] = []
        var seen = Set<ViewRef>()
        for (k, op) in ops.enumerated() {
            guard let fields = op.members, op["op"]?.string == "updateView", let id = op["id"]?.string,
                !fields.contains(where: { $0.key == "before" || $0.key == "kind" || $0.key == "stack" })
            else { return nil }
            let (r, v) = try document.updatedSpec(id, fields: fields, at: Pointer()("ops")(k))
            guard seen.insert(r).inserted else { return nil }
            out.append((r, v))
        }
        return fitsLimits(addingConstraints: ImplicitKind.allCases.count * out.count) ? out : nil
    }

    /// Whether the session stays within its limits and its tenant's memory share (`check`)
    /// with `n` more constraints: an update can make at most a view's implicit ones.
    private func fitsLimits(addingConstraints n: Int) -> Bool {
        guard document.constraintCount + n <= limits.maxConstraints else { return false }
        guard let most = limits.maxHeapEstimate else { return true }
        return heapEstimate + Self.heapGrowth(views: 0, constraints: n, factored: true) <= most
    }

    /// Checked view updates stored in the session's document itself, which nothing can fail
    /// half way: the copy `apply(ops:)` makes to be all or nothing was every view record
    /// copied and freed (10 of the 17.6 M instructions of one label growing in a
    /// 10,000-cell stack feed). They move no view or depth, and constraints only within the
    /// limits (`viewUpdates`), so `check` has nothing to refuse.
    private func applyInPlace(_ updates: [(ViewRef, ViewSpec)]) throws(LayoutError) -> ChangeResult {
        for (r, v) in updates { document.store(v, in: r) }
        return try commitDocument(added: [], countRevision: true)
    }

    /// Whether a change makes a session on the solved form as large as `--engine auto`
    /// builds on the factored basis: the solved form fills in as n² on the chains large
    /// documents hold (a 2,000-view column added to a two-view session took 5 s, 11× per
    /// doubling, where a session made of it takes 60 ms).
    private func outgrowsEngine(_ doc: LayoutDocument) -> Bool {
        engineKind == .solved && Self.engine(for: doc, views: doc.viewCount, limits: limits) == .factored
    }

    /// The engine `doc` is built on: the limits' for its size; under `--engine auto`, the
    /// factored basis too for a fillProportionally stack of `proportionalFromViews` views or
    /// more, whatever the document's size. Its shares all name the stack's length, which the
    /// solved form substitutes into every row of the chain below (n³: a column of 120 views
    /// took 540 ms to build, 40 ms at 60; the factored basis 0.5 ms).
    static func engine(for doc: borrowing LayoutDocument, views: Int, limits: SessionLimits) -> EngineKind {
        let bySize = limits.engine(forViews: views, constraints: doc.atoms.count)
        guard bySize == .solved, limits.factoredFromViews != nil else { return bySize }
        for v in doc.views where v.live {
            if let stack = v.spec.stack, stack.distribution == .fillProportionally, stack.arranged.count >= proportionalFromViews {
                return .factored
            }
        }
        return bySize
    }

    /// See `engine(for:views:limits:)`.
    static let proportionalFromViews = 32

    /// Builds the session again on the factored basis from `doc`, as a new session of it is
    /// built, at the next revision: the answer lists every frame, and `frames?since=` answers
    /// whole for any earlier revision.
    private func rebuildOnFactoredBasis(_ doc: LayoutDocument, added: [String]) throws(LayoutError) -> ChangeResult {
        var fresh = try Self.loaded(doc.json, oneShot: false)
        fresh.nextAuto = max(fresh.nextAuto, doc.nextAuto)
        try check(fresh)
        solver = EngineKind.factored.make()
        engineKind = .factored
        views = ViewTable()
        viewOfVariable = VariableOwners()
        links = EngineLinks()
        removals = []
        lastChurn = []
        carriedMoves = []
        let result = try commit(consume fresh, added: added, countRevision: true)
        historyFloor = revision
        return result
    }

    /// The session's limits and its tenant's memory share, against what `doc` would make it.
    private func check(_ doc: borrowing LayoutDocument) throws(LayoutError) {
        if doc.viewCount > limits.maxViews {
            throw LayoutError(.limit, "", "the session would have \(doc.viewCount) views; the limit is \(limits.maxViews)")
        }
        if doc.constraintCount > limits.maxConstraints {
            throw LayoutError(.limit, "", "the session would have \(doc.constraintCount) constraints; the limit is \(limits.maxConstraints)")
        }
        if let (v, depth) = doc.nestedTooDeep(limit: limits.maxDepth) {
            throw LayoutError(.limit, "", "view '\(doc.viewName(v))' is nested \(depth) deep; views nest at most \(limits.maxDepth) deep")
        }
        if let most = limits.maxHeapEstimate {
            let views = max(0, doc.viewCount - document.viewCount), constraints = max(0, doc.constraintCount - document.constraintCount)
            let projected = heapEstimate + Self.heapGrowth(views: views, constraints: constraints, factored: solver is FactoredSolver)
            if views + constraints > 0 && projected > most {
                let detail = "the session would hold about \(projected >> 10) KiB, past the \(most >> 10) KiB its tenant's memory share leaves it"
                throw LayoutError(.quota, "", detail)
            }
        }
    }

    /// Makes `doc` the session's document and brings the engine in step with what its ops touched.
    /// Takes the document it is given (`consume`d by both callers): a copy left with the
    /// caller kept every array shared, and the first change to each here copied it whole (the
    /// atoms, views and entries of the 1,000-cell feed: 2.3 M instructions a build).
    @discardableResult
    private func commit(
        _ doc: consuming LayoutDocument, added: [String], countRevision: Bool, collect: Bool = true
    ) throws(LayoutError) -> ChangeResult {
        try check(doc)
        document = consume doc
        return try commitDocument(added: added, countRevision: countRevision, collect: collect)
    }

    /// `commit` of the document the session holds now.
    private func commitDocument(added: [String], countRevision: Bool, collect: Bool = true) throws(LayoutError) -> ChangeResult {
        document.reservedAuto = []
        document.prepare()
        let fresh = views.count == 0
        let newViews = document.viewCount - views.count
        if newViews > 0 {
            views.reserveCapacity(views.count + newViews)
            viewOfVariable.cover(upTo: viewOfVariable.count + 4 * newViews)
        }
        // New views are dirty, in the order they were added: their variables come in that order.
        for v in document.changes.dirtyViews where document.views[Int(v)].live && views[v] == nil {
            let vars = ViewVariables(x: solver.addVariable(), y: solver.addVariable(), width: solver.addVariable(), height: solver.addVariable())
            views.add(v, vars)
            viewOfVariable.own(vars, by: v)
        }
        for old in document.changes.removedViews {
            if views[old] != nil, let now = document.viewRef(document.viewName(old)), now != old { views.carry(old, to: now) }
        }
        translate()
        // Built: from here on (text rewrapped below included) a changed atom is listed dirty.
        document.isBuilt = true
        for v in document.changes.removedViews {
            guard let vars = views.remove(v) else { continue }
            for x in [vars.x, vars.y, vars.width, vars.height] { solver.removeVariable(x); viewOfVariable[x.id] = nil }
        }
        lastChurn = churn()
        settleText(changed: document.changes.dirtyViews)
        // Work stopped early (a one-shot or a new session past its request's budget): what
        // was built is not the layout, and is thrown away with this error.
        if WorkBudget.exhausted() { throw LayoutError.stopped }
        let result = finish(added: added, countRevision: countRevision, collect: collect, fresh: fresh)
        // Its diagnostics too.
        if WorkBudget.exhausted() { throw LayoutError.stopped }
        return result
    }

    /// Wraps text to the widths the engine gave (a label whose preferredMaxLayoutWidth is its
    /// own width): a text view narrower than its natural width is measured again at that
    /// width, its height follows, and the engine solves again, until the widths agree
    /// (normally one more pass; bounded). Only text views the change touched or whose width
    /// moved are looked at; a document without text skips this entirely.
    func settleText(changed: [ViewRef]) {
        guard document.textViews > 0 else { return }
        var look = changed.filter { document.views[Int($0)].live && document.views[Int($0)].spec.hasText }
        for _ in 0..<Self.textPasses where !WorkBudget.exhausted() {
            solver.takeChanges(into: &movedScratch)
            carriedMoves += movedScratch
            for v in movedScratch {
                guard let owner = viewOfVariable[v.id], owner.axis == .horizontal,
                    document.views[Int(owner.slot)].spec.hasText, views.variables(ofSlot: owner.slot).width == v
                else { continue }
                look.append(owner.slot)
            }
            var rewrapped = false
            for r in Set(look) {
                let record = document.views[Int(r)]
                guard record.live, let text = record.spec.text, text.style.wraps, let natural = record.natural else { continue }
                let insets = record.spec.alignmentInsets
                let width = solver.value(views.variables(ofSlot: r).width) - insets.left - insets.right
                let wanted: Double? = width < natural.width * (1 - 1e-12) ? max(0, width) : nil
                if let a = wanted, let b = record.wrapWidth, abs(a - b) <= 1e-9 * max(1, a) { continue }
                if wanted == nil && record.wrapWidth == nil { continue }
                if document.wrapText(r, at: wanted) { rewrapped = true }
            }
            guard rewrapped else { return }
            document.prepare()
            translate()
            look.removeAll(keepingCapacity: true)
        }
    }

    /// Constraints a change makes again, at least, for the factored basis to take them out and
    /// in at once (and at least a sixteenth of its rows: a stack of n labels has 8 rows a
    /// label, n of them its shares): each alone is a simplex step or more, the batch's one
    /// basis costs the rows once.
    static let bulkRemake = 64

    /// Passes of re-wrapping a change may take: widths settle in one or two.
    static let textPasses = 4

    private func unlink(_ a: AtomRef) {
        guard let old = unlinked(a) else { return }
        solver.remove(old)
    }

    /// The atom's constraint, no longer linked, for the caller to take out of the engine.
    private func unlinked(_ a: AtomRef) -> ConstraintHandle? {
        guard let old = link(a) else { return nil }
        links.set(a, .none)
        return old.handle!
    }

    /// Brings the engine's constraints in step with the atoms the change touched. A
    /// function of its own so that the translator's copy of the view table is gone before
    /// `finish` writes to the table (a copy alive then would copy every slot).
    func translate() {
        let translator = Translator(document: document, variables: views)
        links.grow(to: document.atoms.count)
        // Then what the engine broke is made what UIKit breaks (text rewrapped included).
        if links.linkedCount == 0 {
            translateAll(translator)
            return breakAsUIKitDoes()
        }
        // Nothing touched (an empty change, a document sent again as it is): nothing moves,
        // and no conflict is broken anew, unless views moved in the order it breaks by.
        if document.changes.dirtyAtoms.isEmpty { return document.changes.ranksMoved ? breakAsUIKitDoes() : () }
        // A change to a built engine: an atom whose row keeps its shape keeps its constraint
        // (its constant and priority set in place); the others go in one at a time, in
        // document order, each link beside its definition.
        var adds: [(sequence: Int32, atom: AtomRef, link: EngineLink)] = []
        var definitions: [ConstraintDefinition] = []
        var removals: [ConstraintHandle] = []
        var constants: [(handle: ConstraintHandle, constant: Double)] = []
        // Each constant's atom, kept to make it again if the change is made as one batch.
        var constantAtoms: [(sequence: Int32, atom: AtomRef, link: EngineLink, definition: ConstraintDefinition)] = []
        adds.reserveCapacity(document.changes.dirtyAtoms.count)
        definitions.reserveCapacity(document.changes.dirtyAtoms.count)
        for a in document.changes.dirtyAtoms {
            let x = document.atoms[Int(a)]
            guard x.live && x.active else {
                if let h = unlinked(a) { removals.append(h) }
                continue
            }
            let out = translator.translate(a)
            var made = EngineLink(handle: nil, mirrored: out.sign > 0, base: out.base)
            if let old = link(a)?.handle, let current = solver.definition(old), sameShape(current, out.definition) {
                if current.priority != out.definition.priority { solver.setPriority(old, out.definition.priority) }
                if current.expression.constant != out.definition.expression.constant {
                    constants.append((old, out.definition.expression.constant))
                    constantAtoms.append((x.sequence, a, made, out.definition))
                }
                made.handle = old
                links.set(a, made)
                continue
            }
            if let h = unlinked(a) { removals.append(h) }
            adds.append((x.sequence, a, made))
            definitions.append(out.definition)
        }
        // Much of the system made again: out and in at once, one basis for all the rows (the
        // constants with them: a text pass that rewrapped every label of a proportional column
        // set their sizes, each a dual step along the whole eta file after the shares' batch;
        // constants alone stay one solve, `setConstants`, a third cheaper than a new basis).
        let bulk =
            engineKind == .factored && definitions.count >= Self.bulkRemake
            && (definitions.count + constants.count) * 16 >= solver.tableauSize.rows
        if bulk {
            for (k, c) in constantAtoms.enumerated() {
                links.set(c.atom, .none)
                removals.append(constants[k].handle)
                adds.append((c.sequence, c.atom, c.link))
                definitions.append(c.definition)
            }
            constants = []
        }
        if adds.indices.dropFirst().contains(where: { adds[$0 - 1].sequence > adds[$0].sequence }) {
            let order = adds.indices.sorted { adds[$0].sequence < adds[$1].sequence }
            adds = order.map { adds[$0] }
            definitions = order.map { definitions[$0] }
        }
        // Together: the factored basis moves what they move in one solve (a text pass sets a
        // height for each label it rewrapped).
        if constants.count == 1 {
            solver.setConstant(constants[0].handle, constants[0].constant)
        } else if !constants.isEmpty {
            solver.setConstants(constants)
        }
        let unusual = adds.indices.filter { adds[$0].link.mirrored || adds[$0].link.base != 0 }.map { (k: $0, link: adds[$0].link) }
        var handles: [ConstraintHandle] = []
        if bulk {
            var batch = ConstraintBatch(definitions)
            batch.breakOrder = breakOrders(adds.map(\.atom))
            handles = solver.replace(removals, with: batch)
        } else {
            solver.remove(all: removals)
            // Past the work budget the rest are not made: the change is then refused and the
            // session rolled back (`LayoutError.stopped`); only what was made is linked.
            handles.reserveCapacity(definitions.count)
            for d in definitions {
                if WorkBudget.exhausted() { break }
                handles.append(solver.add(d))
            }
        }
        linkMade(adds.map(\.atom), handles, unusual)
        breakAsUIKitDoes()
    }

    /// The whole document into an empty engine: every live atom written, in document order,
    /// into one flat batch. A definition a constraint, each with its own array of terms to
    /// make and free, cost the 1,000-cell feed's session build 440 → 422 M instructions
    /// (callgrind) and 49.3–49.9 → 46.2–47.8 ms (`layoutd-document-bench`, alternated).
    private func translateAll(_ translator: Translator) {
        // A document being built lists no dirty atoms: all of them are new. The live ones
        // and whether they are in creation order, in one pass over the records in place
        // (a closure reading each through the document was ~80 instructions an atom).
        var atoms: [AtomRef] = []
        var ordered = true
        document.atoms.withUnsafeBufferPointer { records in
            var last = Int32.min
            func take(_ a: AtomRef) {
                let x = records[Int(a)]
                guard x.live && x.active else { return }
                if x.sequence < last { ordered = false }
                last = x.sequence
                atoms.append(a)
            }
            if document.isBuilt {
                for a in document.changes.dirtyAtoms { take(a) }
            } else {
                atoms.reserveCapacity(records.count)
                for a in records.indices { take(AtomRef(a)) }
            }
        }
        if !ordered { atoms.sort { document.atoms[Int($0)].sequence < document.atoms[Int($1)].sequence } }
        var batch = ConstraintBatch()
        batch.reserveCapacity(constraints: atoms.count, terms: 3 * atoms.count)
        // The links of the rows with a base or mirrored, by index: most have neither.
        var unusual: [(k: Int, link: EngineLink)] = []
        for k in atoms.indices {
            // Past the budget nothing reaches the engine: the build is thrown away (`commit`).
            if k & 1023 == 1023 && WorkBudget.exhausted() { return }
            let (base, sign) = translator.translate(atoms[k], into: &batch)
            if base != 0 || sign > 0 { unusual.append((k, EngineLink(handle: nil, mirrored: sign > 0, base: base))) }
        }
        // The factored basis breaks conflicts in UIKit's order at once (Session+Conflicts).
        if engineKind == .factored { batch.breakOrder = breakOrders(atoms) }
        let handles = batch.count > 1 ? solver.add(batch: batch) : (0..<batch.count).map { solver.add(batch[$0]) }
        linkMade(atoms, handles, unusual)
    }

    /// Links the atoms whose constraints were made: all of them, unless the work budget ran
    /// out part way (the handles then end early, or with `unmade`).
    private func linkMade(_ atoms: [AtomRef], _ handles: [ConstraintHandle], _ unusual: [(k: Int, link: EngineLink)]) {
        let made = min(handles.firstIndex(of: .unmade) ?? handles.count, atoms.count)
        guard made < atoms.count else { return links.link(atoms, to: handles, plainBut: unusual) }
        links.link(Array(atoms[..<made]), to: Array(handles[..<made]), plainBut: unusual.filter { $0.k < made })
    }

    private func sameShape(_ a: ConstraintDefinition, _ b: ConstraintDefinition) -> Bool {
        guard a.relation == b.relation, a.expression.terms.count == b.expression.terms.count else { return false }
        for (x, y) in zip(a.expression.terms, b.expression.terms) where x.variable != y.variable || x.coefficient != y.coefficient { return false }
        return true
    }

    private func churn() -> [Diagnostic] {
        guard !document.changes.churnRemoved.isEmpty && !document.changes.churnAdded.isEmpty else { return [] }
        let removed = Set(document.changes.churnRemoved.map(\.shape))
        let back = document.changes.churnAdded.filter { removed.contains($0.shape) }
        guard !back.isEmpty else { return [] }
        var views: [String] = []
        for (_, shape) in back {
            for v in [shape.first] + (shape.second != .noRef ? [shape.second] : []) where !views.contains(document.viewName(v)) {
                views.append(document.viewName(v))
            }
        }
        return [.churn(constraints: back.map { document.atomName($0.atom) }, views: views)]
    }

    /// For a session kept after its build: the engine releases what it can make again when a
    /// change needs it (most often the next change is a set-constant, which needs none of it).
    public func compact() {
        solver.compact()
        links.compact()
        document.trim()
    }

    /// Collects the frames that changed (from the engine's changed variables, never by
    /// diffing every frame), stamps them with the new revision and moves the revision on.
    /// A build that answers with every frame (`collect` false) only records them: its
    /// caller reads `allFrames` in document order, so the list sorted by id would be
    /// thrown away. Its diagnostics are still made here, before a kept session is compacted:
    /// made after, they build again what the compaction dropped (+270 bytes a view).
    /// `fresh`: the change brought the session's first views, each dirty and owning every
    /// variable that moved (no owner is looked up).
    private func finish(added: [String], countRevision: Bool, collect: Bool = true, fresh: Bool = false) -> ChangeResult {
        // The views to look at, by slot: those owning a variable that moved, and those the
        // change touched. Sorted and de-duplicated in a kept buffer (a set-constant moves a few).
        slotScratch.removeAll(keepingCapacity: true)
        if fresh {
            // A first build's views are all dirty and own every variable that moved: which moved
            // is not asked (listed, sorted and looked up, ~5 M instructions of the 1,000-cell feed).
            solver.forgetChanges()
            carriedMoves.removeAll(keepingCapacity: true)
            slotScratch.append(contentsOf: document.changes.dirtyViews)
        } else {
            solver.takeChanges(into: &movedScratch)
            if !carriedMoves.isEmpty {
                movedScratch += carriedMoves
                carriedMoves.removeAll(keepingCapacity: true)
            }
            for v in movedScratch { if let owner = viewOfVariable[v.id] { slotScratch.append(owner.slot) } }
            for v in document.changes.dirtyViews where views[v] != nil { slotScratch.append(v) }  // none: removed
        }
        let touched = !document.changes.dirtyViews.isEmpty
        if slotScratch.indices.dropFirst().contains(where: { slotScratch[$0 - 1] > slotScratch[$0] }) { slotScratch.sort() }
        let stamp = countRevision ? revision + 1 : revision
        var frames: [FrameEntry] = []
        frames.reserveCapacity(slotScratch.count / 2)  // a moved view usually moves two variables
        var previous = ViewRef.noRef
        for s in slotScratch where s != previous {
            previous = s
            let frame = currentFrame(views.variables(ofSlot: s))
            if !touched, views.isReported(s) {
                // Only variables moved (a set-constant): the view keeps its hidden flag.
                if let hidden = views.move(s, to: frame, at: stamp) {
                    frames.append(FrameEntry(id: document.viewName(s), frame: frame, hidden: hidden))
                }
                continue
            }
            // Read in place: a copy of the record was ~240 instructions a view.
            guard document.views[Int(s)].live, !document.views[Int(s)].internalGuide else { continue }
            let hidden = document.views[Int(s)].spec.hidden
            if views.report(s, frame, hidden: hidden, at: stamp), collect {
                frames.append(FrameEntry(id: document.views[Int(s)].spec.id, frame: frame, hidden: hidden))
            }
        }
        if frames.count > 1 { frames.sort { $0.id < $1.id } }
        // A view removed and added again in one change is not removed.
        let removed =
            document.changes.removedViews.isEmpty
            ? []
            : Set(document.changes.removedViews.map(document.viewName).filter { document.viewRef($0) == nil }).sorted()
        if !removed.isEmpty {
            for v in removed { removals.append((stamp, v)) }
            if let first = removals.first, first.revision <= stamp - limits.historyDepth {
                removals.removeAll { $0.revision <= stamp - limits.historyDepth }
            }
        }
        revision = stamp
        document.settle()
        movedScratch.clearScratch()
        slotScratch.clearScratch()
        carriedMoves.clearScratch()
        let churn = lastChurn
        lastChurn = []
        return ChangeResult(
            revision: revision, frames: frames, removed: removed,
            diagnostics: churn.isEmpty ? diagnostics() : diagnostics() + churn, added: added)
    }

    /// A view's frame with some variables overridden (another valid layout, for
    /// exercise-ambiguity).
    func currentFrame(_ v: ViewRef, values: [Variable: Double]) -> Rect {
        frame(of: views[v]!) { values[$0] ?? solver.value($0) }
    }

    func currentFrame(_ vars: ViewVariables) -> Rect { frame(of: vars, solver.value) }

    /// Exact, or with a scale, as UIKit rounds to pixels: each edge to the nearest pixel, the
    /// size between the rounded edges (three 153.33-point columns stay contiguous).
    private func frame(of vars: ViewVariables, _ value: (Variable) -> Double) -> Rect {
        let (x, y, w, h) = (value(vars.x), value(vars.y), value(vars.width), value(vars.height))
        guard let s = document.options.scale else { return Rect(x: clean(x), y: clean(y), width: clean(w), height: clean(h)) }
        let (left, top) = (round(x, s), round(y, s))
        return Rect(x: left, y: top, width: round(x + w, s) - left, height: round(y + h, s) - top)
    }

    private func clean(_ v: Double) -> Double { abs(v) < 1e-9 ? 0 : v }

    /// The nearest multiple of 1/scale, halves away from zero. A value within rounding noise
    /// of a half is that half: which way 263.2499999 or 263.2500001 goes was the engine's
    /// float noise, so a session and a fresh layout of its document could differ by a pixel.
    private func round(_ v: Double, _ s: Double) -> Double {
        var t = clean(v) * s
        let floor = t.rounded(.down)
        if abs(t - floor - 0.5) < 1e-7 * max(1, abs(t)) { t = floor + 0.5 }
        let r = t.rounded(.toNearestOrAwayFromZero) / s
        return r == 0 ? 0 : r
    }

    // MARK: Frames since a revision

    public struct FramesAnswer: Sendable {
        public var revision: Int
        public var frames: [FrameEntry]
        public var removed: [String]
        public var full: Bool
    }

    public func frames(since rev: Int?) throws(LayoutError) -> FramesAnswer {
        if let rev, rev > revision { throw LayoutError(.malformed, "", "revision \(rev) is in the future (current: \(revision))") }
        if let rev, rev < 0 { throw LayoutError(.malformed, "", "a revision is a non-negative integer") }
        // Every view carries the revision that last changed it; removals are kept for the
        // last historyDepth revisions, so within that window the answer is incremental.
        guard let rev, rev > 0, rev >= revision - limits.historyDepth, rev >= historyFloor else {
            return FramesAnswer(revision: revision, frames: allFrames, removed: [], full: true)
        }
        let frames = views.changed(since: rev).compactMap(reportedEntry).sorted { $0.id < $1.id }
        let removed = Set(removals.filter { $0.revision > rev && document.viewRef($0.view) == nil }.map(\.view))
        return FramesAnswer(revision: revision, frames: frames, removed: removed.sorted(), full: false)
    }

    // MARK: Diagnostics

    public func diagnostics() -> [Diagnostic] {
        guard solver.hasDiagnostics else { return [] }
        var out: [Diagnostic] = []
        // In the document's order, as its conflicts are: the engine's handles say history.
        var broken: [(atom: AtomRef, rank: Int64, conflicts: [AtomRef], shadows: StackShadow)] = []
        for (h, conflicts) in solver.brokenConstraints {
            guard let a = atom(ofHandle: h) else { continue }
            let set = conflicts.compactMap { atom(ofHandle: $0) }
            let shadows = StackShadow(explicitIn: set + [a], of: document)
            broken.append((a, breakRank(a, shadows), set.sorted { breakRank($0, shadows) < breakRank($1, shadows) }, shadows))
        }
        // A set past the limit lists the broken one and the first others: a chain of n
        // conflicts each explained by the chain behind it is n² names (a 700 KB document
        // answered 84 MB).
        let listed = max(1, limits.maxConflictsListed)
        for b in broken.sorted(by: { $0.rank < $1.rank }) {
            var shown = b.conflicts, omitted = 0
            if shown.count > listed {
                let others = shown.filter { $0 != b.atom }
                omitted = others.count - (listed - 1)
                shown = (others.prefix(listed - 1) + [b.atom]).sorted { breakRank($0, b.shadows) < breakRank($1, b.shadows) }
            }
            out.append(.unsatisfiable(constraint: document.atomName(b.atom), conflicts: shown.map(document.atomName), omitted: omitted))
        }
        var seen = Set<Int32>()
        var ambiguous: [(String, Axis)] = []
        for v in solver.ambiguousVariables() {
            guard let owner = viewOfVariable[v.id], !document.views[Int(owner.slot)].internalGuide else { continue }
            guard seen.insert(owner.slot.raw * 2 + (owner.axis == .horizontal ? 0 : 1)).inserted else { continue }
            ambiguous.append((document.viewName(owner.slot), owner.axis))
        }
        for (v, axis) in ambiguous.sorted(by: { ($0.0, $0.1.rawValue) < ($1.0, $1.1.rawValue) }) {
            out.append(.ambiguous(view: v, axis: axis))
        }
        return out
    }

    /// `GET /v1/sessions/{id}`'s stats: the document's size and the engine's, in the model's terms.
    public struct Stats: Sendable {
        public var views: Int
        public var constraints: Int
        public var rows: Int
        public var columns: Int
        public var pivots: Int
        public var broken: Int
        public var priorityLevels: Int
    }

    /// The engine's constraints in the order they were added, and how many variables they
    /// name (four a view): what an engine-only build of this document adds (benchmarks).
    public var engineConstraints: (variables: Int, definitions: [ConstraintDefinition]) {
        let handles = links.handles.sorted()
        return (4 * views.count, handles.map { solver.definition($0)! })
    }

    /// The engine's work so far (pivots, rows written), O(1): a change's share is the difference.
    public var engineWork: (pivots: Int, rowsTouched: Int) {
        let s = solver.stats
        return (s.pivots, s.touchedRows)
    }

    /// The engine's rows and columns, O(1): what a gauge of held engines adds up.
    public var engineSize: (rows: Int, columns: Int) { solver.tableauSize }

    /// The heap the session holds, estimated in O(1) from its engine's size: a fit to the heap
    /// measured around sessions of every growth family at 10 to 1,000 cells (within about
    /// ±25%). The solved form's rows are dense (a row per constraint, ~800 B each); the
    /// factored engine's memory follows its columns, above a fixed ~100 KB.
    public var heapEstimate: Int {
        let size = solver.tableauSize
        return solver is FactoredSolver ? 100_000 + 180 * size.columns : 800 * size.rows
    }

    /// What `views` and `constraints` more add to `heapEstimate`, at most: four columns a
    /// view, and a constraint's row with its slack and error columns.
    static func heapGrowth(views: Int, constraints: Int, factored: Bool) -> Int {
        factored ? 180 * (4 * views + 3 * constraints) : 800 * (views + constraints)
    }

    public var stats: Stats {
        let e = solver.stats
        return Stats(
            views: document.viewCount, constraints: document.constraintCount, rows: e.rows, columns: e.columns,
            pivots: e.pivots, broken: e.broken, priorityLevels: e.priorityLevels)
    }
}
