import Foundation

/// A fixed set of threads for requests too heavy to run on libmicrohttpd's own threads,
/// each of which also serves every other connection assigned to it: a 1,000-cell session
/// solved there would stall those connections for as long as it takes.
final class WorkerPool: @unchecked Sendable {
    /// Guards the fields below and lets idle threads wait (a condition: `Mutex` has no wait,
    /// hence `@unchecked`).
    private let condition = NSCondition()
    private var jobs: [@Sendable () -> Void] = []
    private var head = 0
    private var stopping = false
    private var running = 0

    init(threads: Int, name: String) {
        for i in 0..<max(1, threads) {
            let t = Thread { [self] in work() }
            t.name = "\(name)-\(i)"
            t.start()
        }
    }

    func run(_ job: @escaping @Sendable () -> Void) {
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    /// Jobs queued or under way.
    var pending: Int {
        condition.lock()
        defer { condition.unlock() }
        return jobs.count - head + running
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
            while head == jobs.count && !stopping { condition.wait() }
            if head == jobs.count { condition.unlock(); return }
            let job = jobs[head]
            head += 1
            if head == jobs.count { jobs.removeAll(keepingCapacity: true); head = 0 }
            running += 1
            condition.unlock()
            job()
            condition.lock()
            running -= 1
            condition.unlock()
        }
    }
}
