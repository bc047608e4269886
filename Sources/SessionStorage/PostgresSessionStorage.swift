import CheckedNumbers
import Foundation
import Synchronization

/// Sessions in PostgreSQL (`--store postgres://USER[:PASSWORD]@HOST:PORT/DB`), through libpq:
/// the same snapshots and journal as the SQLite store, shared by several layoutd replicas,
/// with a lease per session (`SessionLeasing`) so that each has one owner at a time. A
/// commit is durable when PostgreSQL's COMMIT returns (its default `synchronous_commit=on`).
/// One connection writes (the writer's thread), one reads, one keeps the leases; a
/// connection that broke is opened again on its next use.
public final class PostgresSessionStorage: SessionStorage, SessionLeasing, @unchecked Sendable {
    /// The URL without its password, for messages and logs.
    public let location: String
    public let initialFailure: String? = nil
    public let replicaID: String
    public let leaseMilliseconds: Int
    private let writer: PostgresConnection
    private let reader: Mutex<PostgresConnection>
    private let leases: Mutex<PostgresConnection>

    /// The database's clock in milliseconds: every replica's lease is timed by this one clock.
    static let now = "(extract(epoch from clock_timestamp()) * 1000)::bigint"

    /// Connects and makes the tables when missing; throws when the database cannot be
    /// reached (layoutd does not start: the orchestrator restarts it).
    public init(url: String, replicaID: String = "layoutd", leaseMilliseconds: Int = 1500) throws(StorageError) {
        location = Self.redacted(url)
        self.replicaID = replicaID
        self.leaseMilliseconds = leaseMilliseconds
        do throws(PostgresConnection.Failure) {
            // A writer stopped inside a transaction (SIGSTOP, a VM stall) would hold its lease
            // rows' locks and so stall a takeover: PostgreSQL ends such a transaction after a lease.
            writer = try PostgresConnection(url, setup: ["SET idle_in_transaction_session_timeout = \(leaseMilliseconds)"])
            reader = Mutex(try PostgresConnection(url))
            leases = Mutex(try PostgresConnection(url, setup: ["SET lock_timeout = \(leaseMilliseconds)"]))
            // Tables made (or brought up to date) only when missing: DDL on a table in use takes
            // locks that deadlock with the other replicas' commits (ALTER TABLE … IF NOT EXISTS
            // takes its exclusive lock even when there is nothing to add).
            var current = false
            try writer.run(
                "SELECT to_regclass('layoutd_fenced') IS NOT NULL AND EXISTS (SELECT 1 FROM information_schema.columns "
                    + "WHERE table_name='layoutd_sessions' AND column_name='owner')"
            ) { current = $0[0] == "t" }
            if current { return }
            // Replicas starting together make the tables under one lock, not in a race.
            try writer.run("BEGIN")
            try writer.run("SELECT pg_advisory_xact_lock(7305830405)")
            try writer.run(
                """
                CREATE TABLE IF NOT EXISTS layoutd_sessions(
                    id text PRIMARY KEY, revision bigint NOT NULL, next_auto bigint NOT NULL,
                    document bytea NOT NULL, raw_size bigint NOT NULL, checksum bigint NOT NULL, updated_at bigint NOT NULL)
                """)
            try writer.run(
                """
                CREATE TABLE IF NOT EXISTS layoutd_journal(
                    session text NOT NULL, revision bigint NOT NULL, kind integer NOT NULL,
                    body bytea NOT NULL, raw_size bigint NOT NULL, checksum bigint NOT NULL, PRIMARY KEY(session, revision))
                """)
            // Which lease epoch wrote each row: what the fencing is checked against afterwards.
            try writer.run("ALTER TABLE layoutd_sessions ADD COLUMN IF NOT EXISTS epoch bigint NOT NULL DEFAULT 0")
            try writer.run("ALTER TABLE layoutd_journal ADD COLUMN IF NOT EXISTS epoch bigint NOT NULL DEFAULT 0")
            // Who each session belongs to (a tenant's name; empty without keys).
            try writer.run("ALTER TABLE layoutd_sessions ADD COLUMN IF NOT EXISTS owner text NOT NULL DEFAULT ''")
            try writer.run("CREATE INDEX IF NOT EXISTS layoutd_sessions_owner ON layoutd_sessions(owner)")
            try writer.run("CREATE INDEX IF NOT EXISTS layoutd_sessions_updated ON layoutd_sessions(updated_at)")
            try writer.run("CREATE TABLE IF NOT EXISTS layoutd_probe(k integer PRIMARY KEY, at bigint NOT NULL)")
            // expires_at and released_at are milliseconds on the database's clock (0: never).
            try writer.run(
                """
                CREATE TABLE IF NOT EXISTS layoutd_leases(
                    session text PRIMARY KEY, owner text NOT NULL, epoch bigint NOT NULL, expires_at bigint NOT NULL,
                    wanted_by text, released_at bigint NOT NULL DEFAULT 0)
                """)
            // Every taking of a lease, with when the previous owner's lease ended: two owners at
            // once would show as acquired_at < previous_until with another owner.
            try writer.run(
                """
                CREATE TABLE IF NOT EXISTS layoutd_lease_log(
                    session text NOT NULL, epoch bigint NOT NULL, owner text NOT NULL, acquired_at bigint NOT NULL,
                    previous_owner text, previous_until bigint NOT NULL, PRIMARY KEY(session, epoch))
                """)
            // Every write refused because its epoch was stale.
            try writer.run(
                """
                CREATE TABLE IF NOT EXISTS layoutd_fenced(
                    session text NOT NULL, owner text NOT NULL, epoch bigint NOT NULL, current_epoch bigint, at bigint NOT NULL)
                """)
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

    /// The batch in one transaction. The lease rows of the sessions it writes are locked
    /// first (FOR KEY SHARE: a takeover's FOR UPDATE waits for this commit, a renewal does
    /// not), and a session's writes made under an epoch that is no longer its lease's are
    /// left out and logged: a former owner, paused or cut off past its lease, never writes
    /// over the new one.
    @discardableResult
    public func commit(_ batch: [StorageWrite], now: Int) throws(StorageError) -> Set<String> {
        let w = writer
        var refused: Set<String> = []
        do throws(PostgresConnection.Failure) {
            try w.run("BEGIN")
            do throws(PostgresConnection.Failure) {
                let leased = Set(batch.lazy.filter { $0.epoch > 0 }.map(\.session))
                var current: [String: (owner: String, epoch: Int)] = [:]
                if !leased.isEmpty {
                    try w.run(
                        "SELECT session, owner, epoch FROM layoutd_leases WHERE session = ANY($1::text[]) FOR KEY SHARE",
                        [.text(PostgresConnection.array(leased))]
                    ) { row in
                        if let s = row[0], let o = row[1], let e = row[2].flatMap({ Int($0) }) { current[s] = (o, e) }
                    }
                }
                var kept: [StorageWrite] = []
                kept.reserveCapacity(batch.count)
                var logged: Set<String> = []
                for item in batch {
                    if item.epoch > 0, current[item.session].map({ $0.owner != replicaID || $0.epoch != item.epoch }) ?? true {
                        refused.insert(item.session)
                        if logged.insert("\(item.session) \(item.epoch)").inserted {
                            try w.run(
                                "INSERT INTO layoutd_fenced(session, owner, epoch, current_epoch, at) VALUES($1, $2, $3, $4, \(Self.now))",
                                [.text(item.session), .text(replicaID), .int(item.epoch), current[item.session].map { .int($0.epoch) } ?? .null])
                        }
                        continue
                    }
                    kept.append(item)
                }
                try PostgresStatements(connection: w).apply(kept, now: now)
            } catch {
                try? w.run("ROLLBACK")
                throw error
            }
        } catch {
            throw StorageError("the PostgreSQL store at \(location) cannot be written: \(error.message)")
        }
        do throws(PostgresConnection.Failure) {
            try w.run("COMMIT", reconnecting: false)
        } catch {
            // The COMMIT was sent and the connection dropped before its answer: PostgreSQL may
            // have committed (a backend terminated while it waits for a synchronous standby has
            // committed locally). Neither "stored" nor "not stored" can be said.
            if error.connectionLost {
                throw StorageError(
                    "the PostgreSQL store at \(location) lost the connection during COMMIT (the write may or may not be stored): \(error.message)",
                    kind: .outcomeUnknown)
            }
            // An error PostgreSQL reported (a deferred check, a serialization failure): it
            // rolled the transaction back.
            try? w.run("ROLLBACK")
            throw StorageError("the PostgreSQL store at \(location) cannot be written: \(error.message)")
        }
        return refused
    }

    public func count(ownedBy owner: String) throws(StorageError) -> Int {
        do throws(PostgresConnection.Failure) {
            return try reader.withLock { (r: inout PostgresConnection) throws(PostgresConnection.Failure) -> Int in
                var n = 0
                try r.run("SELECT count(*) FROM layoutd_sessions WHERE owner=$1", [.text(owner)]) { row in n = Int(row[0] ?? "") ?? 0 }
                return n
            }
        } catch {
            throw StorageError("cannot count sessions: \(error)")
        }
    }

    public func load(_ session: String) throws(StorageError) -> StoredSession? {
        var corrupt = false
        let found: StoredSession?
        do throws(PostgresConnection.Failure) {
            found = try reader.withLock { (r: inout PostgresConnection) throws(PostgresConnection.Failure) -> StoredSession? in
                var snapshot: StoredSession?
                try r.run("SELECT revision, next_auto, document, raw_size, checksum, owner FROM layoutd_sessions WHERE id=$1", [.text(session)]) {
                    row in
                    guard let bytes = row[2].flatMap(PostgresConnection.bytes),
                        let document = StoredBytes.decode(bytes, rawSize: Int(row[3] ?? "") ?? -1, checksum: Int(row[4] ?? "") ?? -1)
                    else { corrupt = true; return }
                    snapshot = StoredSession(
                        revision: Int(row[0] ?? "") ?? 0, nextAutoID: Int(row[1] ?? "") ?? 1,
                        document: document, journal: [], skipped: 0, owner: row[5] ?? "")
                }
                guard var stored = snapshot else { return nil }
                try r.run(
                    "SELECT revision, kind, body, raw_size, checksum FROM layoutd_journal WHERE session=$1 AND revision>$2 ORDER BY revision",
                    [.text(session), .int(stored.revision)]
                ) { row in
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

    /// Sessions not written since `before` whose lease nobody holds.
    public func expire(before: Int) throws(StorageError) -> Int {
        var ids: [String] = []
        do throws(PostgresConnection.Failure) {
            try writer.run(
                """
                SELECT id FROM layoutd_sessions s WHERE updated_at < $1
                    AND NOT EXISTS (SELECT 1 FROM layoutd_leases l WHERE l.session = s.id AND l.expires_at > \(Self.now))
                """, [.int(before)]
            ) { if let id = $0[0] { ids.append(id) } }
        } catch {
            throw StorageError("cannot expire sessions in \(location): \(error.message)")
        }
        guard !ids.isEmpty else { return 0 }
        _ = try commit(ids.map { .delete(session: $0) }, now: before)
        return ids.count
    }

    /// A one-row write: fails while the database cannot be reached or written.
    public func probe() throws(StorageError) {
        do throws(PostgresConnection.Failure) {
            try writer.run(
                "INSERT INTO layoutd_probe(k, at) VALUES(1, $1) ON CONFLICT(k) DO UPDATE SET at=excluded.at",
                [.int(Int(saturating: Date().timeIntervalSince1970))])
        } catch {
            throw StorageError("the PostgreSQL store at \(location) cannot be written: \(error.message)")
        }
    }

    public func checkpoint() {}
}

/// The batch's statements on a PostgreSQL connection.
private struct PostgresStatements: BatchStatements {
    let connection: PostgresConnection

    func snapshot(
        _ s: String, revision: Int, nextAutoID: Int, owner: String, stored e: (bytes: [UInt8], rawSize: Int, checksum: Int), now: Int, epoch: Int
    ) throws(PostgresConnection.Failure) {
        // A newer snapshot only: a compaction that lost a race to a later one never goes back.
        try connection.run(
            """
            INSERT INTO layoutd_sessions(id, revision, next_auto, document, raw_size, checksum, updated_at, epoch, owner)
            VALUES($1, $2, $3, $4, $5, $6, $7, $8, $9)
            ON CONFLICT(id) DO UPDATE SET revision=excluded.revision, next_auto=excluded.next_auto, document=excluded.document,
                raw_size=excluded.raw_size, checksum=excluded.checksum, updated_at=excluded.updated_at, epoch=excluded.epoch
            WHERE excluded.revision > layoutd_sessions.revision
            """,
            [.text(s), .int(revision), .int(nextAutoID), .bytes(e.bytes), .int(e.rawSize), .int(e.checksum), .int(now), .int(epoch), .text(owner)])
        try connection.run("DELETE FROM layoutd_journal WHERE session=$1 AND revision<=$2", [.text(s), .int(revision)])
    }

    func journal(_ s: String, _ entry: JournalEntry, stored e: (bytes: [UInt8], rawSize: Int, checksum: Int), epoch: Int) throws(PostgresConnection
        .Failure)
    {
        try connection.run(
            """
            INSERT INTO layoutd_journal(session, revision, kind, body, raw_size, checksum, epoch) VALUES($1, $2, $3, $4, $5, $6, $7)
            ON CONFLICT(session, revision) DO UPDATE SET kind=excluded.kind, body=excluded.body, raw_size=excluded.raw_size,
                checksum=excluded.checksum, epoch=excluded.epoch
            """, [.text(s), .int(entry.revision), .int(entry.kind.rawValue), .bytes(e.bytes), .int(e.rawSize), .int(e.checksum), .int(epoch)])
    }

    func delete(_ s: String) throws(PostgresConnection.Failure) {
        try connection.run("DELETE FROM layoutd_sessions WHERE id=$1", [.text(s)])
        try connection.run("DELETE FROM layoutd_journal WHERE session=$1", [.text(s)])
        try connection.run("DELETE FROM layoutd_leases WHERE session=$1", [.text(s)])
        try connection.run("DELETE FROM layoutd_lease_log WHERE session=$1", [.text(s)])
    }

    func truncate(_ s: String, after revision: Int) throws(PostgresConnection.Failure) {
        try connection.run("DELETE FROM layoutd_journal WHERE session=$1 AND revision>$2", [.text(s), .int(revision)])
    }

    func touch(_ s: String, now: Int) throws(PostgresConnection.Failure) {
        try connection.run("UPDATE layoutd_sessions SET updated_at=$2 WHERE id=$1", [.text(s), .int(now)])
    }
}

// MARK: Leases

extension PostgresSessionStorage {
    public func claim(_ session: String, creating: Bool) throws(StorageError) -> LeaseClaim {
        let me = replicaID, lease = leaseMilliseconds, now = Self.now
        do throws(PostgresConnection.Failure) {
            return try leases.withLock { (c: inout PostgresConnection) throws(PostgresConnection.Failure) -> LeaseClaim in
                try c.run("BEGIN")
                do throws(PostgresConnection.Failure) {
                    let outcome = try Self.claim(session, creating: creating, me: me, lease: lease, now: now, on: c)
                    try c.run("COMMIT")
                    return outcome
                } catch {
                    try? c.run("ROLLBACK")
                    // Another replica took or made it in the same moment, or holds its row locked
                    // past a lease (a stalled commit): it is someone else's for now.
                    if c.lastErrorCode == "23505" || c.lastErrorCode == "55P03" {
                        return creating ? .taken : .ownedElsewhere(owner: "another replica", retryAfterMilliseconds: lease)
                    }
                    throw error
                }
            }
        } catch {
            throw StorageError("cannot take the lease of session \(session) in \(location): \(error.message)")
        }
    }

    /// Inside the claim's transaction: decides from the locked lease row.
    private static func claim(
        _ session: String, creating: Bool, me: String, lease: Int, now: String,
        on c: PostgresConnection
    ) throws(PostgresConnection.Failure) -> LeaseClaim {
        var row: (owner: String, epoch: Int, expires: Int, wanted: String?, released: Int, now: Int)?
        try c.run(
            "SELECT owner, epoch, expires_at, wanted_by, released_at, \(now) FROM layoutd_leases WHERE session=$1 FOR UPDATE",
            [.text(session)]
        ) { r in
            row = (r[0] ?? "", Int(r[1] ?? "") ?? 0, Int(r[2] ?? "") ?? 0, r[3], Int(r[4] ?? "") ?? 0, Int(r[5] ?? "") ?? 0)
        }
        guard let row else {
            var stored = false
            try c.run("SELECT 1 FROM layoutd_sessions WHERE id=$1", [.text(session)]) { _ in stored = true }
            if creating && stored { return .taken }
            if !creating && !stored { return .missing }
            // A new session, or a stored one without a lease row (stored before leases were kept).
            var epoch = 0
            try c.run(
                """
                INSERT INTO layoutd_leases(session, owner, epoch, expires_at)
                SELECT $1, $2, coalesce(max(epoch), 0) + 1, \(now) + $3 FROM layoutd_lease_log WHERE session=$1 RETURNING epoch
                """, [.text(session), .text(me), .int(lease)]
            ) { epoch = Int($0[0] ?? "") ?? 0 }
            try c.run(
                "INSERT INTO layoutd_lease_log(session, epoch, owner, acquired_at, previous_until) VALUES($1, $2, $3, \(now), 0)",
                [.text(session), .int(epoch), .text(me)])
            return .acquired(epoch: epoch)
        }
        if creating { return .taken }
        // A lease handed over on request stays for the replica that asked, for one lease time.
        if let wanted = row.wanted, wanted != me, row.released > 0, row.now < row.released + lease {
            return .ownedElsewhere(owner: wanted, retryAfterMilliseconds: row.released + lease - row.now)
        }
        // Its own lease, asked for by another replica: being handed over (the box left memory,
        // the release follows its writes), not taken back.
        if row.owner == me, let wanted = row.wanted, wanted != me, row.expires > row.now {
            return .ownedElsewhere(owner: wanted, retryAfterMilliseconds: lease / 4)
        }
        // Its own lease (a restart under the same replica id) is taken again at once.
        guard row.owner == me || row.expires <= row.now else {
            try c.run("UPDATE layoutd_leases SET wanted_by=$2 WHERE session=$1", [.text(session), .text(me)])
            return .ownedElsewhere(owner: row.owner, retryAfterMilliseconds: row.expires - row.now)
        }
        let epoch = row.epoch + 1
        try c.run(
            "UPDATE layoutd_leases SET owner=$2, epoch=$3, expires_at=\(now) + $4, wanted_by=NULL, released_at=0 WHERE session=$1",
            [.text(session), .text(me), .int(epoch), .int(lease)])
        // A release ended the lease when it was made; otherwise its expiry did.
        let until = row.released > 0 ? row.released : row.expires
        try c.run(
            """
            INSERT INTO layoutd_lease_log(session, epoch, owner, acquired_at, previous_owner, previous_until)
            VALUES($1, $2, $3, \(now), $4, $5)
            """, [.text(session), .int(epoch), .text(me), .text(row.owner), .int(until)])
        return .acquired(epoch: epoch)
    }

    public func renew(_ held: [(session: String, epoch: Int)]) throws(StorageError) -> (held: Set<String>, wanted: Set<String>) {
        guard !held.isEmpty else { return ([], []) }
        var kept: Set<String> = [], wanted: Set<String> = []
        let me = replicaID, lease = leaseMilliseconds
        do throws(PostgresConnection.Failure) {
            try leases.withLock { (c: inout PostgresConnection) throws(PostgresConnection.Failure) in
                try c.run(
                    """
                    UPDATE layoutd_leases l SET expires_at = \(Self.now) + $3
                    FROM unnest($1::text[], $2::bigint[]) AS h(session, epoch)
                    WHERE l.session = h.session AND l.epoch = h.epoch AND l.owner = $4
                    RETURNING l.session, l.wanted_by
                    """,
                    [
                        .text(PostgresConnection.array(held.map(\.session))), .text(PostgresConnection.array(held.map(\.epoch))),
                        .int(lease), .text(me)
                    ]
                ) { row in
                    guard let s = row[0] else { return }
                    kept.insert(s)
                    if let w = row[1], w != me { wanted.insert(s) }
                }
            }
        } catch {
            throw StorageError("cannot renew leases in \(location): \(error.message)")
        }
        return (kept, wanted)
    }

    public func release(_ held: [(session: String, epoch: Int)]) throws(StorageError) {
        guard !held.isEmpty else { return }
        let me = replicaID
        do throws(PostgresConnection.Failure) {
            try leases.withLock { (c: inout PostgresConnection) throws(PostgresConnection.Failure) in
                try c.run(
                    """
                    UPDATE layoutd_leases l SET expires_at = 0, released_at = \(Self.now)
                    FROM unnest($1::text[], $2::bigint[]) AS h(session, epoch)
                    WHERE l.session = h.session AND l.epoch = h.epoch AND l.owner = $3
                    """, [.text(PostgresConnection.array(held.map(\.session))), .text(PostgresConnection.array(held.map(\.epoch))), .text(me)])
            }
        } catch {
            throw StorageError("cannot release leases in \(location): \(error.message)")
        }
    }
}
