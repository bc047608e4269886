import Foundation
import LayoutModel
import Synchronization

func monotonicNanos() -> UInt64 {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
}

/// One session and the lock that serialises its requests.
public final class SessionBox: @unchecked Sendable {
    public let id: String
    let session: LayoutSession
    private let lock = NSLock()
    let lastUsed = Atomic<UInt64>(0)

    init(id: String, session: LayoutSession) {
        self.id = id
        self.session = session
        lastUsed.store(monotonicNanos(), ordering: .relaxed)
    }

    func withSession<T, E: Error>(_ body: (LayoutSession) throws(E) -> T) throws(E) -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body(session)
    }
}

/// Sessions by id, with a cap and idle eviction. The store's lock is held only to find,
/// add or drop a box: a request never waits for another session's work.
public final class SessionStore: @unchecked Sendable {
    public let maxSessions: Int
    public let idleTTLNanos: UInt64
    private let lock = NSLock()
    private var sessions: [String: SessionBox] = [:]
    var onEvict: @Sendable (Int) -> Void = { _ in }

    public init(maxSessions: Int, idleTTLSeconds: Double) {
        self.maxSessions = maxSessions
        self.idleTTLNanos = UInt64(max(0.001, idleTTLSeconds) * 1e9)
    }

    public var count: Int { lock.withLock { sessions.count } }

    /// 128 random bits from the system's generator, as 32 hex digits.
    static func newID() -> String {
        var g = SystemRandomNumberGenerator()
        let a = g.next() as UInt64, b = g.next() as UInt64
        func pad(_ x: UInt64) -> String { let s = String(x, radix: 16); return String(repeating: "0", count: 16 - s.count) + s }
        return pad(a) + pad(b)
    }

    /// Adds a session built outside the lock; refuses when the cap is reached even after
    /// dropping idle ones.
    enum InsertError: Error { case full, idTaken }

    func insert(_ session: LayoutSession, id: String? = nil) throws(InsertError) -> SessionBox {
        if count >= maxSessions { _ = evictIdle() }
        let box = SessionBox(id: id ?? Self.newID(), session: session)
        let result: InsertError? = lock.withLock {
            guard sessions.count < maxSessions else { return .full }
            guard sessions[box.id] == nil else { return .idTaken }
            sessions[box.id] = box
            return nil
        }
        if let result { throw result }
        return box
    }

    static func isValidID(_ s: String) -> Bool {
        s.utf8.count == 32 && s.utf8.allSatisfy { ($0 >= 48 && $0 <= 57) || ($0 >= 97 && $0 <= 102) }
    }

    func get(_ id: String) -> SessionBox? {
        let box = lock.withLock { sessions[id] }
        box?.lastUsed.store(monotonicNanos(), ordering: .relaxed)
        return box
    }

    @discardableResult
    func remove(_ id: String) -> Bool { lock.withLock { sessions.removeValue(forKey: id) != nil } }

    /// Drops sessions idle longer than the TTL; returns how many.
    @discardableResult
    func evictIdle(now: UInt64 = monotonicNanos()) -> Int {
        let n = lock.withLock {
            let stale = sessions.values.filter { now &- $0.lastUsed.load(ordering: .relaxed) > idleTTLNanos && now > $0.lastUsed.load(ordering: .relaxed) }
            for b in stale { sessions[b.id] = nil }
            return stale.count
        }
        if n > 0 { onEvict(n) }
        return n
    }
}
