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
}

public struct JournalEntry: Sendable {
    public enum Kind: Int, Sendable { case changes = 1, constants = 2 }
    public var revision: Int
    public var kind: Kind
    public var body: [UInt8]
}

/// One write of a batch; a batch is one transaction.
public enum StorageWrite: Sendable {
    /// A new session, or a compaction: the snapshot replaces an older one and the journal up to it.
    case snapshot(session: String, revision: Int, nextAutoID: Int, document: [UInt8])
    case journal(session: String, entry: JournalEntry)
    case delete(session: String)
    /// Drops the journal past a revision (a torn tail that was skipped on restore).
    case truncate(session: String, after: Int)

    var session: String {
        switch self {
        case .snapshot(let s, _, _, _), .journal(let s, _), .delete(let s), .truncate(let s, _): return s
        }
    }
}

/// The statements a store runs for a batch's items; `apply` walks a batch through them the
/// same way for every store (inside the store's transaction).
protocol BatchStatements {
    associatedtype Failure: Error
    func snapshot(_ session: String, revision: Int, nextAutoID: Int, stored: (bytes: [UInt8], rawSize: Int, checksum: Int), now: Int) throws(Failure)
    func journal(_ session: String, _ entry: JournalEntry, stored: (bytes: [UInt8], rawSize: Int, checksum: Int)) throws(Failure)
    func delete(_ session: String) throws(Failure)
    func truncate(_ session: String, after revision: Int) throws(Failure)
    /// A session written to by the batch: its last-written time moves on.
    func touch(_ session: String, now: Int) throws(Failure)
}

extension BatchStatements {
    func apply(_ batch: [StorageWrite], now: Int) throws(Failure) {
        var touched: Set<String> = []
        for item in batch {
            switch item {
            case .snapshot(let s, let revision, let next, let document):
                try snapshot(s, revision: revision, nextAutoID: next, stored: StoredBytes.encode(document), now: now)
            case .journal(let s, let entry):
                try journal(s, entry, stored: StoredBytes.encode(entry.body))
                touched.insert(s)
            case .delete(let s):
                try delete(s)
                touched.remove(s)
            case .truncate(let s, let revision):
                try truncate(s, after: revision)
            }
        }
        for s in touched { try touch(s, now: now) }
    }
}

public struct StorageError: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}

/// A durable home for sessions. Writes come from one thread (the `StoreWriter`); loads
/// from any.
public protocol SessionStorage: AnyObject, Sendable {
    /// Why the store cannot be written from the start (it opened read-only), or nil.
    var initialFailure: String? { get }
    /// Writes every item in one transaction, durable when this returns.
    func commit(_ batch: [StorageWrite], now: Int) throws(StorageError)
    func load(_ session: String) throws(StorageError) -> StoredSession?
    /// Deletes sessions not written since `before` (seconds since 1970); returns how many.
    func expire(before: Int) throws(StorageError) -> Int
    /// A small write that fails when the store cannot be written.
    func probe() throws(StorageError)
    /// Called once all is written, before a clean stop.
    func checkpoint()
}
