import Foundation
import Synchronization

/// Sessions in PostgreSQL (`--store postgres://USER[:PASSWORD]@HOST:PORT/DB`), through libpq:
/// the same snapshots and journal as the SQLite store, so several layoutd replicas can share
/// one home for their sessions. A commit is durable when PostgreSQL's COMMIT returns (its
/// default `synchronous_commit=on`). One connection writes (the writer's thread); loads share
/// another. A connection that broke is opened again on its next use.
public final class PostgresSessionStorage: SessionStorage, @unchecked Sendable {
    /// The URL without its password, for messages and logs.
    public let location: String
    public let initialFailure: String? = nil
    private let writer: PostgresConnection
    private let reader: Mutex<PostgresConnection>

    /// Connects and makes the tables when missing; throws when the database cannot be
    /// reached (layoutd does not start: the orchestrator restarts it).
    public init(url: String) throws(StorageError) {
        location = Self.redacted(url)
        do throws(PostgresConnection.Failure) {
            writer = try PostgresConnection(url)
            reader = Mutex(try PostgresConnection(url))
            // Replicas starting together make the tables under one lock, not in a race.
            try writer.run("BEGIN")
            try writer.run("SELECT pg_advisory_xact_lock(7305830405)")
            try writer.run("""
                CREATE TABLE IF NOT EXISTS layoutd_sessions(
                    id text PRIMARY KEY, revision bigint NOT NULL, next_auto bigint NOT NULL,
                    document bytea NOT NULL, raw_size bigint NOT NULL, checksum bigint NOT NULL, updated_at bigint NOT NULL)
                """)
            try writer.run("""
                CREATE TABLE IF NOT EXISTS layoutd_journal(
                    session text NOT NULL, revision bigint NOT NULL, kind integer NOT NULL,
                    body bytea NOT NULL, raw_size bigint NOT NULL, checksum bigint NOT NULL, PRIMARY KEY(session, revision))
                """)
            try writer.run("CREATE INDEX IF NOT EXISTS layoutd_sessions_updated ON layoutd_sessions(updated_at)")
            try writer.run("CREATE TABLE IF NOT EXISTS layoutd_probe(k integer PRIMARY KEY, at bigint NOT NULL)")
            try writer.run("COMMIT")
        } catch {
            throw StorageError("cannot open the PostgreSQL store at \(Self.redacted(url)): \(error.message)")
        }
    }

    /// `postgres://user:secret@host/db` → `postgres://user@host/db`.
    public static func redacted(_ url: String) -> String {
        guard let scheme = url.range(of: "://"), let at = url[scheme.upperBound...].lastIndex(of: "@") else { return url }
        let credentials = url[scheme.upperBound..<at]
        guard let colon = credentials.firstIndex(of: ":") else { return url }
        return String(url[..<colon]) + String(url[at...])
    }

    public func commit(_ batch: [StorageWrite], now: Int) throws(StorageError) {
        let w = writer
        do throws(PostgresConnection.Failure) {
            try w.run("BEGIN")
            do throws(PostgresConnection.Failure) {
                try PostgresStatements(connection: w).apply(batch, now: now)
                try w.run("COMMIT")
            } catch {
                try? w.run("ROLLBACK")
                throw error
            }
        } catch {
            throw StorageError("the PostgreSQL store at \(location) cannot be written: \(error.message)")
        }
    }

    public func load(_ session: String) throws(StorageError) -> StoredSession? {
        var corrupt = false
        let found: StoredSession?
        do throws(PostgresConnection.Failure) {
            found = try reader.withLock { (r: inout PostgresConnection) throws(PostgresConnection.Failure) -> StoredSession? in
                var snapshot: StoredSession?
                try r.run("SELECT revision, next_auto, document, raw_size, checksum FROM layoutd_sessions WHERE id=$1", [.text(session)]) { row in
                    guard let bytes = row[2].flatMap(PostgresConnection.bytes),
                          let document = StoredBytes.decode(bytes, rawSize: Int(row[3] ?? "") ?? -1, checksum: Int(row[4] ?? "") ?? -1)
                    else { corrupt = true; return }
                    snapshot = StoredSession(revision: Int(row[0] ?? "") ?? 0, nextAutoID: Int(row[1] ?? "") ?? 1,
                                             document: document, journal: [], skipped: 0)
                }
                guard var stored = snapshot else { return nil }
                try r.run("SELECT revision, kind, body, raw_size, checksum FROM layoutd_journal WHERE session=$1 AND revision>$2 ORDER BY revision",
                          [.text(session), .int(stored.revision)]) { row in
                    guard stored.skipped == 0, let revision = row[0].flatMap({ Int($0) }),
                          let kind = row[1].flatMap({ Int($0) }).flatMap(JournalEntry.Kind.init),
                          let bytes = row[2].flatMap(PostgresConnection.bytes),
                          let body = StoredBytes.decode(bytes, rawSize: Int(row[3] ?? "") ?? -1, checksum: Int(row[4] ?? "") ?? -1)
                    else { stored.skipped += 1; return }
                    stored.journal.append(JournalEntry(revision: revision, kind: kind, body: body))
                }
                return stored
            }
        } catch {
            throw StorageError("cannot read session \(session) from \(location): \(error.message)")
        }
        if corrupt { throw StorageError("the stored snapshot of session \(session) fails its checksum") }
        return found
    }

    public func expire(before: Int) throws(StorageError) -> Int {
        var ids: [String] = []
        do throws(PostgresConnection.Failure) {
            try writer.run("SELECT id FROM layoutd_sessions WHERE updated_at<$1", [.int(before)]) { if let id = $0[0] { ids.append(id) } }
        } catch {
            throw StorageError("cannot expire sessions in \(location): \(error.message)")
        }
        guard !ids.isEmpty else { return 0 }
        try commit(ids.map { .delete(session: $0) }, now: before)
        return ids.count
    }

    /// A one-row write: fails while the database cannot be reached or written.
    public func probe() throws(StorageError) {
        do throws(PostgresConnection.Failure) {
            try writer.run("INSERT INTO layoutd_probe(k, at) VALUES(1, $1) ON CONFLICT(k) DO UPDATE SET at=excluded.at",
                           [.int(Int(Date().timeIntervalSince1970))])
        } catch {
            throw StorageError("the PostgreSQL store at \(location) cannot be written: \(error.message)")
        }
    }

    public func checkpoint() {}
}

/// The batch's statements on a PostgreSQL connection.
private struct PostgresStatements: BatchStatements {
    let connection: PostgresConnection

    func snapshot(_ s: String, revision: Int, nextAutoID: Int, stored e: (bytes: [UInt8], rawSize: Int, checksum: Int), now: Int) throws(PostgresConnection.Failure) {
        // A newer snapshot only: a compaction that lost a race to a later one never goes back.
        try connection.run("""
            INSERT INTO layoutd_sessions(id, revision, next_auto, document, raw_size, checksum, updated_at) VALUES($1, $2, $3, $4, $5, $6, $7)
            ON CONFLICT(id) DO UPDATE SET revision=excluded.revision, next_auto=excluded.next_auto, document=excluded.document,
                raw_size=excluded.raw_size, checksum=excluded.checksum, updated_at=excluded.updated_at
            WHERE excluded.revision > layoutd_sessions.revision
            """, [.text(s), .int(revision), .int(nextAutoID), .bytes(e.bytes), .int(e.rawSize), .int(e.checksum), .int(now)])
        try connection.run("DELETE FROM layoutd_journal WHERE session=$1 AND revision<=$2", [.text(s), .int(revision)])
    }

    func journal(_ s: String, _ entry: JournalEntry, stored e: (bytes: [UInt8], rawSize: Int, checksum: Int)) throws(PostgresConnection.Failure) {
        try connection.run("""
            INSERT INTO layoutd_journal(session, revision, kind, body, raw_size, checksum) VALUES($1, $2, $3, $4, $5, $6)
            ON CONFLICT(session, revision) DO UPDATE SET kind=excluded.kind, body=excluded.body, raw_size=excluded.raw_size, checksum=excluded.checksum
            """, [.text(s), .int(entry.revision), .int(entry.kind.rawValue), .bytes(e.bytes), .int(e.rawSize), .int(e.checksum)])
    }

    func delete(_ s: String) throws(PostgresConnection.Failure) {
        try connection.run("DELETE FROM layoutd_sessions WHERE id=$1", [.text(s)])
        try connection.run("DELETE FROM layoutd_journal WHERE session=$1", [.text(s)])
    }

    func truncate(_ s: String, after revision: Int) throws(PostgresConnection.Failure) {
        try connection.run("DELETE FROM layoutd_journal WHERE session=$1 AND revision>$2", [.text(s), .int(revision)])
    }

    func touch(_ s: String, now: Int) throws(PostgresConnection.Failure) {
        try connection.run("UPDATE layoutd_sessions SET updated_at=$2 WHERE id=$1", [.text(s), .int(now)])
    }
}
