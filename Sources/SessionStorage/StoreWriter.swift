import CheckedNumbers
import Foundation
public import JSON
import Synchronization

/// A session's place in the writer's queue: its open set-constants entry. Kept with the
/// session and used under the session's lock only.
public final class JournalTail: @unchecked Sendable {
    fileprivate var open: StoreWriter.Constants?
    public init() {}
}

/// The one thread that writes to a store, committing whatever is queued in one transaction
/// (group commit): concurrent sessions share an fsync, so throughput follows the number of
/// sessions rather than the disk's latency.
///
/// Each write gets a ticket, in order; a ticket is durable once the batch holding it
/// committed. Structural writes (creation, changes, deletion) wake the writer at once;
/// set-constants under the relaxed policy wait up to the flush interval, and those of one
/// session queued back to back are merged into one journal entry (only the latest constant
/// per constraint matters). A session's writes are queued in its revision order (under its
/// lock), and batches keep that order.
public final class StoreWriter: @unchecked Sendable {
    public typealias Ticket = UInt64

    /// What became of a ticket's write.
    public enum Outcome: Sendable, Equatable {
        case durable
        /// Not stored: the store failed before committing, or refused it (fencing).
        case lost
        /// Perhaps stored: the store's answer to the commit was lost (its connection dropped
        /// after the COMMIT was sent). The session is read back from the store to know.
        case unknown
    }

    public let storage: any SessionStorage
    private let flushIntervalNanos: UInt64
    /// Guards the queue and the state below, and wakes the writer's thread (a condition:
    /// `Mutex` has no wait, hence `@unchecked`).
    private let condition = NSCondition()
    private var queue: [Item] = []
    private var urgent = false
    private var oldestQueuedAt: UInt64 = 0
    private var issued: Ticket = 0
    private var resolved: Ticket = 0
    /// The last ticket the writer has taken (its batch is being written): a waiter for one of
    /// those needs no hurry. Setting `urgent` for it left the flag set after that batch, and
    /// the next relaxed set-constant was written at once instead of after the interval.
    private var taken: Ticket = 0
    private var failedRanges: [ClosedRange<Ticket>] = []
    /// Tickets of batches whose commit's outcome is unknown (the latest 64 batches).
    private var unknownRanges: [ClosedRange<Ticket>] = []
    /// Tickets of writes lost one by one, the latest few thousand: refused by the store
    /// (fenced: their session's lease moved on), or dropped from the queue because an earlier
    /// write of their session was lost. A waiter looks its ticket up once, when it resolves.
    private var lostTickets: Set<Ticket> = []
    private var lostOrder: [Ticket] = []
    private var callbacks: [(ticket: Ticket, body: @Sendable (Outcome) -> Void)] = []
    private var failure: String?
    /// `failure != nil`, read without the lock on every change's path.
    private let failing = Atomic<Bool>(false)
    private var stopping = false
    private var stopped = false
    private var journalBytes: [String: Int] = [:]
    private var snapshotBytes: [String: Int] = [:]
    private var compactions: Set<String> = []
    /// Sessions not written for this long are deleted from the store, once a minute.
    private let retentionSeconds: Int
    private var lastExpiry: UInt64 = 0

    /// Sessions whose queued writes were lost (the store failed) or perhaps lost (the outcome
    /// of their commit is unknown): their state in memory may be ahead of the store, so the
    /// server drops them and reloads them from what is durable.
    public var onLost: @Sendable ([String]) -> Void = { _ in }
    /// Sessions whose writes the store refused because their lease moved on (fencing): their
    /// state in memory is another owner's business now.
    public var onFenced: @Sendable ([String]) -> Void = { _ in }
    /// Each commit: its duration, the bytes of its journal entries and its snapshots.
    public var onCommit: @Sendable (_ nanos: UInt64, _ journalBytes: Int, _ snapshots: Int) -> Void = { _, _, _ in }
    /// The store failed, or came back (nil).
    public var onFailure: @Sendable (String?) -> Void = { _ in }

    private enum Item: @unchecked Sendable {
        case write(StorageWrite, Ticket)
        case changes(session: String, revision: Int, body: JSON, epoch: Int, Ticket)
        case constants(Constants)
        /// A write taken out of the queue because an earlier one of its session was lost:
        /// nothing is written, its tickets resolve as lost (they are in `lostTickets`).
        case dropped(session: String, Ticket)

        var ticket: Ticket {
            switch self {
            case .write(_, let t), .changes(_, _, _, _, let t), .dropped(_, let t): return t
            case .constants(let c): return c.ticket
            }
        }
        var session: String {
            switch self {
            case .write(let w, _): return w.session
            case .changes(let s, _, _, _, _), .dropped(let s, _): return s
            case .constants(let c): return c.session
            }
        }
        /// Its ticket and those it absorbed (a merged constants entry's).
        var tickets: [Ticket] {
            if case .constants(let c) = self { return [c.ticket] + c.absorbed }
            return [ticket]
        }
    }

    /// Set-constant bodies of one session queued back to back, merged as they come (each
    /// key's latest value): a reference, so that the next one is merged in place, under its
    /// own lock (the request's thread merges, the writer's thread closes it with its batch).
    /// Keeping the bodies instead, to merge and free them on the writer's thread, cost 0.5 µs
    /// more a set-constant under load (server CPU 11.72 against 11.48 µs, memory store's
    /// 10.41-10.68; make load with BASELINE=memory).
    final class Constants: Sendable {
        let session: String
        let epoch: Int
        private struct State {
            var taken = false
            var revision: Int
            var merged = Merged()
            var ticket: Ticket
            /// The tickets it absorbed (strict set-constants merged into it): all fail if it does.
            var absorbed: [Ticket] = []
        }
        private let state: Mutex<State>

        var revision: Int { state.withLock { $0.revision } }
        var body: JSON { state.withLock { $0.merged.json } }
        var ticket: Ticket { state.withLock { $0.ticket } }
        var absorbed: [Ticket] { state.withLock { $0.absorbed } }

        init(session: String, revision: Int, body: JSON, ticket: Ticket, epoch: Int) {
            self.session = session
            self.epoch = epoch
            var first = State(revision: revision, ticket: ticket)
            first.merged.add(body)
            state = Mutex(first)
        }

        /// false once the writer took it: the body goes into a new entry then.
        func append(_ body: JSON, _ revision: Int, ticket: Ticket?) -> Bool {
            state.withLock { s in
                if s.taken { return false }
                s.merged.add(body)
                s.revision = revision
                // The merged entry carries the newest ticket; the ones it absorbed lie below it.
                if let ticket { s.absorbed.append(s.ticket); s.ticket = ticket }
                return true
            }
        }

        /// Closes it to appends (when its batch leaves the queue): from then on what it
        /// holds, ticket included, is final.
        func close() { state.withLock { $0.taken = true } }
    }

    /// Sessions deleted by retention, each sweep.
    public var onExpired: @Sendable (Int) -> Void = { _ in }

    public init(storage: any SessionStorage, flushIntervalMilliseconds: Int, retentionSeconds: Int) {
        self.storage = storage
        self.retentionSeconds = retentionSeconds
        failure = storage.initialFailure
        failing.store(failure != nil, ordering: .relaxed)
        self.flushIntervalNanos = UInt64(max(1, flushIntervalMilliseconds)) * 1_000_000
    }

    public func start() {
        let thread = Thread { [self] in run() }
        thread.name = "layoutd-store"
        thread.start()
    }

    /// Why the store cannot be written now, or nil when it can. Checked before a change is
    /// applied, so a refused change leaves its session as it was.
    public var unwritable: String? {
        guard failing.load(ordering: .relaxed) else { return nil }
        return condition.withLock { failure }
    }

    // MARK: Queueing

    public func write(_ w: StorageWrite) -> Ticket {
        enqueue(urgent: true) { t in
            if case .snapshot(_, _, let doc, _) = w.action { snapshotBytes[w.session] = doc.count; journalBytes[w.session] = 0 }
            return .write(w, t)
        }
    }

    /// A structural change: it closes the session's open set-constants entry, so that
    /// nothing set after it is written before it.
    public func changes(_ tail: JournalTail, session: String, revision: Int, body: JSON, epoch: Int = 0) -> Ticket {
        tail.open = nil
        return enqueue(urgent: true) { .changes(session: session, revision: revision, body: body, epoch: epoch, $0) }
    }

    /// A set-constant body, merged into the session's open entry while that is still queued.
    /// Relaxed (`durable` false): that takes only the entry's own lock, not the writer's, and
    /// returns nil (nobody waits). Strict: the writer is woken at once and the ticket returned.
    @discardableResult
    public func constants(_ tail: JournalTail, session: String, revision: Int, body: JSON, durable: Bool, epoch: Int = 0) -> Ticket? {
        if !durable, let open = tail.open, open.append(body, revision, ticket: nil) { return nil }
        condition.lock()
        defer { condition.unlock() }
        let t: Ticket
        if let open = tail.open, open.append(body, revision, ticket: issued + 1) {
            issued += 1
            t = issued
            if durable { urgent = true; condition.signal() }
        } else {
            let entry = Constants(session: session, revision: revision, body: body, ticket: issued + 1, epoch: epoch)
            tail.open = entry
            t = enqueueLocked(urgent: durable) { _ in .constants(entry) }
        }
        return durable ? t : nil
    }

    private func enqueue(urgent: Bool, _ make: (Ticket) -> Item) -> Ticket {
        condition.lock()
        defer { condition.unlock() }
        return enqueueLocked(urgent: urgent, make)
    }

    private func enqueueLocked(urgent now: Bool, _ make: (Ticket) -> Item) -> Ticket {
        issued += 1
        let item = make(issued)
        let wasEmpty = queue.isEmpty
        if wasEmpty { oldestQueuedAt = DispatchTime.now().uptimeNanoseconds }
        queue.append(item)
        if now { urgent = true }
        // Woken only when there is something new to decide: a write due now, or the first one
        // that starts the flush interval. A wake per set-constant cost a context switch each
        // (3 µs of a 10 µs request under load, measured with make load).
        if now || wasEmpty { condition.signal() }
        return issued
    }

    // MARK: Waiting

    /// Blocks until `ticket` is durable (true) or lost, or perhaps lost (false).
    public func wait(_ ticket: Ticket) -> Bool { waitOutcome(ticket) == .durable }

    /// Blocks until `ticket` is resolved: durable, lost, or of unknown outcome.
    public func waitOutcome(_ ticket: Ticket) -> Outcome {
        condition.lock()
        defer { condition.unlock() }
        if ticket > taken { urgent = true; condition.broadcast() }
        while resolved < ticket { condition.wait() }
        return outcome(ticket)
    }

    /// Calls `body` once `ticket` is durable (true) or lost, or perhaps lost (false): at once
    /// when it is already, else on the writer's thread.
    public func whenDurable(_ ticket: Ticket, _ body: @escaping @Sendable (Bool) -> Void) {
        whenResolved(ticket) { body($0 == .durable) }
    }

    /// Calls `body` with `ticket`'s outcome once it is resolved: at once when it is already,
    /// else on the writer's thread.
    public func whenResolved(_ ticket: Ticket, _ body: @escaping @Sendable (Outcome) -> Void) {
        condition.lock()
        if resolved >= ticket {
            let o = outcome(ticket)
            condition.unlock()
            body(o)
            return
        }
        callbacks.append((ticket, body))
        condition.unlock()
    }

    public func isDurable(_ ticket: Ticket) -> Bool { condition.withLock { resolved >= ticket && !isFailed(ticket) } }

    /// Everything queued so far is written (or lost) when this returns.
    public func flush() {
        let last = condition.withLock { issued }
        _ = wait(last)
    }

    /// Sessions whose journal outgrew their snapshot since the last call.
    public func takeCompactions() -> Set<String> {
        condition.withLock {
            defer { compactions = [] }; return compactions
        }
    }

    /// Writes what is queued, then ends the thread.
    public func stop() {
        condition.lock()
        stopping = true
        condition.broadcast()
        while !stopped { condition.wait() }
        condition.unlock()
    }

    private func isFailed(_ t: Ticket) -> Bool { outcome(t) != .durable }

    /// A resolved ticket's outcome (under the lock).
    private func outcome(_ t: Ticket) -> Outcome {
        if unknownRanges.contains(where: { $0.contains(t) }) { return .unknown }
        return failedRanges.contains { $0.contains(t) } || lostTickets.contains(t) ? .lost : .durable
    }

    // MARK: The writer's thread

    private func run() {
        var lastProbe: UInt64 = 0
        while true {
            condition.lock()
            while true {
                if stopping && queue.isEmpty { break }
                if !queue.isEmpty
                    && (urgent || stopping
                        || DispatchTime.now().uptimeNanoseconds &- oldestQueuedAt >= flushIntervalNanos)
                {
                    break
                }
                if queue.isEmpty && failure != nil && DispatchTime.now().uptimeNanoseconds &- lastProbe > 1_000_000_000 { break }
                if queue.isEmpty && failure == nil && DispatchTime.now().uptimeNanoseconds &- lastExpiry > 60_000_000_000 { break }
                let wait =
                    queue.isEmpty
                    ? (failure != nil ? 0.2 : 1.0)
                    : Double(flushIntervalNanos &- (DispatchTime.now().uptimeNanoseconds &- oldestQueuedAt)) / 1e9
                _ = condition.wait(until: Date(timeIntervalSinceNow: max(0.0005, wait)))
            }
            if stopping && queue.isEmpty {
                storage.checkpoint()
                stopped = true
                condition.broadcast()
                condition.unlock()
                return
            }
            let batch = queue
            queue = []
            for case .constants(let c) in batch { c.close() }
            urgent = false
            taken = issued
            let failing = failure
            condition.unlock()

            if batch.isEmpty && failing == nil {
                // Retention, once a minute, on this thread (the store's writing connection is its own).
                lastExpiry = DispatchTime.now().uptimeNanoseconds
                if let n = try? storage.expire(before: Int(saturating: Date().timeIntervalSince1970) - retentionSeconds), n > 0 { onExpired(n) }
                continue
            }
            if batch.isEmpty {
                // The store failed: see whether it can be written again.
                lastProbe = DispatchTime.now().uptimeNanoseconds
                if (try? storage.probe()) != nil { setFailure(nil) }
                continue
            }
            if failing != nil {
                // Nothing goes in while the store is failing: a session must never store a
                // change whose predecessor was lost. Its sessions reload from what is durable.
                if (try? storage.probe()) != nil { setFailure(nil) } else { resolve(batch, .lost); continue }
            }
            let t0 = DispatchTime.now().uptimeNanoseconds
            var writes: [StorageWrite] = []
            writes.reserveCapacity(batch.count)
            var bytes = 0, snapshots = 0
            var grown: [String: Int] = [:]
            func journal(_ s: String, _ revision: Int, _ kind: JournalEntry.Kind, _ body: JSON, _ epoch: Int) {
                let b = body.serialized
                bytes += b.count
                grown[s, default: 0] += b.count
                writes.append(.journal(session: s, entry: JournalEntry(revision: revision, kind: kind, body: b), epoch: epoch))
            }
            for item in batch {
                switch item {
                case .write(let w, _):
                    writes.append(w)
                    if case .snapshot = w.action { snapshots += 1 }
                case .changes(let s, let revision, let body, let epoch, _): journal(s, revision, .changes, body, epoch)
                case .constants(let c): journal(c.session, c.revision, .constants, c.body, c.epoch)
                case .dropped: break
                }
            }
            if writes.isEmpty {
                resolve(batch, .durable)  // dropped writes only: each resolves as lost
                continue
            }
            do {
                let refused = try storage.commit(writes, now: Int(saturating: Date().timeIntervalSince1970))
                onCommit(DispatchTime.now().uptimeNanoseconds &- t0, bytes, snapshots)
                condition.withLock {
                    for (s, n) in grown {
                        let total = journalBytes[s, default: 0] + n
                        journalBytes[s] = total
                        // A journal larger than its snapshot (and than a few pages) costs more to
                        // replay than the snapshot to rewrite.
                        if total > max(snapshotBytes[s] ?? 0, 64 * 1024) { compactions.insert(s) }
                    }
                    for case .write(let w, _) in batch {
                        if case .delete = w.action { journalBytes[w.session] = nil; snapshotBytes[w.session] = nil }
                    }
                }
                if !refused.isEmpty { fence(batch, refused) }
                resolve(batch, .durable)
            } catch {
                lastProbe = DispatchTime.now().uptimeNanoseconds
                setFailure(error.description)
                resolve(batch, error.kind == .outcomeUnknown ? .unknown : .lost)
            }
        }
    }

    private func setFailure(_ f: String?) {
        let changed = condition.withLock { () -> Bool in
            defer { failure = f; failing.store(f != nil, ordering: .relaxed) }
            return (failure == nil) != (f == nil)
        }
        if changed { onFailure(f) }
    }

    /// Marks the tickets of the refused sessions' writes as lost, before the batch resolves.
    private func fence(_ batch: [Item], _ refused: Set<String>) {
        condition.withLock {
            for item in batch where refused.contains(item.session) { markLost(item.tickets) }
        }
        onFenced(Array(refused))
    }

    /// (Under the lock.)
    private func markLost(_ tickets: [Ticket]) {
        for t in tickets where lostTickets.insert(t).inserted { lostOrder.append(t) }
        if lostOrder.count > 8192 {
            for t in lostOrder.prefix(4096) { lostTickets.remove(t) }
            lostOrder.removeFirst(4096)
        }
    }

    /// Takes the queued writes of sessions whose write was just lost out of the queue, as
    /// lost too (under the lock). Written once the store recovered, a later change would be
    /// stored without the one it was made on (a gap in the session's revisions), answered as
    /// durable, and then dropped or replayed on the wrong document by a restore. They are all
    /// in the queue by now: `onLost` retired the sessions (waiting for a request under way),
    /// so nothing more is queued from what was in memory; the session's next writes come
    /// from it restored, at the revisions the store has.
    private func dropQueued(of sessions: Set<String>) {
        for (i, item) in queue.enumerated() where sessions.contains(item.session) {
            if case .dropped = item { continue }
            if case .constants(let c) = item { c.close() }
            markLost(item.tickets)
            queue[i] = .dropped(session: item.session, item.ticket)
        }
    }

    private func resolve(_ batch: [Item], _ batchOutcome: Outcome) {
        guard let hi = batch.map(\.ticket).max() else { return }
        // Perhaps stored or not: either way the session in memory may not be what the store
        // holds, and is read back from it. (A dropped write's session was already.)
        var lostSessions: Set<String> = []
        if batchOutcome != .durable {
            for item in batch {
                if case .dropped = item { continue }
                lostSessions.insert(item.session)
            }
            if !lostSessions.isEmpty { onLost(Array(lostSessions)) }
        }
        condition.lock()
        dropQueued(of: lostSessions)
        // A batch holds every ticket issued since the last one resolved (a merged constants
        // item carries its newest ticket; the ones it absorbed lie below it).
        switch batchOutcome {
        case .durable: break
        case .lost:
            failedRanges.append((resolved + 1)...hi)
            if failedRanges.count > 64 { failedRanges.removeFirst() }
        case .unknown:
            unknownRanges.append((resolved + 1)...hi)
            if unknownRanges.count > 64 { unknownRanges.removeFirst() }
        }
        resolved = max(resolved, hi)
        let due = callbacks.filter { $0.ticket <= resolved }
        callbacks.removeAll { $0.ticket <= resolved }
        let outcomes = due.map { outcome($0.ticket) }
        condition.broadcast()
        condition.unlock()
        for (c, o) in zip(due, outcomes) { c.body(o) }
    }

    /// Set-constant bodies in order as one: each key's latest value, in the order of the
    /// latest writes (so two names of one constraint keep their last-write order).
    struct Merged {
        private var latest: [String: (value: JSON, at: Int)] = [:]
        private var at = 0

        mutating func add(_ body: JSON) {
            for (k, v) in body.members ?? [] {
                latest[k] = (v, at)
                at += 1
            }
        }

        var json: JSON { .object(latest.sorted { $0.value.at < $1.value.at }.map { ($0.key, $0.value.value) }) }
    }
}
