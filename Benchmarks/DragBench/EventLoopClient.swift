#if canImport(Glibc)
    import Glibc
#endif
import CEpoll
import JSON

/// All drags from one thread with epoll, as load generators such as wrk do: the client's
/// own thread wakeups stop competing with the server for the two cores.
func runEventLoop(_ conns: [Conn], paced: Bool, seconds: Double, mid: Int) -> (latencies: [Double], views: [Int]) {
    let ep = layoutd_epoll_create()
    defer { close(ep) }
    var byFD: [Int32: Int] = [:]
    for (k, c) in conns.enumerated() {
        byFD[c.fd] = k
        _ = layoutd_epoll_add(ep, c.fd)
        var flags = fcntl(c.fd, F_GETFL)
        flags |= O_NONBLOCK
        _ = fcntl(c.fd, F_SETFL, flags)
    }
    var latencies: [Double] = []
    var views: [Int] = []
    latencies.reserveCapacity(Int(seconds * 130) * conns.count)
    var sentAt = [Double](repeating: 0, count: conns.count)
    var waiting = [Bool](repeating: false, count: conns.count)
    var step = [Int](repeating: 0, count: conns.count)
    let start = now()
    // Paced drags start spread over one 120 Hz period.
    var due = (0..<conns.count).map { start + Double($0) / Double(conns.count) / 120 }
    let end = start + seconds
    func send(_ k: Int) {
        step[k] += 1
        sentAt[k] = now()
        waiting[k] = true
        conns[k].sendText(dragMessage(mid: mid, step: step[k]))
    }
    if !paced { for k in conns.indices { send(k) } }
    var ready = [Int32](repeating: 0, count: 64)
    var chunk = [UInt8](repeating: 0, count: 65536)
    while now() < end {
        var timeout: Int32 = 100
        if paced {
            let t = now()
            for k in conns.indices where !waiting[k] && due[k] <= t { send(k); due[k] += 1.0 / 120 }
            let next = conns.indices.filter { !waiting[$0] }.map { due[$0] }.min() ?? (t + 0.1)
            timeout = Int32(max(0, min(100, (next - now()) * 1000)))
        }
        let n = layoutd_epoll_wait(ep, &ready, 64, timeout)
        for i in 0..<max(0, Int(n)) {
            guard let k = byFD[ready[i]] else { continue }
            let c = conns[k]
            let got = recv(c.fd, &chunk, chunk.count, 0)
            if got <= 0 { continue }
            c.buf += chunk[0..<got]
            while let payload = c.takeFrame() {
                latencies.append((now() - sentAt[k]) * 1e6)
                waiting[k] = false
                if let frames = (try? JSONParser.parse(payload))?["frames"]?.members { views.append(frames.count) }
                if !paced && now() < end { send(k) }
            }
        }
    }
    return (latencies, views)
}

extension Conn {
    /// One complete server frame from the buffer, if there is one (never waits).
    func takeFrame() -> [UInt8]? {
        guard buf.count >= 2 else { return nil }
        var n = Int(buf[1] & 0x7F), off = 2
        if n == 126 {
            guard buf.count >= 4 else { return nil }; n = Int(buf[2]) << 8 | Int(buf[3]); off = 4
        } else if n == 127 {
            guard buf.count >= 10 else { return nil }; n = 0; for k in 2..<10 { n = n << 8 | Int(buf[k]) }; off = 10
        }
        guard buf.count >= off + n else { return nil }
        let p = Array(buf[off..<(off + n)])
        buf.removeFirst(off + n)
        return p
    }
}
