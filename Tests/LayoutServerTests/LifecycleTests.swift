import Foundation
import HTTPTransport
import Logging
import SessionStorage
import Synchronization
import XCTest

@testable import LayoutServer

/// What docs/OPERATING.md promises of starting, draining, and a store that fails under the server.
final class LifecycleTests: XCTestCase {
    func testReadyzIs503UntilTheServerHasStarted() throws {
        var c = ServerConfiguration()
        c.http.port = 0
        let server = try LayoutdServer(configuration: c)
        var req = Request(method: "GET", path: "/readyz", body: [], values: CopiedRequestValues(headers: [:], arguments: [:]))
        let starting = server.handle(&req)
        XCTAssertEqual(starting.status, 503, "made but not started: not ready")
        XCTAssertEqual(starting.header("Retry-After"), "1")
        XCTAssertEqual(server.handle(&req).status, 503)
        try server.start()
        XCTAssertEqual(server.handle(&req).status, 200)
        XCTAssertEqual(HTTPTestClient(port: server.port).request("GET", "/readyz").status, 200)
        server.drain()
    }

    func testADrainRefusesNewConnectionsAndClosesStreamsGoingAway() throws {
        // A drain that waited for open streams as for requests would take the whole 60 s.
        let t = try TestServer { $0.drainTimeoutSeconds = 60 }
        let c = t.client()
        let created = c.request("POST", "/v1/sessions", json: cardDocument)
        let id = try XCTUnwrap(created.object["session"] as? String)
        let ws = WebSocketTestClient(port: t.port, path: "/v1/sessions/\(id)/stream")
        XCTAssertEqual(ws.handshake.status, 101)
        XCTAssertTrue(waitFor { t.server.websockets.count == 1 })
        // A request under way holds the drain open: headers in, half of the body not.
        let held = t.client()
        held.begin("/v1/sessions", json: cardDocument, sent: 10)
        XCTAssertTrue(waitFor { t.server.isReady })
        XCTAssertEqual(answersHTTP(port: t.port), true, "before the drain a new connection is answered")
        let drained = expectation(description: "drain returns")
        let server = t.server
        Thread.detachNewThread {
            server.drain(); drained.fulfill()
        }
        XCTAssertTrue(waitFor { !t.server.isReady })
        XCTAssertTrue(answersHTTP(port: t.port) == false, "a draining server closes a new connection unanswered")
        // The stream is still served while requests are under way…
        ws.sendText(#"{"avatarLeading": 30}"#)
        XCTAssertEqual((ws.readJSON()["frames"] as? [String: Any])?.keys.sorted(), ["avatar", "title"])
        // …and once they are done, told the server is going away.
        XCTAssertEqual(held.finish().status, 201)
        XCTAssertEqual(ws.readClose(), 1001)
        wait(for: [drained], timeout: 10)
        XCTAssertEqual(t.server.websockets.count, 0)
    }

    /// Relaxed durability answers a set-constant before it is written; when that write is lost
    /// the session is ahead of the store, so it leaves memory and comes back as stored.
    func testASessionWhoseWritesWereLostComesBackAsStored() throws {
        let (server, storage) = try serverOnFailingStore(threads: 2, durability: .relaxed) { $0.flushIntervalMilliseconds = 20 }
        let http = HTTPTestClient(port: server.port)
        let id = try XCTUnwrap(http.request("POST", "/v1/sessions", json: cardDocument).object["session"] as? String)
        let kept = http.request("POST", "/v1/sessions/\(id)/constants", json: #"{"avatarLeading": 20}"#).object
        XCTAssertEqual(kept["revision"] as? Int, 2)
        XCTAssertTrue(waitFor { storage.committedRevision(id) == 2 }, "the first set-constant is written within the window")
        let before = http.request("GET", "/v1/sessions/\(id)/frames").object

        storage.failing.store(true, ordering: .relaxed)
        let lost = http.request("POST", "/v1/sessions/\(id)/constants", json: #"{"avatarLeading": 90}"#)
        XCTAssertEqual(lost.status, 200, "relaxed: answered before it is written")
        XCTAssertEqual(lost.object["revision"] as? Int, 3)
        XCTAssertTrue(waitFor { http.request("GET", "/metrics").text.contains("layoutd_sessions_reloaded_after_store_failure_total 1") })
        XCTAssertEqual(http.request("GET", "/readyz").status, 503, "the store cannot be written")
        // Reads go on, from what the store holds: the lost change is not there.
        let restored = http.request("GET", "/v1/sessions/\(id)/frames").object
        XCTAssertEqual(restored["revision"] as? Int, 2)
        XCTAssertEqual(
            (restored["frames"] as? [String: [String: Double]])?["avatar"], (before["frames"] as? [String: [String: Double]])?["avatar"])
        XCTAssertEqual(http.request("POST", "/v1/sessions/\(id)/constants", json: #"{"avatarLeading": 40}"#).status, 503)

        storage.failing.store(false, ordering: .relaxed)
        XCTAssertTrue(waitFor(seconds: 10) { http.request("GET", "/readyz").status == 200 }, "the store is taken back once it can be written")
        let again = http.request("POST", "/v1/sessions/\(id)/constants", json: #"{"avatarLeading": 40}"#).object
        XCTAssertEqual(again["revision"] as? Int, 3, "the session goes on from the stored revision")
    }
    /// A commit whose answer was lost (PostgreSQL's connection dropped after COMMIT) may have
    /// been made: its writes answer 502 outcome-unknown, never 503 "could not be stored", and
    /// the session comes back from the store as it is there (here with the write).
    func testAWriteWhoseCommitOutcomeIsUnknownAnswers502AndIsReadBack() throws {
        let (server, storage) = try serverOnFailingStore(threads: 2, durability: .strict)
        let http = HTTPTestClient(port: server.port)
        let id = try XCTUnwrap(http.request("POST", "/v1/sessions", json: cardDocument).object["session"] as? String)

        let change = #"{"baseRevision": 1, "ops": [{"op": "setConstant", "id": "avatarLeading", "constant": 33}]}"#
        storage.committedThenCutOff.store(true, ordering: .relaxed)
        let unknown = http.request("POST", "/v1/sessions/\(id)/changes", json: change)
        XCTAssertEqual(unknown.status, 502, unknown.text)
        XCTAssertEqual(unknown.object["type"] as? String, "/problems/outcome-unknown")
        XCTAssertFalse(unknown.headers.keys.contains { $0.lowercased() == "retry-after" })
        XCTAssertEqual(storage.committedRevision(id), 2, "the write is in the store")
        // Read back: the session left memory and comes back as stored, the write in it.
        let state = readBack(id, http)
        XCTAssertEqual(state.object["revision"] as? Int, 2)
        // The client retrying as it was told is refused as stale, not applied twice.
        XCTAssertTrue(waitFor(seconds: 10) { http.request("GET", "/readyz").status == 200 }, "the store is taken back")
        let retried = http.request("POST", "/v1/sessions/\(id)/changes", json: change)
        XCTAssertEqual(retried.status, 409, retried.text)

        // A new session whose write's outcome is unknown: its id is in the problem.
        storage.committedThenCutOff.store(true, ordering: .relaxed)
        let created = http.request("POST", "/v1/sessions", json: cardDocument)
        XCTAssertEqual(created.status, 502, created.text)
        let newID = try XCTUnwrap(created.object["session"] as? String)
        XCTAssertTrue(waitFor(seconds: 10) { http.request("GET", "/v1/sessions/\(newID)").status == 200 }, "stored, and found by its id")
    }

    /// Strict: a change queued behind its session's change whose batch failed is never answered
    /// 200. Written once the store recovered (at once here), it would sit in the journal
    /// without the change it was made on, and the restore would drop it (it does not replay).
    func testAChangeQueuedBehindAFailedOneOfItsSessionIsNotAnswered200() throws {
        let (server, storage) = try serverOnFailingStore(threads: 4, durability: .strict)
        let port = server.port
        let http = HTTPTestClient(port: port)
        let id = try XCTUnwrap(http.request("POST", "/v1/sessions", json: cardDocument).object["session"] as? String)

        // Revision 2 adds a constraint; its commit is held, then fails.
        storage.holdNext()
        let first = Mutex<HTTPTestClient.Reply?>(nil)
        let second = Mutex<HTTPTestClient.Reply?>(nil)
        let add = #"{"ops": [{"op": "addConstraints", "constraints": [{"id": "extra", "expr": "title.top >= card.top + 4"}]}]}"#
        Thread.detachNewThread {
            let r = HTTPTestClient(port: port).request("POST", "/v1/sessions/\(id)/changes", json: add)
            first.withLock { $0 = r }
        }
        storage.entered.wait()
        // Revision 3 changes that constraint: applied, and queued behind the held batch.
        let set = #"{"ops": [{"op": "setConstant", "id": "extra", "constant": 6}]}"#
        Thread.detachNewThread {
            let r = HTTPTestClient(port: port).request("POST", "/v1/sessions/\(id)/changes", json: set)
            second.withLock { $0 = r }
        }
        XCTAssertTrue(waitFor { http.request("GET", "/v1/sessions/\(id)").object["revision"] as? Int == 3 })
        storage.release.signal()
        XCTAssertTrue(waitFor(seconds: 10) { first.withLock { $0 != nil } && second.withLock { $0 != nil } })
        XCTAssertEqual(first.withLock { $0?.status }, 503)
        XCTAssertEqual(second.withLock { $0?.status }, 503, "the change it was made on was lost: it is lost too")
        XCTAssertEqual(storage.committedRevision(id), 1)
        // The session comes back as stored, and every change answered 200 is in it.
        let state = readBack(id, http)
        XCTAssertEqual(state.object["revision"] as? Int, 1)
    }
}

extension LifecycleTests {
    /// A server on a fresh SQLite store that fails its writes on demand; the server drained and
    /// the store's folder removed when the test ends.
    func serverOnFailingStore(threads: Int, durability: Durability, configure: (inout ServerConfiguration) -> Void = { _ in }) throws
        -> (LayoutdServer, FailingStorage)
    {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("layoutd-failing-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let storage = FailingStorage(try SQLiteSessionStorage(path: dir.appendingPathComponent("s.db").path))
        var c = ServerConfiguration()
        c.http.port = 0
        c.http.threads = threads
        c.durability = durability
        configure(&c)
        let server = try LayoutdServer(configuration: c, logger: Logger(label: "test"), storage: storage)
        addTeardownBlock {
            server.drain()
            try? FileManager.default.removeItem(at: dir)
        }
        try server.start()
        return (server, storage)
    }

    /// The session as read once it is back in memory (it left on a lost write).
    func readBack(_ id: String, _ http: HTTPTestClient) -> HTTPTestClient.Reply {
        var state = http.request("GET", "/v1/sessions/\(id)")
        XCTAssertTrue(
            waitFor(seconds: 10) {
                state = http.request("GET", "/v1/sessions/\(id)")
                return state.status == 200
            })
        return state
    }
}

/// SQLite whose writes fail while `failing` is set (a full disk, say), reads untouched.
final class FailingStorage: SessionStorage, @unchecked Sendable {
    let inner: SQLiteSessionStorage
    let failing = Atomic<Bool>(false)
    /// The next commit is made, and then fails as if its answer was lost (once).
    let committedThenCutOff = Atomic<Bool>(false)
    /// The next commit, once `holdNext()` armed it, signals `entered`, waits for `release`,
    /// then fails as a full disk would, freed at once (the probe after it passes).
    let entered = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)
    private let held = Atomic<Bool>(false)
    init(_ inner: SQLiteSessionStorage) { self.inner = inner }

    func holdNext() { held.store(true, ordering: .relaxed) }

    var initialFailure: String? { inner.initialFailure }
    func commit(_ batch: [StorageWrite], now: Int) throws(StorageError) -> Set<String> {
        if failing.load(ordering: .relaxed) { throw StorageError("disk full (injected)") }
        if held.exchange(false, ordering: .relaxed) {
            entered.signal()
            release.wait()
            throw StorageError("disk full (injected)")
        }
        let refused = try inner.commit(batch, now: now)
        if committedThenCutOff.exchange(false, ordering: .relaxed) {
            throw StorageError("the connection dropped during COMMIT (injected)", kind: .outcomeUnknown)
        }
        return refused
    }
    func load(_ session: String) throws(StorageError) -> StoredSession? { try inner.load(session) }
    func count(ownedBy owner: String) throws(StorageError) -> Int { try inner.count(ownedBy: owner) }
    func expire(before: Int) throws(StorageError) -> Int { try inner.expire(before: before) }
    func probe() throws(StorageError) {
        if failing.load(ordering: .relaxed) { throw StorageError("disk full (injected)") }
        try inner.probe()
    }
    func checkpoint() { inner.checkpoint() }

    /// The last revision stored for a session (its snapshot's, or its journal's last).
    func committedRevision(_ id: String) -> Int? {
        guard let s = try? inner.load(id) else { return nil }
        return s.journal.last?.revision ?? s.revision
    }
}

/// Whether a new connection to the port is answered: a GET sent, any byte back within 5 s
/// (nil: the connection itself was refused).
func answersHTTP(port: UInt16) -> Bool? {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(fd) }
    var addr = sockaddr_in()
    addr.sin_family = sa_family_t(AF_INET)
    addr.sin_port = port.bigEndian
    addr.sin_addr.s_addr = inet_addr("127.0.0.1")
    let connected = withUnsafePointer(to: &addr) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    guard connected == 0 else { return nil }
    var tv = timeval(tv_sec: 5, tv_usec: 0)
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
    let request = Array("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8)
    _ = request.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    var byte: UInt8 = 0
    return recv(fd, &byte, 1, 0) == 1
}
