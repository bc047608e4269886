import CEpoll
import CheckedNumbers
import Foundation
import Synchronization

/// A loop thread with its own epoll set, serving every connection that is ready on each
/// wakeup (a thread per connection cost two thread wakeups per message). A connection
/// belongs to one reactor for its life, so its state is only ever touched by that thread.
final class WebSocketReactor: @unchecked Sendable {
    private let epfd: Int32
    private let wakeFD: Int32
    private let incoming = Mutex<[WebSocketConnection]>([])
    private var connections: [Int32: WebSocketConnection] = [:]  // by socket, reactor thread only
    private let running = Atomic<Bool>(true)
    private var scratch = [UInt8](repeating: 0, count: 65536)  // receive buffer, reactor thread only
    /// A connection silent this long is closed (0: never).
    private let idleTimeoutNanos: UInt64

    init(name: String, idleTimeoutNanos: UInt64) {
        self.idleTimeoutNanos = idleTimeoutNanos
        epfd = layoutd_epoll_create()
        wakeFD = layoutd_eventfd()
        _ = layoutd_epoll_add(epfd, wakeFD)
        let thread = Thread { [self] in loop() }
        thread.name = name
        thread.stackSize = 1 << 20
        thread.start()
    }

    /// Hands a new connection to this reactor (from any thread).
    func adopt(_ s: WebSocketConnection) {
        incoming.withLock { $0.append(s) }
        wake()
    }

    func stop() {
        running.store(false, ordering: .relaxed)
        wake()
    }

    private func wake() {
        var one: UInt64 = 1
        _ = write(wakeFD, &one, 8)
    }

    private func loop() {
        var ready = [Int32](repeating: 0, count: 64)
        var lastIdle = monotonicNanos()
        var again: [Int32] = []  // connections with a full batch still buffered
        while running.load(ordering: .relaxed) {
            let n = layoutd_epoll_wait(epfd, &ready, Int32(ready.count), again.isEmpty ? 1000 : 0)
            let revisit = again
            again.removeAll()
            for fd in revisit { if let s = connections[fd] { serve(s, &again) } }
            for i in 0..<max(0, Int(n)) {
                let fd = ready[i]
                if fd == wakeFD {
                    var v: UInt64 = 0
                    _ = read(wakeFD, &v, 8)
                    for s in incoming.withLock({ q in
                        defer { q.removeAll() }; return q
                    }) { start(s) }
                    continue
                }
                guard let s = connections[fd], !revisit.contains(fd) else { continue }
                serve(s, &again)
            }
            if monotonicNanos() - lastIdle > 1_000_000_000 {
                lastIdle = monotonicNanos()
                for s in connections.values {
                    if idleTimeoutNanos > 0 && lastIdle &- s.lastHeard > idleTimeoutNanos {
                        // A silent stream held a slot of --max-streams for ever: two addresses
                        // could hold them all.
                        s.close(.normal, "idle for more than \(idleTimeoutNanos / 1_000_000_000) s")
                        finish(s)
                    } else {
                        s.handler.stillOpen(s)
                    }
                }
            }
        }
        for s in connections.values { finish(s) }
        close(epfd)
        close(wakeFD)
    }

    private func serve(_ s: WebSocketConnection, _ again: inout [Int32], initial: Bool = false) {
        switch s.onReadable(initial: initial, scratch: &scratch) {
        case .closed: finish(s)
        case .more: again.append(s.socket)
        case .idle: break
        }
    }

    private func start(_ s: WebSocketConnection) {
        connections[s.socket] = s
        s.handler.opened(s)
        // Small frames both ways, each awaited: never let Nagle hold one back.
        var one: Int32 = 1
        setsockopt(s.socket, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        _ = layoutd_epoll_add(epfd, s.socket)
        // Bytes that arrived with the upgrade request are already buffered.
        var again: [Int32] = []
        serve(s, &again, initial: true)
        while !again.isEmpty, let t = connections[again.removeLast()] { serve(t, &again) }
    }

    private func finish(_ s: WebSocketConnection) {
        guard connections.removeValue(forKey: s.socket) != nil else { return }
        _ = layoutd_epoll_remove(epfd, s.socket)
        s.finish()
    }
}
