import HTTPTransport
import CEpoll
import Foundation
import Synchronization

/// A loop thread with its own epoll set, serving every stream that is ready on each wakeup
/// (a thread per stream cost two thread wakeups per message). A stream belongs to one
/// reactor for its life, so its state is only ever touched by that reactor's thread.
final class StreamReactor: @unchecked Sendable {
    private let epfd: Int32
    private let wakeFD: Int32
    private let incoming = Mutex<[StreamConnection]>([])
    private var streams: [Int32: StreamConnection] = [:]  // by socket, reactor thread only
    private let running = Atomic<Bool>(true)
    private let onIdle: @Sendable ([StreamConnection]) -> Void
    private var scratch = [UInt8](repeating: 0, count: 65536)  // receive buffer, reactor thread only

    init(name: String, onIdle: @escaping @Sendable ([StreamConnection]) -> Void) {
        epfd = layoutd_epoll_create()
        wakeFD = layoutd_eventfd()
        self.onIdle = onIdle
        _ = layoutd_epoll_add(epfd, wakeFD)
        let thread = Thread { [self] in loop() }
        thread.name = name
        thread.stackSize = 1 << 20
        thread.start()
    }

    /// Hands a new stream to this reactor (from any thread).
    func adopt(_ s: StreamConnection) {
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
        var again: [Int32] = []  // streams with a full batch still buffered
        while running.load(ordering: .relaxed) {
            let n = layoutd_epoll_wait(epfd, &ready, Int32(ready.count), again.isEmpty ? 1000 : 0)
            let revisit = again
            again.removeAll()
            for fd in revisit { if let s = streams[fd] { serve(s, &again) } }
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
                guard let s = streams[fd], !revisit.contains(fd) else { continue }
                serve(s, &again)
            }
            // Open but quiet streams keep their sessions from idle eviction.
            if monotonicNanos() - lastIdle > 1_000_000_000 {
                lastIdle = monotonicNanos()
                onIdle(Array(streams.values))
            }
        }
        for s in streams.values { finish(s) }
        close(epfd)
        close(wakeFD)
    }

    private func serve(_ s: StreamConnection, _ again: inout [Int32], initial: Bool = false) {
        switch s.onReadable(initial: initial, scratch: &scratch) {
        case .closed: finish(s)
        case .more: again.append(s.socket)
        case .idle: break
        }
    }

    private func start(_ s: StreamConnection) {
        streams[s.socket] = s
        // Small frames both ways, each awaited: never let Nagle hold one back.
        var one: Int32 = 1
        setsockopt(s.socket, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        _ = layoutd_epoll_add(epfd, s.socket)
        // Bytes that arrived with the upgrade request are already buffered.
        var again: [Int32] = []
        serve(s, &again, initial: true)
        while !again.isEmpty, let t = streams[again.removeLast()] { serve(t, &again) }
    }

    private func finish(_ s: StreamConnection) {
        guard streams.removeValue(forKey: s.socket) != nil else { return }
        _ = layoutd_epoll_remove(epfd, s.socket)
        s.finish()
    }
}
