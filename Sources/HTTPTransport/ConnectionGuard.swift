import CMicroHTTPD
import CheckedNumbers
import Foundation
import Synchronization

/// Keeps slow or greedy clients from holding the server's connection slots, as nginx's
/// `client_header_timeout` and `limit_conn` do:
/// - **A request deadline**: a connection must deliver a whole request (headers and body)
///   within `requestTimeout` of opening, or, kept alive, within the idle timeout plus
///   `requestTimeout` of its last answer. The deadline is absolute: a client trickling a
///   byte a second is cut off as surely as a silent one (libmicrohttpd's own timeout only
///   counts silence). A sweeper shuts expired sockets down; libmicrohttpd then closes them.
///   Nothing runs against the clock while a request is handled or after a WebSocket upgrade.
/// - **A per-client connection cap**, by peer address, checked at accept. Trusted proxies
///   (which carry many clients' connections) are exempt: the proxy limits its clients'
///   connections, and here the same number caps the requests in flight for one client
///   as the proxy names it (the last `X-Forwarded-For` address, or `X-Real-IP`). That
///   header is read only from a trusted proxy: anyone else could write any address in it.
/// - **A per-owner connection cap**: a connection belongs to the owner (tenant) its
///   requests name, from whatever address; one owner past its share is refused its next
///   request (the server closes that connection), so a tenant with many addresses cannot
///   hold every slot either. A trusted proxy's connections carry everyone's: not counted.
final class ConnectionGuard: @unchecked Sendable {
    /// One connection's clock; the notify callback's socket context holds it.
    final class Clock: Sendable {
        let fd: Int32
        /// The peer counted per client; nil for a trusted proxy (or a peer without an IP address).
        let client: ClientAddress?
        /// From a trusted proxy: its requests name their client in a header.
        let viaProxy: Bool
        /// Monotonic milliseconds by which the next request must be in; `.max` for none.
        let deadline: Atomic<Int>
        let upgraded = Atomic<Bool>(false)
        let expired = Atomic<Bool>(false)
        /// The owner counted for this connection (guarded by the guard's lock).
        nonisolated(unsafe) var owner: String? = nil

        init(fd: Int32, client: ClientAddress?, viaProxy: Bool, deadline: Int) {
            self.fd = fd; self.client = client; self.viaProxy = viaProxy; self.deadline = Atomic(deadline)
        }
    }

    private let requestTimeoutMs: Int
    private let idleTimeoutMs: Int
    private let perClientLimit: Int
    private let perOwnerLimit: Int
    private let trusted: [AddressRange]
    private let open = Mutex<(clocks: [ObjectIdentifier: Clock], perClient: [ClientAddress: Int], perOwner: [String: Int])>(([:], [:], [:]))
    /// Requests in flight per client named by a trusted proxy.
    private let forwarded = Mutex<[ClientAddress: Int]>([:])
    private let running = Atomic<Bool>(true)
    /// Connections shut down at their deadline, and refused for their client's cap.
    let timedOut = Atomic<Int>(0)
    let refused = Atomic<Int>(0)
    let refusedForwarded = Atomic<Int>(0)
    let refusedOwner = Atomic<Int>(0)

    init(requestTimeoutSeconds: Int, idleTimeoutSeconds: Int, perClientLimit: Int, perOwnerLimit: Int, trusted: [AddressRange]) {
        requestTimeoutMs = requestTimeoutSeconds * 1000
        idleTimeoutMs = idleTimeoutSeconds * 1000
        self.perClientLimit = perClientLimit
        self.perOwnerLimit = perOwnerLimit
        self.trusted = trusted
    }

    /// Starts the sweeper. A quarter of a second: a deadline is kept to within that
    /// (libmicrohttpd's own timeouts are checked once a second).
    func start() {
        let sweeper = Thread { [self] in
            while running.load(ordering: .relaxed) {
                Thread.sleep(forTimeInterval: 0.25)
                sweep()
            }
        }
        sweeper.name = "layoutd-deadlines"
        sweeper.start()
    }

    func stop() { running.store(false, ordering: .relaxed) }

    /// Milliseconds on the coarse monotonic clock: deadlines are seconds long.
    static func now() -> Int { Int(coarseMonotonicNanos() / 1_000_000) }

    // MARK: From libmicrohttpd's callbacks

    /// The accept policy: false when the peer already holds its share of the slots.
    func admits(_ address: UnsafePointer<sockaddr>?) -> Bool {
        guard let a = address.flatMap(ClientAddress.init), !isTrusted(a) else { return true }
        let held = open.withLock { $0.perClient[a] ?? 0 }
        if held < perClientLimit { return true }
        refused.add(1, ordering: .relaxed)
        return false
    }

    func opened(fd: Int32, address: UnsafePointer<sockaddr>?) -> Clock {
        let peer = address.flatMap(ClientAddress.init)
        let viaProxy = peer.map(isTrusted) ?? false
        let a = viaProxy ? nil : peer
        let clock = Clock(fd: fd, client: a, viaProxy: viaProxy, deadline: Self.now() + requestTimeoutMs)
        open.withLock { s in
            s.clocks[ObjectIdentifier(clock)] = clock
            guard let a else { return }
            let held = s.perClient[a, default: 0]
            s.perClient[a] = held + 1
            // `admits` only reads the count: two of a peer's connections accepted at once by
            // libmicrohttpd's threads can both pass it (CI saw 5 open under a cap of 4). The
            // count here is the one that holds; a connection over it is cut at once.
            if held >= perClientLimit {
                clock.expired.store(true, ordering: .relaxed)
                Glibc.shutdown(fd, Int32(Glibc.SHUT_RDWR))
                refused.add(1, ordering: .relaxed)
            }
        }
        return clock
    }

    func closed(_ clock: Clock) {
        open.withLock { s in
            s.clocks[ObjectIdentifier(clock)] = nil
            if let a = clock.client {
                let n = (s.perClient[a] ?? 1) - 1
                s.perClient[a] = n > 0 ? n : nil
            }
            if let o = clock.owner { Self.release(o, in: &s.perOwner) }
        }
    }

    /// Counts the connection as `owner`'s: false when the owner holds its share already
    /// (the connection stays another owner's, or nobody's). A connection first used by one
    /// owner and then another moves to the second.
    func claim(_ clock: Clock, for owner: String) -> Bool {
        guard !clock.viaProxy else { return true }
        let held = open.withLock { s -> Bool in
            if clock.owner == owner { return true }
            guard s.perOwner[owner, default: 0] < perOwnerLimit else { return false }
            if let o = clock.owner { Self.release(o, in: &s.perOwner) }
            clock.owner = owner
            s.perOwner[owner, default: 0] += 1
            return true
        }
        if !held { refusedOwner.add(1, ordering: .relaxed) }
        return held
    }

    private static func release(_ owner: String, in counts: inout [String: Int]) {
        let n = (counts[owner] ?? 1) - 1
        counts[owner] = n > 0 ? n : nil
    }

    /// A whole request is in: no deadline while it is handled.
    func handling(_ clock: Clock) { clock.deadline.store(.max, ordering: .relaxed) }

    /// An answer went out: the next request must be in by the idle timeout plus the request timeout.
    func answered(_ clock: Clock) {
        guard !clock.upgraded.load(ordering: .relaxed) else { return }
        clock.deadline.store(Self.now() + idleTimeoutMs + requestTimeoutMs, ordering: .relaxed)
    }

    /// Taken over by a WebSocket: the stream keeps its own time.
    func upgraded(_ clock: Clock) {
        clock.upgraded.store(true, ordering: .relaxed)
        clock.deadline.store(.max, ordering: .relaxed)
    }

    /// A request from a trusted proxy for `client` (its header's value): false when that
    /// client already has its share in flight. Pair a true with `finished(forwarded:)`.
    func begin(forwarded header: String) -> ClientAddress?? {
        guard let a = ClientAddress(text: header) else { return .some(nil) }  // unreadable: not counted
        let admitted = forwarded.withLock { m -> Bool in
            let n = m[a] ?? 0
            guard n < perClientLimit else { return false }
            m[a] = n + 1
            return true
        }
        if admitted { return .some(a) }
        refusedForwarded.add(1, ordering: .relaxed)
        return .none
    }

    func finished(forwarded a: ClientAddress) {
        forwarded.withLock { m in
            let n = (m[a] ?? 1) - 1
            m[a] = n > 0 ? n : nil
        }
    }

    /// The client a trusted proxy names: the last `X-Forwarded-For` entry (the one the
    /// proxy itself added), else `X-Real-IP`.
    static func forwardedClient(xForwardedFor: String?, xRealIP: String?) -> String? {
        if let x = xForwardedFor, let last = x.split(separator: ",").last { return last.trimmingCharacters(in: .whitespaces) }
        return xRealIP?.trimmingCharacters(in: .whitespaces)
    }

    // MARK: The sweep

    private func sweep() {
        let now = Self.now()
        open.withLock { s in
            // Under the lock: a clock is removed (in libmicrohttpd's close notification)
            // before its socket is closed, so `fd` is still this connection's.
            for clock in s.clocks.values where clock.deadline.load(ordering: .relaxed) < now && !clock.expired.load(ordering: .relaxed) {
                clock.expired.store(true, ordering: .relaxed)
                Glibc.shutdown(clock.fd, Int32(Glibc.SHUT_RDWR))
                timedOut.add(1, ordering: .relaxed)
            }
        }
    }

    private func isTrusted(_ a: ClientAddress) -> Bool { trusted.contains { $0.contains(a) } }
}
