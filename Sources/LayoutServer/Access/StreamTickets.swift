import HTTPTransport
import Synchronization

/// Single-use, short-lived tickets for a browser's WebSocket, which cannot carry an
/// `Authorization` header: a page asks for one with its key (`POST .../stream-ticket`) and
/// opens `.../stream?ticket=T` within `lifetime`. A ticket names one session and one
/// caller, and works once, so one seen in a log or a proxy's URL is already spent.
final class StreamTickets: Sendable {
    static let lifetimeNanos: UInt64 = 30_000_000_000
    private let issued = Mutex<[String: (caller: Caller, session: String, until: UInt64)]>([:])

    func issue(for caller: Caller, session: String, now: UInt64 = monotonicNanos()) -> String {
        var g = SystemRandomNumberGenerator()
        let ticket = (0..<4).map { _ in String(g.next() as UInt64, radix: 16) }.joined(separator: "-")
        issued.withLock { t in
            t = t.filter { $0.value.until > now }  // the expired go as new ones come
            t[ticket] = (caller, session, now + Self.lifetimeNanos)
        }
        return ticket
    }

    /// Drops the tickets whose caller `keep` refuses (a revoked key's): how many.
    @discardableResult
    func revoke(unless keep: (Caller) -> Bool) -> Int {
        issued.withLock { t in
            let before = t.count
            t = t.filter { keep($0.value.caller) }
            return before - t.count
        }
    }

    /// The ticket's caller, once: nil when it is unknown, spent, expired or for another session.
    func redeem(_ ticket: String, session: String, now: UInt64 = monotonicNanos()) -> Caller? {
        guard let t = issued.withLock({ $0.removeValue(forKey: ticket) }), t.until > now, t.session == session else { return nil }
        return t.caller
    }
}
