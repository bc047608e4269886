import CheckedNumbers
import Foundation
import HTTPTransport
import JSON
import LayoutModel
import Logging
import Prometheus
import SessionStorage
import Synchronization

/// The server's side of a durable store: what each accepted change writes, when its answer
/// may go (the durability policy), and how a stored session comes back.
///
/// A session is stored as the document it was created from (or, after a compaction, the
/// document as `GET /v1/sessions/{id}` returns it) and the journal of changes accepted
/// since, each as its request body. Restoring builds the document and replays the journal,
/// each entry landing at the revision it had.
final class SessionPersistence: Sendable {
    typealias Ticket = StoreWriter.Ticket

    let writer: StoreWriter
    /// The store's leases (PostgreSQL, shared by replicas); nil where one process owns the store.
    let leases: LeaseKeeper?
    let durability: Durability
    private let metrics: ServerMetrics
    private let logger: Logger
    private let limits: SessionLimits

    init(storage: any SessionStorage, configuration: ServerConfiguration, metrics: ServerMetrics, logger: Logger) {
        writer = StoreWriter(
            storage: storage, flushIntervalMilliseconds: configuration.flushIntervalMilliseconds,
            retentionSeconds: configuration.sessionRetentionSeconds)
        durability = configuration.durability
        self.metrics = metrics
        self.logger = logger
        limits = configuration.sessionLimits
        let writer = writer
        leases = (storage as? any SessionLeasing).map { LeaseKeeper(leasing: $0, writer: writer, metrics: metrics, logger: logger) }
        writer.onCommit = { nanos, bytes, snapshots in
            metrics.storeCommitTime.recordNanoseconds(Int64(nanos))
            if bytes > 0 { metrics.storeJournalBytes.increment(by: bytes) }
            if snapshots > 0 { metrics.storeSnapshots.increment(by: snapshots) }
        }
        writer.onFailure = { failure in
            if let failure {
                logger.error("store unwritable: writes answer 503 until it recovers", metadata: ["error": "\(failure)"])
            } else {
                logger.notice("store writable again")
            }
        }
        if let failure = storage.initialFailure {
            logger.error("store read-only: sessions can be read, writes answer 503", metadata: ["error": "\(failure)"])
        }
        writer.onExpired = { n in
            metrics.sessionsExpired.increment(by: n)
            logger.info("sessions expired from the store", metadata: ["count": "\(n)"])
        }
    }

    /// Opens the store the configuration names (nil: sessions live in memory only).
    static func storage(_ configuration: ServerConfiguration, logger: Logger) throws(StorageError) -> (any SessionStorage)? {
        switch configuration.store {
        case .memory: return nil
        case .sqlite(let path): return try SQLiteSessionStorage(path: path)
        case .postgres(let url):
            let replica = configuration.replicaID ?? "\(hostName()):\(configuration.http.port)"
            let storage = try PostgresSessionStorage(url: url, replicaID: replica, leaseMilliseconds: configuration.leaseMilliseconds)
            logger.info("session leases", metadata: ["replica": "\(replica)", "lease_ms": "\(configuration.leaseMilliseconds)"])
            return storage
        }
    }

    /// Wires the store's failures to the sessions in memory: a session whose writes were
    /// lost is ahead of the store, so it leaves memory and comes back as stored.
    func attach(to store: SessionStore) {
        let metrics = metrics
        writer.onLost = { [weak store] ids in
            metrics.sessionsLost.increment(by: ids.count)
            store?.evict(ids)
        }
        writer.onFenced = { [weak store, logger] ids in
            metrics.writesFenced.increment(by: ids.count)
            logger.warning("writes refused: the sessions' leases moved to another replica", metadata: ["sessions": "\(ids.count)"])
            store?.evict(ids)
        }
        store.restorer = { [self] id throws(Problem) in try restore(id) }
        leases?.attach(to: store)
        writer.start()
        leases?.start(store)
    }

    // MARK: Writes

    /// Checked before a change is applied, so a refused change leaves its session as it was.
    func checkWritable() throws(Problem) {
        if let failure = writer.unwritable {
            throw Problem(503, "the session store cannot be written (\(failure)); reads go on, retry writes later", headers: [("Retry-After", "5")])
        }
    }

    /// A new session's id and lease (epoch 0, and no claim, without leases).
    func claimNew(_ proposed: String?) throws(Problem) -> (id: String, epoch: Int, until: UInt64) {
        let id = proposed ?? SessionStore.newID()
        guard let leases else { return (id, 0, .max) }
        let claimed = try leases.claimNew(id)
        return (id, claimed.epoch, claimed.until)
    }

    /// A new session's claim whose session could not be held: its lease goes at once.
    func abandon(_ claim: (id: String, epoch: Int, until: UInt64)) {
        if claim.epoch > 0 { leases?.abandon(claim.id, epoch: claim.epoch) }
    }

    func created(_ box: SessionBox, document body: [UInt8]) -> Ticket {
        let ticket = writer.write(
            .snapshot(
                session: box.id, revision: box.session.revision, nextAutoID: box.session.nextAutoID, document: body, owner: box.owner,
                epoch: box.epoch))
        writer.whenDurable(ticket) { ok in if ok { box.stored.store(true, ordering: .relaxed) } }
        return ticket
    }

    /// The sessions the store holds for a tenant (every replica's, on a shared store).
    func storedCount(ownedBy owner: String) throws(Problem) -> Int {
        do throws(StorageError) { return try writer.storage.count(ownedBy: owner) } catch {
            throw Problem(503, "the session store cannot be read: \(error.description)", headers: [("Retry-After", "1")])
        }
    }

    func changed(_ box: SessionBox, revision: Int, _ body: JSON) -> Ticket {
        writer.changes(box.journalTail, session: box.id, revision: revision, body: body, epoch: box.epoch)
    }

    /// Set-constants: durable before the answer under strict (a ticket), within the flush
    /// interval under relaxed (nil). Both under the session's lock.
    func constantsSet(_ box: SessionBox, revision: Int, _ body: JSON) -> Ticket? {
        writer.constants(box.journalTail, session: box.id, revision: revision, body: body, durable: durability == .strict, epoch: box.epoch)
    }

    func deleted(_ box: SessionBox) -> Ticket { writer.write(.delete(session: box.id, epoch: box.epoch)) }

    static let lost = Problem(
        503, "the change could not be stored (the session store failed): the session is as it was stored; read it again and retry",
        headers: [("Retry-After", "5")])

    /// The store's answer to the commit was lost (PostgreSQL's connection dropped after COMMIT
    /// was sent): the write may be stored or not, so neither "done" nor "not done" is answered.
    /// 502, as nginx answers a write whose replica died before answering: read the session
    /// back (it is reloaded from the store) before retrying; a change with baseRevision is safe
    /// to retry as it is.
    static func outcomeUnknown(session: String? = nil) -> Problem {
        var p = Problem(
            502,
            "the session store's answer to this write was lost: it may or may not have been stored; "
                + "read the session back before retrying (a change with baseRevision is safe to retry)")
        p.session = session
        return p
    }

    static func problem(for outcome: StoreWriter.Outcome, session: String? = nil) -> Problem? {
        switch outcome {
        case .durable: return nil
        case .lost: return lost
        case .unknown: return outcomeUnknown(session: session)
        }
    }

    /// Holds `response` until `ticket` is durable; a lost write answers 503 instead, one
    /// perhaps stored 502. `session`: a new session's id, named in the 502 (the client has
    /// no other way to learn it).
    func hold(_ response: inout Response, until ticket: Ticket?, session: String? = nil) {
        guard let ticket, !writer.isDurable(ticket) else { return }
        let writer = writer
        response.hold = { release in
            writer.whenResolved(ticket) { outcome in release(Self.problem(for: outcome, session: session)?.response) }
        }
    }

    /// Blocks until `ticket` is durable (a stream's answer, which keeps its order this way).
    func wait(_ ticket: Ticket?) throws(Problem) {
        guard let ticket else { return }
        if let problem = Self.problem(for: writer.waitOutcome(ticket)) { throw problem }
    }

    // MARK: Restoring

    /// Rebuilds a stored session: its document, then its journal replayed. nil when none is
    /// stored. A journal entry that fails its checksum, or does not replay, ends the replay
    /// there (a torn tail): what follows it is dropped, never applied out of order.
    func restore(_ id: String) throws(Problem) -> SessionStore.Restored? {
        let t0 = DispatchTime.now().uptimeNanoseconds
        // What this session queued before it left memory is in the store when this returns
        // (before the claim: a claim bumps the epoch, which would fence those writes out).
        writer.flush()
        var lease: (epoch: Int, until: UInt64) = (0, .max)
        if let leases {
            guard let claimed = try leases.claimStored(id) else { return nil }
            lease = claimed
        }
        var restored = false
        defer { if !restored, lease.epoch > 0 { leases?.abandon(id, epoch: lease.epoch) } }
        let stored: StoredSession?
        do { stored = try writer.storage.load(id) } catch {
            logger.error("cannot read a stored session", metadata: ["session": "\(id)", "error": "\(error)"])
            throw Problem(503, "the session store cannot be read now", headers: [("Retry-After", "5")])
        }
        guard let stored else { return nil }
        let session: LayoutSession
        do {
            session = try LayoutSession.make(body: stored.document, limits: limits).session
            // As the session was when it was made: compacted before its changes, so the replay
            // takes the same steps.
            session.compact()
        } catch {
            logger.error("a stored session's document does not build", metadata: ["session": "\(id)", "error": "\(error)"])
            throw Problem(503, "the stored session \(id) cannot be rebuilt", headers: [("Retry-After", "60")])
        }
        session.restore(revision: stored.revision, nextAutoID: stored.nextAutoID)
        var replayed = 0
        for entry in stored.journal {
            do {
                let json = try JSONParser.parse(entry.body)
                switch entry.kind {
                case .changes: try session.replay(changes: json, at: entry.revision)
                case .constants: try session.replay(constants: json, at: entry.revision)
                }
                replayed += 1
            } catch {
                logger.warning(
                    "a journal entry does not replay: the journal ends before it",
                    metadata: [
                        "session": "\(id)", "revision": "\(entry.revision)", "error": "\(error)"
                    ])
                break
            }
        }
        let dropped = stored.journal.count - replayed + stored.skipped
        if dropped > 0 {
            logger.warning(
                "a torn or corrupt journal tail was skipped",
                metadata: [
                    "session": "\(id)", "entries": "\(dropped)", "revision": "\(session.revision)"
                ])
            // Dropped from the store too: a later change takes the revision the bad entry had,
            // and nothing after the gap may replay.
            _ = writer.write(.truncate(session: id, after: session.revision, epoch: lease.epoch))
        }
        metrics.sessionsRestored.increment()
        metrics.restoreTime.recordNanoseconds(Int64(DispatchTime.now().uptimeNanoseconds - t0))
        logger.debug("session restored", metadata: ["session": "\(id)", "revision": "\(session.revision)", "journal": "\(replayed)"])
        restored = true
        return (session, lease.epoch, lease.until, stored.owner)
    }

    // MARK: Compaction

    /// Rewrites the snapshot of each session whose journal outgrew it. The document is a
    /// value: it is copied under the session's lock (constant time) and serialised here,
    /// off the session's path.
    func compact(_ store: SessionStore) {
        for id in writer.takeCompactions() {
            guard let box = store.resident(id),
                let (document, revision, next) = box.withSession({ s in (s.document, s.revision, s.nextAutoID) })
            else { continue }
            let bytes = document.json.serialized
            _ = writer.write(.snapshot(session: id, revision: revision, nextAutoID: next, document: bytes, owner: box.owner, epoch: box.epoch))
        }
    }

    /// Writes what is queued (SIGTERM): a clean stop loses nothing under either policy. Then
    /// the leases go, so that other replicas take the sessions at once.
    func stop(_ store: SessionStore) {
        writer.stop()
        leases?.stop(store)
    }
}

/// This machine's name (a pod's name under Kubernetes): the default replica id's first half.
func hostName() -> String {
    var buffer = [CChar](repeating: 0, count: 256)
    guard gethostname(&buffer, buffer.count - 1) == 0 else { return "layoutd" }
    return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
}
