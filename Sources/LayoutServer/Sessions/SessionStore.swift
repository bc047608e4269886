import Foundation
import LayoutModel
import Synchronization

func monotonicNanos() -> UInt64 {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
}

/// The monotonic clock at the kernel tick's resolution (a few ms), read without touching
/// the clock source: enough for idle times, and cheap enough for every request.
func coarseMonotonicNanos() -> UInt64 {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC_COARSE, &ts)
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
        lastUsed.store(coarseMonotonicNanos(), ordering: .relaxed)
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
    private var sessions: [SessionKey: SessionBox] = [:]
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
        guard let key = SessionKey(box.id) else { preconditionFailure("session ids are checked before insertion") }
        let result: InsertError? = lock.withLock {
            guard sessions.count < maxSessions else { return .full }
            guard sessions[key] == nil else { return .idTaken }
            sessions[key] = box
            return nil
        }
        if let result { throw result }
        return box
    }

    static func isValidID(_ s: String) -> Bool { SessionKey(s) != nil }

    func get(_ id: String) -> SessionBox? { SessionKey(id).flatMap(get) }

    func get(_ key: SessionKey) -> SessionBox? {
        let box = lock.withLock { sessions[key] }
        box?.lastUsed.store(coarseMonotonicNanos(), ordering: .relaxed)
        return box
    }

    @discardableResult
    func remove(_ id: String) -> Bool {
        guard let key = SessionKey(id) else { return false }
        return lock.withLock { sessions.removeValue(forKey: key) != nil }
    }

    /// Drops sessions idle longer than the TTL; returns how many.
    @discardableResult
    func evictIdle(now: UInt64 = coarseMonotonicNanos()) -> Int {
        let n = lock.withLock {
            let stale = sessions.values.filter { now &- $0.lastUsed.load(ordering: .relaxed) > idleTTLNanos && now > $0.lastUsed.load(ordering: .relaxed) }
            for b in stale { sessions[SessionKey(b.id)!] = nil }
            return stale.count
        }
        if n > 0 { onEvict(n) }
        return n
    }
}
