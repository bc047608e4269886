#if canImport(Glibc)
    import Glibc
#endif
import JSON

/// A blocking WebSocket client connection (enough for the benchmark: masked text out, frames in).
final class Conn {
    let fd: Int32
    var buf: [UInt8] = []
    init(_ port: UInt16) {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = port.bigEndian
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        _ = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        var one: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
    }
    func write(_ b: [UInt8]) {
        var o = 0;
        while o < b.count {
            let n = b[o...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }; if n <= 0 { exit(1) }; o += n
        }
    }
    private var chunk = [UInt8](repeating: 0, count: 65536)  // reused: the client's own cost competes with the server for the cores
    func fill() { let n = recv(fd, &chunk, chunk.count, 0); if n <= 0 { print("connection closed"); exit(1) }; buf += chunk[0..<n] }
    func readHead() -> String {
        while true {
            if let r = findCRLFCRLF() { let head = String(decoding: buf[0..<r], as: UTF8.self); buf.removeFirst(r + 4); return head }
            fill()
        }
    }
    func findCRLFCRLF() -> Int? {
        guard buf.count >= 4 else { return nil };
        for i in 0...(buf.count - 4) where buf[i] == 13 && buf[i + 1] == 10 && buf[i + 2] == 13 && buf[i + 3] == 10 { return i }; return nil
    }
    func readBody(_ n: Int) -> [UInt8] { while buf.count < n { fill() }; let b = Array(buf[0..<n]); buf.removeFirst(n); return b }
    /// One server frame's payload (waits for it).
    func readFrame() -> [UInt8] {
        while true { if let p = takeFrame() { return p }; fill() }
    }
    func sendText(_ s: String) {
        let p = Array(s.utf8)
        var f: [UInt8] = [0x81]
        f.reserveCapacity(p.count + 8)
        if p.count < 126 { f.append(0x80 | UInt8(p.count)) } else { f += [0x80 | 126, UInt8(p.count >> 8), UInt8(p.count & 0xFF)] }
        let mask: [UInt8] = [7, 3, 1, 9]
        f += mask
        for (i, b) in p.enumerated() { f.append(b ^ mask[i & 3]) }
        write(f)
    }
}

final class Results: @unchecked Sendable {
    var latencies: [[Double]]
    var changedViews: [[Int]]
    init(_ n: Int) { latencies = Array(repeating: [], count: n); changedViews = Array(repeating: [], count: n) }
}

/// One drag's parameters, handed to its thread.
final class DragJob {
    let k: Int, drags: Int, paced: Bool, results: Results, start: Double, end: Double, conn: Conn, mid: Int
    init(_ k: Int, of drags: Int, _ paced: Bool, _ results: Results, _ start: Double, _ end: Double, _ conn: Conn, _ mid: Int) {
        self.k = k; self.drags = drags; self.paced = paced; self.results = results; self.start = start; self.end = end; self.conn = conn;
        self.mid = mid
    }
}

/// One drag: set-constants on the middle cell's avatar, each timed to its answer.
func dragWorker(_ raw: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
    let b = Unmanaged<DragJob>.fromOpaque(raw!).takeRetainedValue()
    var step = 0
    // Independent pointers: each drag's 120 Hz ticks start at its own phase within one period
    // (as in the epoll client), not all 64 on the same instant.
    var next = b.start + Double(b.k) / Double(b.drags) / 120
    while now() < b.end {
        if b.paced { sleep(until: next); next += 1.0 / 120 }
        step += 1
        let t0 = now()
        b.conn.sendText(dragMessage(mid: b.mid, step: step))
        let reply = b.conn.readFrame()
        b.results.latencies[b.k].append((now() - t0) * 1e6)
        if let frames = (try? JSONParser.parse(reply))?["frames"]?.members { b.results.changedViews[b.k].append(frames.count) }
    }
    return nil
}

/// The set-constant a drag sends on its `step`: the middle cell's avatar, back and forth.
func dragMessage(mid: Int, step: Int) -> String { #"{"c\#(mid)lead": \#(16 + Double(step % 200) * 0.5)}"# }

/// The value below which `p` of the sorted sample lies.
func percentile(_ sorted: [Double], _ p: Double) -> Double { sorted.isEmpty ? 0 : sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))] }

/// Sleeps to an absolute CLOCK_MONOTONIC time (no drift from relative sleeps).
func sleep(until t: Double) {
    var ts = timespec(tv_sec: Int(t), tv_nsec: Int((t - t.rounded(.down)) * 1e9))
    while clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, nil) == EINTR {}
}

func now() -> Double { var ts = timespec(); clock_gettime(CLOCK_MONOTONIC, &ts); return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9 }
