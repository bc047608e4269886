import CEpoll
import Foundation

/// A fixed set of threads for requests too heavy to run on libmicrohttpd's own threads,
/// each of which also serves every other connection assigned to it: a 1,000-cell session
/// solved there would stall those connections for as long as it takes.
final class WorkerPool: @unchecked Sendable {
    /// Guards the fields below and lets idle threads wait (a condition: `Mutex` has no wait,
    /// hence `@unchecked`).
    private let condition = NSCondition()
    /// Each sender's jobs in order, and the senders with jobs in the order they are served
    /// (round robin: one job of each in turn).
    private var queues: [String: Queue] = [:]
    private var turn: [String] = []
    private var queued = 0
    private var stopping = false
    private var running = 0

    /// The workers' nice value: heavy work yields the CPU to the threads that answer light
    /// requests (a health check, a set-constant) when both want it, so one tenant's builds
    /// do not stretch another's latencies on a busy machine (CFS weights: 110 against 1,024).
    static let niceness: Int32 = 10

    init(threads: Int, name: String) {
        for i in 0..<max(1, threads) {
            let t = Thread { [self] in
                _ = layoutd_nice_this_thread(Self.niceness)
                work()
            }
            t.name = "\(name)-\(i)"
            t.start()
        }
    }

    func run(for sender: String = "", _ job: @escaping @Sendable () -> Void) {
        condition.lock()
        if queues[sender] == nil { turn.append(sender) }
        queues[sender, default: Queue()].jobs.append(job)
        queued += 1
        condition.signal()
        condition.unlock()
    }

    /// Jobs queued or under way.
    var pending: Int {
        condition.lock()
        defer { condition.unlock() }
        return queued + running
    }

    /// Lets the threads finish what is queued, then end.
    func stop() {
        condition.lock()
        stopping = true
        condition.broadcast()
        condition.unlock()
    }

    private func work() {
        while true {
            condition.lock()
            while queued == 0 && !stopping { condition.wait() }
            if queued == 0 { condition.unlock(); return }
            // The sender whose turn it is: one job, then to the back of the line if it has more.
            let sender = turn.removeFirst()
            let job = queues[sender]!.take()
            if queues[sender]!.isEmpty { queues[sender] = nil } else { turn.append(sender) }
            queued -= 1
            running += 1
            condition.unlock()
            job()
            condition.lock()
            running -= 1
            condition.unlock()
        }
    }
}

/// One sender's jobs, taken from the front without moving the rest.
private struct Queue {
    var jobs: [@Sendable () -> Void] = []
    var head = 0
    var isEmpty: Bool { head == jobs.count }

    mutating func take() -> @Sendable () -> Void {
        let job = jobs[head]
        head += 1
        if head == jobs.count { (jobs, head) = ([], 0) }
        return job
    }
}
