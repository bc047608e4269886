import Foundation
import JSON
import Synchronization
import XCTest
@testable import SessionStorage

/// The SQLite store and its writer on a real database file in a temporary folder.
final class StorageTests: XCTestCase {
    var dir: String!

    override func setUp() {
        dir = NSTemporaryDirectory() + "layoutd-storage-\(UUID().uuidString)"
        try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    }

    override func tearDown() { try? FileManager.default.removeItem(atPath: dir) }

    func storage() throws -> SQLiteSessionStorage { try SQLiteSessionStorage(path: dir + "/s.sqlite") }

    func testSnapshotJournalAndCompaction() throws {
        let s = try storage()
        let doc = Array(String(repeating: "{\"views\":[]} ", count: 1000).utf8)  // compressed (past 4 KB)
        try s.commit(
            [
                .snapshot(session: "a", revision: 1, nextAutoID: 3, document: doc),
                .journal(session: "a", entry: JournalEntry(revision: 2, kind: .changes, body: Array("x".utf8))),
                .journal(session: "a", entry: JournalEntry(revision: 5, kind: .constants, body: Array("y".utf8)))
            ], now: 100)
        var got = try XCTUnwrap(try s.load("a"))
        XCTAssertEqual(got.document, doc)
        XCTAssertEqual(got.nextAutoID, 3)
        XCTAssertEqual(got.journal.map(\.revision), [2, 5])
        XCTAssertEqual(got.journal.map(\.kind), [.changes, .constants])
        // A compaction at 2 drops the journal up to it; an older snapshot never replaces a newer one.
        try s.commit([.snapshot(session: "a", revision: 2, nextAutoID: 4, document: Array("two".utf8))], now: 101)
        try s.commit([.snapshot(session: "a", revision: 1, nextAutoID: 9, document: Array("old".utf8))], now: 102)
        got = try XCTUnwrap(try s.load("a"))
        XCTAssertEqual(String(decoding: got.document, as: UTF8.self), "two")
        XCTAssertEqual(got.journal.map(\.revision), [5])
        // Truncation past a revision, then deletion.
        try s.commit([.truncate(session: "a", after: 2)], now: 103)
        XCTAssertEqual(try s.load("a")?.journal.count, 0)
        try s.commit([.delete(session: "a")], now: 104)
        XCTAssertNil(try s.load("a"))
        XCTAssertNil(try s.load("never"))
    }

    /// A session keeps the owner it was made with; a compaction's snapshot does not change it;
    /// a store made before owners existed gains the column, its sessions owned by nobody.
    func testOwnersAreKeptAndAnOldStoreGainsThem() throws {
        let old = try SQLiteConnection(path: dir + "/s.sqlite")
        try old.execute(
            """
            CREATE TABLE sessions(id TEXT PRIMARY KEY, revision INTEGER NOT NULL, next_auto INTEGER NOT NULL, document BLOB NOT NULL,
                raw_size INTEGER NOT NULL, checksum INTEGER NOT NULL, updated_at INTEGER NOT NULL) WITHOUT ROWID;
            """)
        let s0 = try storage()
        try s0.commit([.snapshot(session: "before", revision: 1, nextAutoID: 1, document: Array("{}".utf8))], now: 1)
        XCTAssertEqual(try s0.load("before")?.owner, "")
        try s0.commit([.snapshot(session: "a", revision: 1, nextAutoID: 1, document: Array("{}".utf8), owner: "team-a")], now: 2)
        try s0.commit([.snapshot(session: "a", revision: 2, nextAutoID: 1, document: Array("{ }".utf8), owner: "")], now: 3)
        let again = try storage()
        XCTAssertEqual(try again.load("a")?.owner, "team-a")
        XCTAssertEqual(try again.load("a")?.revision, 2)
    }

    func testCorruptTailIsSkippedNotApplied() throws {
        let s = try storage()
        try s.commit(
            [.snapshot(session: "a", revision: 1, nextAutoID: 1, document: Array("{}".utf8))]
                + (2...5).map { .journal(session: "a", entry: JournalEntry(revision: $0, kind: .changes, body: Array("entry \($0)".utf8))) }, now: 1)
        // Entry 4 damaged in place: 4 and everything after it are skipped, never 5 alone.
        let raw = try SQLiteConnection(path: dir + "/s.sqlite")
        try raw.execute("UPDATE journal SET body = x'00ff' WHERE revision = 4")
        let got = try XCTUnwrap(try s.load("a"))
        XCTAssertEqual(got.journal.map(\.revision), [2, 3])
        XCTAssertEqual(got.skipped, 2)
    }

    func testExpiry() throws {
        let s = try storage()
        try s.commit(
            [
                .snapshot(session: "old", revision: 1, nextAutoID: 1, document: [1]),
                .snapshot(session: "new", revision: 1, nextAutoID: 1, document: [2])
            ], now: 10)
        try s.commit([.journal(session: "new", entry: JournalEntry(revision: 2, kind: .constants, body: Array("{}".utf8)))], now: 1000)
        XCTAssertEqual(try s.expire(before: 500), 1)
        XCTAssertNil(try s.load("old"))
        XCTAssertNotNil(try s.load("new"))
    }

    func testMergedConstantsKeepLatestValuesInLastWriteOrder() {
        var merged = StoreWriter.Merged()
        for body: JSON in [.object([("a", .number(1)), ("b", .number(2))]), .object([("a", .number(3))]), .object([("c", .number(4))])] {
            merged.add(body)
        }
        XCTAssertEqual(merged.json, .object([("b", .number(2)), ("a", .number(3)), ("c", .number(4))]))
    }

    func testWriterGroupsCommitsAndResolvesTickets() throws {
        let w = StoreWriter(storage: try storage(), flushIntervalMilliseconds: 10_000, retentionSeconds: 86_400)
        w.start()
        let t0 = w.write(.snapshot(session: "s", revision: 1, nextAutoID: 1, document: Array("{}".utf8)))
        XCTAssertTrue(w.wait(t0))
        // Relaxed set-constants of one session back to back: one journal entry, written on flush.
        let tail = JournalTail()
        for k in 2...50 { XCTAssertNil(w.constants(tail, session: "s", revision: k, body: .object([("x", .number(Double(k)))]), durable: false)) }
        XCTAssertEqual(try w.storage.load("s")?.journal.count, 0, "relaxed set-constants wait for the flush interval")
        w.flush()
        let stored = try XCTUnwrap(try w.storage.load("s"))
        XCTAssertEqual(stored.journal.count, 1)
        XCTAssertEqual(stored.journal[0].revision, 50)
        XCTAssertEqual(String(decoding: stored.journal[0].body, as: UTF8.self), #"{"x":50}"#)
        // Many threads at once share commits.
        let group = DispatchGroup()
        for k in 0..<32 {
            DispatchQueue.global().async(group: group) {
                let t = w.changes(JournalTail(), session: "s\(k)", revision: 2, body: .object([]))
                XCTAssertTrue(w.wait(t))
            }
        }
        group.wait()
        // A structural change closes the open entry: constants set after it are written after it.
        _ = w.constants(tail, session: "s", revision: 51, body: .object([("x", .number(51))]), durable: false)
        _ = w.changes(tail, session: "s", revision: 52, body: .object([("ops", .array([]))]))
        _ = w.constants(tail, session: "s", revision: 53, body: .object([("x", .number(53))]), durable: false)
        let strict = try XCTUnwrap(w.constants(tail, session: "s", revision: 54, body: .object([("y", .number(54))]), durable: true))
        XCTAssertTrue(w.wait(strict))
        let journal = try XCTUnwrap(try w.storage.load("s")).journal
        // 53 is still open when 54 comes (merged into its entry), unless the commit that took 52
        // took 53 with it (it was queued by then, and closed): both keep every value, in order.
        let bodies = journal.map { String(decoding: $0.body, as: UTF8.self) }
        if journal.map(\.revision) == [50, 51, 52, 54] {
            XCTAssertEqual(bodies[3], #"{"x":53,"y":54}"#)
        } else {
            XCTAssertEqual(journal.map(\.revision), [50, 51, 52, 53, 54])
            XCTAssertEqual(Array(bodies[3...]), [#"{"x":53}"#, #"{"y":54}"#])
        }
        w.stop()
    }

    /// A batch that fails loses its session's later writes queued behind it too: written once
    /// the store recovers (its probe passes), they would leave a gap in the session's journal
    /// (a change stored without the one it was made on) and be answered as durable.
    func testWritesQueuedBehindAFailedBatchOfTheirSessionAreLostToo() throws {
        let store = GatedStorage(try storage())
        let w = StoreWriter(storage: store, flushIntervalMilliseconds: 10_000, retentionSeconds: 86_400)
        w.start()
        defer { w.stop() }
        XCTAssertTrue(w.wait(w.write(.snapshot(session: "s", revision: 1, nextAutoID: 1, document: Array("{}".utf8)))))
        XCTAssertTrue(w.wait(w.write(.snapshot(session: "other", revision: 1, nextAutoID: 1, document: Array("{}".utf8)))))
        // Revision 2's batch is being committed (held), and fails; 3 is queued behind it meanwhile.
        let tail = JournalTail()
        store.failNext()
        let t2 = w.changes(tail, session: "s", revision: 2, body: .object([("ops", .array([]))]))
        store.entered.wait()
        let t3 = w.changes(tail, session: "s", revision: 3, body: .object([("ops", .array([]))]))
        XCTAssertNil(w.constants(tail, session: "s", revision: 4, body: .object([("x", .number(4))]), durable: false))
        let t5 = try XCTUnwrap(w.constants(tail, session: "s", revision: 5, body: .object([("y", .number(5))]), durable: true))
        let other = w.changes(JournalTail(), session: "other", revision: 2, body: .object([("ops", .array([]))]))
        store.release.signal()
        XCTAssertEqual(w.waitOutcome(t2), .lost)
        XCTAssertEqual(w.waitOutcome(t3), .lost, "a change whose predecessor was lost is never stored")
        XCTAssertEqual(w.waitOutcome(t5), .lost)
        XCTAssertEqual(w.waitOutcome(other), .durable, "another session's write behind the failed batch is stored")
        w.flush()
        XCTAssertEqual(try XCTUnwrap(try store.load("s")).journal.map(\.revision), [], "no revision stored past the lost one")
        XCTAssertEqual(try XCTUnwrap(try store.load("other")).journal.map(\.revision), [2])
        // The session reloaded from the store goes on from its stored revision: that is written.
        let t2again = w.changes(JournalTail(), session: "s", revision: 2, body: .object([("ops", .array([]))]))
        XCTAssertEqual(w.waitOutcome(t2again), .durable)
        XCTAssertEqual(try XCTUnwrap(try store.load("s")).journal.map(\.revision), [2])
    }
}

/// SQLite whose next commit, once armed, waits to be released and then fails (a full disk that
/// frees up at once: the writer's probe passes right after).
private final class GatedStorage: SessionStorage, @unchecked Sendable {
    let inner: SQLiteSessionStorage
    let entered = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)
    private let armed = Atomic<Bool>(false)
    init(_ inner: SQLiteSessionStorage) { self.inner = inner }

    func failNext() { armed.store(true, ordering: .relaxed) }
    var initialFailure: String? { inner.initialFailure }
    func commit(_ batch: [StorageWrite], now: Int) throws(StorageError) -> Set<String> {
        if armed.exchange(false, ordering: .relaxed) {
            entered.signal()
            release.wait()
            throw StorageError("disk full (injected)")
        }
        return try inner.commit(batch, now: now)
    }
    func load(_ session: String) throws(StorageError) -> StoredSession? { try inner.load(session) }
    func count(ownedBy owner: String) throws(StorageError) -> Int { try inner.count(ownedBy: owner) }
    func expire(before: Int) throws(StorageError) -> Int { try inner.expire(before: before) }
    func probe() throws(StorageError) { try inner.probe() }
    func checkpoint() { inner.checkpoint() }
}
