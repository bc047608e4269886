import Foundation

/// Sessions in an SQLite database in WAL mode with `synchronous=FULL`: a commit is on disk
/// (the WAL fsynced) when `commit` returns, and survives a process crash and a power loss.
/// One connection writes (the writer's thread); loads share one reading connection, which
/// WAL lets run beside the writer.
public final class SQLiteSessionStorage: SessionStorage, @unchecked Sendable {
    public let path: String
    private let writer: SQLiteConnection
    private let reader: SQLiteConnection
    private let readLock = NSLock()
    private let upsertSnapshot, deleteJournalUpTo, deleteJournalAfter, insertJournal, touchSession, deleteSession, deleteSessionJournal: Statement
    private let selectSession, selectJournal, probeStatement, countSessions: Statement
    private let selectExpired: Statement

    public init(path: String) throws(StorageError) {
        self.path = path
        let dir = (path as NSString).deletingLastPathComponent
        if !dir.isEmpty { try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true) }
        do {
            writer = try SQLiteConnection(path: path)
            try writer.execute("""
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
            reader = try SQLiteConnection(path: path)
            // A newer snapshot only: a compaction that lost a race to a later one never goes back.
            upsertSnapshot = try writer.prepare("""
                INSERT INTO sessions(id, revision, next_auto, document, raw_size, checksum, updated_at) VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7)
                ON CONFLICT(id) DO UPDATE SET revision=excluded.revision, next_auto=excluded.next_auto, document=excluded.document,
                    raw_size=excluded.raw_size, checksum=excluded.checksum, updated_at=excluded.updated_at
                WHERE excluded.revision > sessions.revision
                """)
            deleteJournalUpTo = try writer.prepare("DELETE FROM journal WHERE session=?1 AND revision<=?2")
            deleteJournalAfter = try writer.prepare("DELETE FROM journal WHERE session=?1 AND revision>?2")
            insertJournal = try writer.prepare("INSERT OR REPLACE INTO journal(session, revision, kind, body, raw_size, checksum) VALUES(?1, ?2, ?3, ?4, ?5, ?6)")
            touchSession = try writer.prepare("UPDATE sessions SET updated_at=?2 WHERE id=?1")
            deleteSession = try writer.prepare("DELETE FROM sessions WHERE id=?1")
            deleteSessionJournal = try writer.prepare("DELETE FROM journal WHERE session=?1")
            probeStatement = try writer.prepare("INSERT OR REPLACE INTO probe(k, at, pad) VALUES(1, ?1, zeroblob(?2))")
            selectExpired = try writer.prepare("SELECT id FROM sessions WHERE updated_at<?1")
            selectSession = try reader.prepare("SELECT revision, next_auto, document, raw_size, checksum FROM sessions WHERE id=?1")
            selectJournal = try reader.prepare("SELECT revision, kind, body, raw_size, checksum FROM journal WHERE session=?1 AND revision>?2 ORDER BY revision")
            countSessions = try reader.prepare("SELECT count(*) FROM sessions")
        } catch {
            throw StorageError("cannot open the SQLite store at \(path): \(error.message)")
        }
    }

    public func commit(_ batch: [StorageWrite], now: Int) throws(StorageError) {
        do throws(SQLiteError) {
            try writer.execute("BEGIN IMMEDIATE")
            do throws(SQLiteError) {
                var touched: Set<String> = []
                for w in batch {
                    switch w {
                    case .snapshot(let s, let revision, let next, let document):
                        let e = StoredBytes.encode(document)
                        try upsertSnapshot.run([.text(s), .int(revision), .int(next), .blob(e.bytes), .int(e.rawSize), .int(e.checksum), .int(now)])
                        try deleteJournalUpTo.run([.text(s), .int(revision)])
                    case .journal(let s, let entry):
                        let e = StoredBytes.encode(entry.body)
                        try insertJournal.run([.text(s), .int(entry.revision), .int(entry.kind.rawValue), .blob(e.bytes), .int(e.rawSize), .int(e.checksum)])
                        touched.insert(s)
                    case .delete(let s):
                        try deleteSession.run([.text(s)])
                        try deleteSessionJournal.run([.text(s)])
                        touched.remove(s)
                    case .truncate(let s, let revision):
                        try deleteJournalAfter.run([.text(s), .int(revision)])
                    case .touch(let s):
                        touched.insert(s)
                    }
                }
                for s in touched { try touchSession.run([.text(s), .int(now)]) }
                try writer.execute("COMMIT")
            } catch {
                try? writer.execute("ROLLBACK")
                throw error
            }
        } catch {
            throw StorageError("the SQLite store at \(path) cannot be written: \(error.message)")
        }
    }

    public func load(_ session: String) throws(StorageError) -> StoredSession? {
        readLock.lock()
        defer { readLock.unlock() }
        var found: StoredSession?
        var corrupt = false
        do throws(SQLiteError) {
            try selectSession.run([.text(session)]) { row in
                guard let document = StoredBytes.decode(row.blob(2), rawSize: row.int(3), checksum: row.int(4)) else { corrupt = true; return }
                found = StoredSession(revision: row.int(0), nextAutoID: row.int(1), document: document, journal: [], skipped: 0)
            }
            guard !corrupt, var stored = found else { return nil }
            try selectJournal.run([.text(session), .int(stored.revision)]) { row in
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
        var ids: [String] = []
        do throws(SQLiteError) { try selectExpired.run([.int(before)]) { ids.append($0.text(0)) } } catch {
            throw StorageError("cannot expire sessions in \(path): \(error.message)")
        }
        guard !ids.isEmpty else { return 0 }
        try commit(ids.map { .delete(session: $0) }, now: before)
        return ids.count
    }

    /// Writes (and fsyncs) 64 KB, after a checkpoint that lets the WAL shrink: a store that
    /// failed for want of room is taken back only when a document's worth fits again.
    public func probe() throws(StorageError) {
        do throws(SQLiteError) {
            try writer.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            try probeStatement.run([.int(Int(Date().timeIntervalSince1970)), .int(65_536)])
            try probeStatement.run([.int(Int(Date().timeIntervalSince1970)), .int(0)])
        } catch {
            throw StorageError("the SQLite store at \(path) cannot be written: \(error.message)")
        }
    }

    public func count() throws(StorageError) -> Int {
        readLock.lock()
        defer { readLock.unlock() }
        var n = 0
        do { try countSessions.run([]) { n = $0.int(0) } } catch { throw StorageError(error.message) }
        return n
    }
}
