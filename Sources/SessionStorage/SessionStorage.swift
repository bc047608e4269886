/// What a store keeps of one session: the document at some revision (the snapshot) and the
/// changes accepted since (the journal), each as the bytes the layer above wrote. The store
/// knows nothing of documents or changes.
public struct StoredSession: Sendable {
    public var revision: Int
    /// The document's counter of server-given constraint ids at the snapshot.
    public var nextAutoID: Int
    public var document: [UInt8]
    public var journal: [JournalEntry]
    /// Journal entries dropped because their bytes fail their checksum (a torn or corrupt
    /// tail): the entry and everything after it.
    public var skipped: Int
    /// Who the session belongs to (a tenant's name; empty on a server without keys).
    public var owner: String = ""
}

public struct JournalEntry: Sendable {
    public enum Kind: Int, Sendable { case changes = 1, constants = 2 }
    public var revision: Int
    public var kind: Kind
    public var body: [UInt8]
}

/// One write of a batch; a batch is one transaction.
public struct StorageWrite: Sendable {
    public enum Action: Sendable {
        /// A new session, or a compaction: the snapshot replaces an older one and the journal up to it.
        /// `owner` is written with a new session and never changed by a later snapshot.
        case snapshot(revision: Int, nextAutoID: Int, document: [UInt8], owner: String)
        case journal(JournalEntry)
        case delete
        /// Drops the journal past a revision (a torn tail that was skipped on restore).
        case truncate(after: Int)
    }

    public var session: String
    public var action: Action
    /// The lease epoch the write was made under (0 where the store keeps no leases): a store
    /// with leases refuses it once the session's lease has moved on (fencing).
    public var epoch: Int

    public static func snapshot(session: String, revision: Int, nextAutoID: Int, document: [UInt8], owner: String = "", epoch: Int = 0)
        -> StorageWrite
    {
        StorageWrite(session: session, action: .snapshot(revision: revision, nextAutoID: nextAutoID, document: document, owner: owner), epoch: epoch)
    }
    public static func journal(session: String, entry: JournalEntry, epoch: Int = 0) -> StorageWrite {
        StorageWrite(session: session, action: .journal(entry), epoch: epoch)
    }
    public static func delete(session: String, epoch: Int = 0) -> StorageWrite {
        StorageWrite(session: session, action: .delete, epoch: epoch)
    }
    public static func truncate(session: String, after revision: Int, epoch: Int = 0) -> StorageWrite {
        StorageWrite(session: session, action: .truncate(after: revision), epoch: epoch)
    }
}

/// The statements a store runs for a batch's items; `apply` walks a batch through them the
/// same way for every store (inside the store's transaction).
protocol BatchStatements {
    associatedtype Failure: Error
    func snapshot(
        _ session: String, revision: Int, nextAutoID: Int, owner: String, stored: (bytes: [UInt8], rawSize: Int, checksum: Int), now: Int, epoch: Int
    ) throws(Failure)
    func journal(_ session: String, _ entry: JournalEntry, stored: (bytes: [UInt8], rawSize: Int, checksum: Int), epoch: Int) throws(Failure)
    func delete(_ session: String) throws(Failure)
    func truncate(_ session: String, after revision: Int) throws(Failure)
    /// A session written to by the batch: its last-written time moves on.
    func touch(_ session: String, now: Int) throws(Failure)
}

extension BatchStatements {
    func apply(_ batch: [StorageWrite], now: Int) throws(Failure) {
        var touched: Set<String> = []
        for item in batch {
            let s = item.session
            switch item.action {
            case .snapshot(let revision, let next, let document, let owner):
                try snapshot(s, revision: revision, nextAutoID: next, owner: owner, stored: StoredBytes.encode(document), now: now, epoch: item.epoch)
            case .journal(let entry):
                try journal(s, entry, stored: StoredBytes.encode(entry.body), epoch: item.epoch)
                touched.insert(s)
            case .delete:
                try delete(s)
                touched.remove(s)
            case .truncate(let revision):
                try truncate(s, after: revision)
            }
        }
        for s in touched { try touch(s, now: now) }
    }
}

public struct StorageError: Error, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// Nothing of the write was stored (the store refused it, or it never got there).
        case notStored
        /// The commit was sent and its answer lost (the connection dropped while it ran), or
        /// its I/O failed after the write reached the file (fsync): it may or may not be stored.
        case outcomeUnknown
    }

    public var description: String
    public var kind: Kind
    public init(_ description: String, kind: Kind = .notStored) {
        self.description = description
        self.kind = kind
    }
}

/// A durable home for sessions. Writes come from one thread (the `StoreWriter`); loads
/// from any.
public protocol SessionStorage: AnyObject, Sendable {
    /// Why the store cannot be written from the start (it opened read-only), or nil.
    var initialFailure: String? { get }
    /// Writes every item in one transaction, durable when this returns; returns the sessions
    /// whose writes were refused because their lease moved on (fencing: none without leases).
    /// Throws `.outcomeUnknown` only when the commit may have been made (its answer was lost,
    /// or its fsync failed).
    func commit(_ batch: [StorageWrite], now: Int) throws(StorageError) -> Set<String>
    func load(_ session: String) throws(StorageError) -> StoredSession?
    /// How many sessions the store holds for a tenant (its `sessions` quota counts them).
    func count(ownedBy owner: String) throws(StorageError) -> Int
    /// Deletes sessions not written since `before` (seconds since 1970); returns how many.
    func expire(before: Int) throws(StorageError) -> Int
    /// A small write that fails when the store cannot be written.
    func probe() throws(StorageError)
    /// Called once all is written, before a clean stop.
    func checkpoint()
}

/// What asking for a session's lease came to.
public enum LeaseClaim: Sendable, Equatable {
    /// This replica owns the session now, under this epoch.
    case acquired(epoch: Int)
    /// Another replica owns it for this long yet (or was asked to hand it to this one).
    case ownedElsewhere(owner: String, retryAfterMilliseconds: Int)
    /// No such session is stored (or, when creating, one with the id exists: `taken`).
    case missing
    case taken
}

/// One owner per session among replicas sharing a store: a lease row per session (owner,
/// epoch, expiry on the database's clock), renewed by its owner, taken over only once it
/// expired or was released, each taking bumping the epoch that fences the former owner's
/// writes out (`commit` refuses writes made under an older epoch).
public protocol SessionLeasing: AnyObject, Sendable {
    var replicaID: String { get }
    var leaseMilliseconds: Int { get }
    /// Takes a stored session's lease (or, `creating`, a new session's).
    func claim(_ session: String, creating: Bool) throws(StorageError) -> LeaseClaim
    /// Extends the leases held (session, epoch); returns those still held, and those among
    /// them another replica asked for (to be handed over).
    func renew(_ held: [(session: String, epoch: Int)]) throws(StorageError) -> (held: Set<String>, wanted: Set<String>)
    /// Gives leases up at once (after their writes are durable): a session can be taken
    /// without waiting for expiry.
    func release(_ held: [(session: String, epoch: Int)]) throws(StorageError)
}
