import CheckedNumbers
import Foundation
import HTTPTransport
import LayoutModel
import SessionStorage
import Synchronization
import WorkBudget

/// One session and the lock that serialises its requests. `@unchecked`: the session (a
/// class the model keeps single-threaded) is touched only under `retired`'s lock.
final class SessionBox: @unchecked Sendable {
    let id: String
    /// Replaced only by `rollBack`, under the lock.
    private(set) var session: LayoutSession
    /// The store lease's epoch this box was made under (0: the store keeps no leases): its
    /// writes carry it, and the store refuses them once another replica took the session.
    let epoch: Int
    /// The tenant the session belongs to ("" on a server without keys): another tenant's
    /// request finds no such session.
    let owner: String
    /// Until when (monotonic) this replica's lease on the session is known to hold; past it a
    /// request first confirms the lease with the store. `.max` without leases.
    let leaseUntil = Atomic<UInt64>(.max)
    let lastUsed = Atomic<UInt64>(0)
    /// `session.heapEstimate`, kept current by every change, so that a tenant's share of
    /// memory adds up without taking its sessions' locks.
    let heapEstimate = Atomic<Int>(0)
    /// Its snapshot is durable in the store (so the store's count of its tenant's sessions has it).
    let stored = Atomic<Bool>(false)
    /// Its open set-constants entry in the store's queue (under the lock).
    let journalTail = JournalTail()
    /// The lock every use of the session holds; what it guards is whether the box left memory
    /// (then a request that found it just before looks the session up again, so nothing is
    /// applied to a copy nobody will read).
    private let retired = Mutex(false)

    init(id: String, session: LayoutSession, epoch: Int = 0, owner: String = "") {
        self.id = id
        self.session = session
        self.epoch = epoch
        self.owner = owner
        lastUsed.store(coarseMonotonicNanos(), ordering: .relaxed)
        heapEstimate.store(session.heapEstimate, ordering: .relaxed)
    }

    /// Runs `body` on the session; nil when the box was retired meanwhile.
    func withSession<T, E: Error>(_ body: (LayoutSession) throws(E) -> T) throws(E) -> T? {
        try retired.withLock { retired throws(E) -> T? in retired ? nil : try body(session) }
    }

    /// Puts `rebuilt` in the session's place: a change stopped half way (its work budget spent)
    /// left the one in here half changed. Only from inside `withSession`'s body (under its lock).
    func rollBack(to rebuilt: LayoutSession) { session = rebuilt }

    /// Waits for the request under way, if any, and retires the box; returns its engine's size.
    func retire() -> (rows: Int, columns: Int) {
        retired.withLock { retired in
            retired = true
            return session.engineSize
        }
    }
}

/// Sessions in memory by id, with a cap and idle eviction. The store's lock is held only to
/// find, add or drop a box: a request never waits for another session's work. With a
/// durable store behind it (`restorer`), a session not in memory is rebuilt from the store on
/// its first request, and leaving memory (idle, or to make room) is not deletion.
/// `@unchecked`: `inMotion` is guarded by `moving`, a condition (Mutex has no wait).
final class SessionStore: @unchecked Sendable {
    let maxSessions: Int
    let idleTTLNanos: UInt64
    private let sessions = Mutex<[SessionKey: SessionBox]>([:])
    /// Keys being restored or retired: a second request for one waits for the first.
    private let moving = NSCondition()
    private var inMotion: Set<SessionKey> = []
    /// How many sessions an eviction (idle, or to make room) took out of memory: the evictions counter.
    var onEvict: @Sendable (_ count: Int) -> Void = { _ in }
    /// Sessions (with their lease epochs) that left memory other than by deletion, or were
    /// restored and could not be held: their leases are given up.
    var onRetire: @Sendable (_ leases: [(session: String, epoch: Int)]) -> Void = { _ in }
    /// Confirms with the store that a box's lease still holds, when its known time ran out;
    /// false: it does not (the box leaves memory and the session is claimed again).
    var leaseCheck: (@Sendable (SessionBox) -> Bool)? = nil
    /// What the store holds changed by these amounts (sessions, engine rows, engine columns):
    /// every way in (created, restored) and out (deleted, evicted), and every change's
    /// effect on its engine, reported from this one place so the gauges cannot drift.
    var onHeldChange: @Sendable (_ sessions: Int, _ rows: Int, _ columns: Int) -> Void = { _, _, _ in }
    /// Rebuilds a stored session (nil: none stored), with its lease's epoch and how long that
    /// is known to hold (monotonic).
    var restorer: (@Sendable (String) throws(Problem) -> Restored?)? = nil
    typealias Restored = (session: LayoutSession, epoch: Int, leaseUntil: UInt64, owner: String)

    init(maxSessions: Int, idleTTLSeconds: Double) {
        self.maxSessions = maxSessions
        self.idleTTLNanos = UInt64(saturating: max(0.001, idleTTLSeconds) * 1e9)
    }

    var count: Int { sessions.withLock { $0.count } }

    /// Sessions in memory owned by a tenant; `unstored`: only those the store does not hold yet.
    func count(ownedBy owner: String, unstored: Bool = false) -> Int {
        sessions.withLock { $0.values.reduce(0) { $0 + ($1.owner == owner && !(unstored && $1.stored.load(ordering: .relaxed)) ? 1 : 0) } }
    }

    /// The heap a tenant's sessions in memory hold (their estimates): its share of the budget.
    func heapEstimate(ownedBy owner: String) -> Int {
        sessions.withLock { $0.values.reduce(0) { $0 + ($1.owner == owner ? $1.heapEstimate.load(ordering: .relaxed) : 0) } }
    }

    /// 128 random bits from the system's generator, as 32 hex digits.
    static func newID() -> String {
        var g = SystemRandomNumberGenerator()
        return SessionKey(high: g.next(), low: g.next()).description
    }

    /// Adds a session built outside the lock. When the cap is reached even after dropping
    /// idle ones: refused, or with a durable store, the least recently used leaves memory.
    enum InsertError: Error { case full, idTaken }

    func insert(_ session: LayoutSession, id: String? = nil, epoch: Int = 0, leaseUntil: UInt64 = .max, owner: String = "") throws(InsertError)
        -> SessionBox
    {
        if count >= maxSessions {
            if evictIdle() == 0 && restorer != nil { evictLeastRecentlyUsed() }
        }
        let box = SessionBox(id: id ?? Self.newID(), session: session, epoch: epoch, owner: owner)
        box.leaseUntil.store(leaseUntil, ordering: .relaxed)
        guard let key = SessionKey(box.id) else { preconditionFailure("session ids are checked before insertion") }
        let result: InsertError? = sessions.withLock { sessions in
            guard sessions.count < maxSessions else { return .full }
            guard sessions[key] == nil else { return .idTaken }
            sessions[key] = box
            return nil
        }
        if let result { throw result }
        let size = session.engineSize
        onHeldChange(1, size.rows, size.columns)
        return box
    }

    func get(_ id: String) throws(Problem) -> SessionBox? {
        guard let key = SessionKey(id) else { return nil }
        return try get(key)
    }

    func get(_ key: SessionKey) throws(Problem) -> SessionBox? {
        if let box = sessions.withLock({ $0[key] }) {
            let now = coarseMonotonicNanos()
            box.lastUsed.store(now, ordering: .relaxed)
            // One load and compare on every request; the store is asked only once a lease's
            // known time has run out (a renewal missed: the database slow or unreachable).
            if now < box.leaseUntil.load(ordering: .relaxed) || leaseCheck?(box) ?? true { return box }
            retire([box])
        }
        guard let restorer else { return nil }
        // A restore is the session taken back, not the request's work: never stopped half way.
        return try WorkBudget.run(nil) { () throws(Problem) -> SessionBox? in try restore(key, restorer) }
    }

    /// Runs `body` on the session under its lock (restoring it first if it is only stored);
    /// nil when there is no such session. A box retired between the lookup and its lock (it
    /// left memory) is looked up again. Outside the request's work budget: a restore or a
    /// temporary resize runs to its end (stopped half way, the session would be left half
    /// changed); a change runs within it only where it can be rolled back (`SessionService.apply`).
    func withSession<T>(_ key: SessionKey, _ body: (SessionBox, LayoutSession) throws(Problem) -> T) throws(Problem) -> T? {
        try WorkBudget.run(nil) { () throws(Problem) -> T? in try lockedSession(key, body) }
    }

    private func lockedSession<T>(_ key: SessionKey, _ body: (SessionBox, LayoutSession) throws(Problem) -> T) throws(Problem) -> T? {
        while true {
            guard let box = try get(key) else { return nil }
            if let result = try box.withSession({ s throws(Problem) in
                let before = s.engineSize
                defer {
                    // Most changes (a set-constant) leave the engine's size as it was: no gauge update then.
                    // The box's session: a change rolled back put another in its place.
                    let after = box.session.engineSize
                    if after != before {
                        onHeldChange(0, after.rows - before.rows, after.columns - before.columns)
                        box.heapEstimate.store(box.session.heapEstimate, ordering: .relaxed)
                    }
                }
                return try body(box, s)
            }) {
                return result
            }
        }
    }

    /// The box when the session is in memory (never restores, never counts as use).
    func resident(_ id: String) -> SessionBox? {
        guard let key = SessionKey(id) else { return nil }
        return sessions.withLock { $0[key] }
    }

    /// In memory only (never restores): keeps an open stream's session from going idle.
    func touch(_ id: String) {
        guard let key = SessionKey(id) else { return }
        sessions.withLock { $0[key] }?.lastUsed.store(coarseMonotonicNanos(), ordering: .relaxed)
    }

    private func restore(_ key: SessionKey, _ restorer: (String) throws(Problem) -> Restored?)
        throws(Problem) -> SessionBox?
    {
        moving.lock()
        while inMotion.contains(key) { moving.wait() }
        if let box = sessions.withLock({ $0[key] }) { moving.unlock(); return box }
        inMotion.insert(key)
        moving.unlock()
        defer {
            moving.withLock {
                inMotion.remove(key); moving.broadcast()
            }
        }
        let id = key.description
        guard let restored = try restorer(id) else { return nil }
        do throws(InsertError) {
            let box = try insert(restored.session, id: id, epoch: restored.epoch, leaseUntil: restored.leaseUntil, owner: restored.owner)
            box.stored.store(true, ordering: .relaxed)
            return box
        } catch {
            onRetire([(id, restored.epoch)])
            throw Problem(503, "the server cannot hold another session in memory now", headers: [("Retry-After", "1")])
        }
    }

    /// Takes sessions out of memory (a store failed under them: they reload from it).
    func evict(_ ids: [String]) { evict(ids.compactMap(SessionKey.init)) }

    /// Deletes a session from memory; false when it was not there.
    func remove(_ id: String) -> Bool {
        guard let key = SessionKey(id) else { return false }
        return drop([key], retiring: false) == 1
    }

    /// Every box in memory (the leases to renew).
    func residentBoxes() -> [SessionBox] { sessions.withLock { Array($0.values) } }

    /// Takes these boxes out of memory, each only while it is still the one held for its id.
    @discardableResult
    func retire(_ boxes: [SessionBox]) -> Int {
        let keys = sessions.withLock { sessions in boxes.compactMap { b in SessionKey(b.id).flatMap { sessions[$0] === b ? $0 : nil } } }
        return evict(keys)
    }

    /// Drops sessions idle longer than the TTL; returns how many.
    @discardableResult
    func evictIdle(now: UInt64 = coarseMonotonicNanos()) -> Int {
        let stale = sessions.withLock { sessions in
            sessions.filter { now &- $0.value.lastUsed.load(ordering: .relaxed) > idleTTLNanos && now > $0.value.lastUsed.load(ordering: .relaxed) }
                .map(\.key)
        }
        return evict(stale)
    }

    private func evictLeastRecentlyUsed() {
        let oldest = sessions.withLock { sessions in
            sessions.min { $0.value.lastUsed.load(ordering: .relaxed) < $1.value.lastUsed.load(ordering: .relaxed) }?.key
        }
        if let oldest { evict([oldest]) }
    }

    @discardableResult
    private func evict(_ keys: [SessionKey]) -> Int {
        let dropped = drop(keys)
        if dropped > 0 { onEvict(dropped) }
        return dropped
    }

    /// Removes the keys from memory and retires their boxes; a request for one of them
    /// meanwhile waits, then restores it from the store. Returns how many were there.
    private func drop(_ keys: [SessionKey], retiring: Bool = true) -> Int {
        guard !keys.isEmpty else { return 0 }
        moving.withLock { inMotion.formUnion(keys) }
        let boxes = sessions.withLock { sessions in keys.compactMap { sessions.removeValue(forKey: $0) } }
        var rows = 0, columns = 0
        for b in boxes {
            let size = b.retire()
            rows += size.rows
            columns += size.columns
        }
        moving.withLock {
            inMotion.subtract(keys); moving.broadcast()
        }
        if !boxes.isEmpty { onHeldChange(-boxes.count, -rows, -columns) }
        if retiring && !boxes.isEmpty { onRetire(boxes.map { ($0.id, $0.epoch) }) }
        return boxes.count
    }
}
