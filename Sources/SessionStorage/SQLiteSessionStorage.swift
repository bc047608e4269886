import CSQLite
import CheckedNumbers
import Foundation
import Synchronization

/// Sessions in an SQLite database in WAL mode with `synchronous=FULL`: a commit is on disk
/// (the WAL fsynced) when `commit` returns, and survives a process crash and a power loss.
/// One connection writes (the writer's thread); loads share one reading connection, which
/// WAL lets run beside the writer. `@unchecked`: the writing connection is used on the
/// writer's thread only; the reading one lives in a Mutex.
public final class SQLiteSessionStorage: SessionStorage, @unchecked Sendable {
    public let path: String
    /// Why the store was opened read-only (it exists but cannot be written), or nil.
    public let initialFailure: String?
    private let writing: Writing?
    private let reading: Mutex<Reading>

    /// The reading connection and its statements, used by one load at a time.
    private final class Reading {
        let connection: SQLiteConnection
        let selectSession, selectJournal, countOwned: Statement
        init(path: String, readOnly: Bool) throws(SQLiteError) {
            // Read-only, SQLite reads the WAL through its existing -shm (3.22 and later).
            connection = try SQLiteConnection(path: path, readOnly: readOnly)
            selectSession = try connection.prepare("SELECT revision, next_auto, document, raw_size, checksum, owner FROM sessions WHERE id=?1")
            selectJournal = try connection.prepare(
                "SELECT revision, kind, body, raw_size, checksum FROM journal WHERE session=?1 AND revision>?2 ORDER BY revision")
            countOwned = try connection.prepare("SELECT count(*) FROM sessions WHERE owner=?1")
        }
    }

    /// The writing connection and its statements (the writer's thread only).
    fileprivate final class Writing {
        let connection: SQLiteConnection
        let upsertSnapshot, deleteJournalUpTo, deleteJournalAfter, insertJournal, touchSession, deleteSession, deleteSessionJournal: Statement
        let probe, selectExpired: Statement

        init(path: String) throws(SQLiteError) {
            connection = try SQLiteConnection(path: path)
            // SQLite opens a file it may not write read-only without a word: ask.
            if connection.isReadOnly { throw SQLiteError(code: 8, message: "the database file cannot be written") }
            try connection.execute(
                """
                PRAGMA journal_mode=WAL;
                PRAGMA synchronous=FULL;
                CREATE TABLE IF NOT EXISTS sessions(
                    id TEXT PRIMARY KEY, revision INTEGER NOT NULL, next_auto INTEGER NOT NULL,
                    document BLOB NOT NULL, raw_size INTEGER NOT NULL, checksum INTEGER NOT NULL,
                    updated_at INTEGER NOT NULL) WITHOUT ROWID;
                CREATE TABLE IF NOT EXISTS journal(
                    session TEXT NOT NULL, revision INTEGER NOT NULL, kind INTEGER NOT NULL,
                    body BLOB NOT NULL, raw_size INTEGER NOT NULL, checksum INTEGER NOT NULL,
                    PRIMARY KEY(session, revision)) WITHOUT ROWID;
                CREATE INDEX IF NOT EXISTS sessions_updated ON sessions(updated_at);
                CREATE TABLE IF NOT EXISTS probe(k INTEGER PRIMARY KEY, at INTEGER NOT NULL, pad BLOB);
                """)
            // Who each session belongs to, added to a store made before tenants.
            var hasOwner = false
            try connection.prepare("SELECT 1 FROM pragma_table_info('sessions') WHERE name='owner'").run([]) { _ in hasOwner = true }
            if !hasOwner { try connection.execute("ALTER TABLE sessions ADD COLUMN owner TEXT NOT NULL DEFAULT ''") }
            // A tenant's sessions counted at each creation under a quota: an index, not a scan.
            try connection.execute("CREATE INDEX IF NOT EXISTS sessions_owner ON sessions(owner)")
            // A newer snapshot only: a compaction that lost a race to a later one never goes back.
            upsertSnapshot = try connection.prepare(
                """
                INSERT INTO sessions(id, revision, next_auto, document, raw_size, checksum, updated_at, owner) VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)
                ON CONFLICT(id) DO UPDATE SET revision=excluded.revision, next_auto=excluded.next_auto, document=excluded.document,
                    raw_size=excluded.raw_size, checksum=excluded.checksum, updated_at=excluded.updated_at
                WHERE excluded.revision > sessions.revision
                """)
            deleteJournalUpTo = try connection.prepare("DELETE FROM journal WHERE session=?1 AND revision<=?2")
            deleteJournalAfter = try connection.prepare("DELETE FROM journal WHERE session=?1 AND revision>?2")
            insertJournal = try connection.prepare(
                "INSERT OR REPLACE INTO journal(session, revision, kind, body, raw_size, checksum) VALUES(?1, ?2, ?3, ?4, ?5, ?6)")
            touchSession = try connection.prepare("UPDATE sessions SET updated_at=?2 WHERE id=?1")
            deleteSession = try connection.prepare("DELETE FROM sessions WHERE id=?1")
            deleteSessionJournal = try connection.prepare("DELETE FROM journal WHERE session=?1")
            probe = try connection.prepare("INSERT OR REPLACE INTO probe(k, at, pad) VALUES(1, ?1, zeroblob(?2))")
            selectExpired = try connection.prepare("SELECT id FROM sessions WHERE updated_at<?1")
        }
    }

    /// Opens (or creates) the database. One that exists but cannot be written (a read-only
    /// volume, a file whose permissions forbid it) is opened read-only: its sessions can be
    /// read, and every write fails with `initialFailure`.
    public init(path: String) throws(StorageError) {
        self.path = path
        let dir = (path as NSString).deletingLastPathComponent
        if !dir.isEmpty { try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true) }
        var writing: Writing? = nil
        var failure: String? = nil
        do throws(SQLiteError) { writing = try Writing(path: path) } catch {
            guard FileManager.default.fileExists(atPath: path) else {
                throw StorageError("cannot open the SQLite store at \(path): \(error.message)")
            }
            failure = "the SQLite store at \(path) is read-only: \(error.message)"
        }
        self.writing = writing
        initialFailure = failure
        do throws(SQLiteError) {
            reading = Mutex(try Reading(path: path, readOnly: writing == nil))
        } catch {
            throw StorageError("cannot read the SQLite store at \(path): \(error.message)")
        }
    }

    private func writable() throws(StorageError) -> Writing {
        guard let writing else { throw StorageError(initialFailure ?? "the store cannot be written") }
        return writing
    }

    @discardableResult
    public func commit(_ batch: [StorageWrite], now: Int) throws(StorageError) -> Set<String> {
        let w = try writable()
        let writer = w.connection
        var committing = false
        do throws(SQLiteError) {
            try writer.execute("BEGIN IMMEDIATE")
            do throws(SQLiteError) {
                try w.apply(batch, now: now)
                committing = true
                try writer.execute("COMMIT")
            } catch {
                try? writer.execute("ROLLBACK")
                throw error
            }
        } catch {
            // A failed fsync at COMMIT comes after its WAL frames were written: the kernel may
            // have put them on disk anyway, and recovery after a crash replays a whole commit,
            // so the write may or may not be stored. A failed write (a full disk, a file size
            // limit) stops before the commit frame is whole: nothing is stored.
            // SQLITE_IOERR_FSYNC and SQLITE_IOERR_DIR_FSYNC (sqlite3.h's macros, not imported).
            let fsyncFailed: Set<Int32> = [SQLITE_IOERR | 4 << 8, SQLITE_IOERR | 5 << 8]
            let mayBeStored = committing && fsyncFailed.contains(error.code)
            throw StorageError(
                "the SQLite store at \(path) cannot be written\(mayBeStored ? " (its fsync failed: the write may or may not be stored)" : ""): \(error.message)",
                kind: mayBeStored ? .outcomeUnknown : .notStored)
        }
        return []  // one process owns the file: nothing to fence
    }

    public func load(_ session: String) throws(StorageError) -> StoredSession? {
        try reading.withLock { reading throws(StorageError) in try load(session, reading) }
    }

    public func count(ownedBy owner: String) throws(StorageError) -> Int {
        try reading.withLock { reading throws(StorageError) in
            var n = 0
            do throws(SQLiteError) { try reading.countOwned.run([.text(owner)]) { row in n = row.int(0) } } catch {
                throw StorageError("cannot count sessions in \(path): \(error.message)")
            }
            return n
        }
    }

    private func load(_ session: String, _ reading: Reading) throws(StorageError) -> StoredSession? {
        var found: StoredSession?
        var corrupt = false
        do throws(SQLiteError) {
            try reading.selectSession.run([.text(session)]) { row in
                guard let document = StoredBytes.decode(row.blob(2), rawSize: row.int(3), checksum: row.int(4)) else { corrupt = true; return }
                found = StoredSession(revision: row.int(0), nextAutoID: row.int(1), document: document, journal: [], skipped: 0, owner: row.text(5))
            }
            guard !corrupt, var stored = found else { return nil }
            try reading.selectJournal.run([.text(session), .int(stored.revision)]) { row in
                guard stored.skipped == 0, let kind = JournalEntry.Kind(rawValue: row.int(1)),
                    let body = StoredBytes.decode(row.blob(2), rawSize: row.int(3), checksum: row.int(4))
                else { stored.skipped += 1; return }
                stored.journal.append(JournalEntry(revision: row.int(0), kind: kind, body: body))
            }
            found = stored
        } catch {
            throw StorageError("cannot read session \(session) from \(path): \(error.message)")
        }
        if corrupt { throw StorageError("the stored snapshot of session \(session) fails its checksum") }
        return found
    }

    public func expire(before: Int) throws(StorageError) -> Int {
        let w = try writable()
        var ids: [String] = []
        do throws(SQLiteError) { try w.selectExpired.run([.int(before)]) { ids.append($0.text(0)) } } catch {
            throw StorageError("cannot expire sessions in \(path): \(error.message)")
        }
        guard !ids.isEmpty else { return 0 }
        _ = try commit(ids.map { .delete(session: $0) }, now: before)
        return ids.count
    }

    /// Moves the WAL into the database (a clean stop): the next start reads one file.
    public func checkpoint() {
        try? writing?.connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    }

    /// Writes (and fsyncs) 64 KB, after a checkpoint that lets the WAL shrink: a store that
    /// failed for want of room is taken back only when a document's worth fits again.
    public func probe() throws(StorageError) {
        let w = try writable()
        do throws(SQLiteError) {
            try w.connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            try w.probe.run([.int(Int(saturating: Date().timeIntervalSince1970)), .int(65_536)])
            try w.probe.run([.int(Int(saturating: Date().timeIntervalSince1970)), .int(0)])
        } catch {
            throw StorageError("the SQLite store at \(path) cannot be written: \(error.message)")
        }
    }
}

extension SQLiteSessionStorage.Writing: BatchStatements {
    func snapshot(
        _ s: String, revision: Int, nextAutoID: Int, owner: String, stored e: (bytes: [UInt8], rawSize: Int, checksum: Int), now: Int, epoch: Int
    ) throws(SQLiteError) {
        try upsertSnapshot.run([
            .text(s), .int(revision), .int(nextAutoID), .blob(e.bytes), .int(e.rawSize), .int(e.checksum), .int(now), .text(owner)
        ])
        try deleteJournalUpTo.run([.text(s), .int(revision)])
    }

    func journal(_ s: String, _ entry: JournalEntry, stored e: (bytes: [UInt8], rawSize: Int, checksum: Int), epoch: Int) throws(SQLiteError) {
        try insertJournal.run([.text(s), .int(entry.revision), .int(entry.kind.rawValue), .blob(e.bytes), .int(e.rawSize), .int(e.checksum)])
    }

    func delete(_ s: String) throws(SQLiteError) {
        try deleteSession.run([.text(s)])
        try deleteSessionJournal.run([.text(s)])
    }

    func truncate(_ s: String, after revision: Int) throws(SQLiteError) { try deleteJournalAfter.run([.text(s), .int(revision)]) }

    func touch(_ s: String, now: Int) throws(SQLiteError) { try touchSession.run([.text(s), .int(now)]) }
}
