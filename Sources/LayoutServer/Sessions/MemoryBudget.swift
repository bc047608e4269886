import CMalloc
import CheckedNumbers
import Foundation
import HTTPTransport
import Synchronization

/// New sessions and one-shot layouts are refused (503) once the heap in use passes the
/// budget, so a burst of big documents is answered instead of ending in the kernel's
/// OOM killer. Measured as glibc's count of bytes in use, not RSS: memory freed by a
/// deleted session counts as free even while the allocator keeps its pages.
public struct MemoryBudget: Sendable {
    /// 0: no budget.
    public var limitBytes: Int

    public init(limitBytes: Int) { self.limitBytes = limitBytes }

    public static var heapInUse: Int { Int(layoutd_heap_in_use()) }

    /// Keeps up to `bytes` of freed memory at each heap's top for the next request (0:
    /// glibc's policy, which trimmed it at every free). A 1,000-cell one-shot layout frees
    /// ~30 MB the next one allocates again: trimmed and faulted back in, that is ~850 page
    /// faults a request against ~135 kept and ~2 ms more of the server's system CPU
    /// (BENCHMARKS §4). Memory kept this way is free: the budget's count of bytes in use does
    /// not include it.
    public static func keepFreedHeap(_ bytes: Int) { layoutd_heap_keep(max(0, bytes)) }

    var isSpent: Bool { limitBytes > 0 && Self.sampledHeapInUse() >= limitBytes }

    /// The heap in use, read at most every 50 ms: mallinfo2 walks every arena's free lists,
    /// a cost that grows with the heap, and it ran on every creation. A burst inside one
    /// window can pass the budget by what those requests allocate, which the 1/4 headroom
    /// of the default limit absorbs.
    static func sampledHeapInUse(now: UInt64 = coarseMonotonicNanos()) -> Int {
        let at = heapSampledAt.load(ordering: .relaxed)
        if at != 0 && now &- at < 50_000_000 { return heapSample.load(ordering: .relaxed) }
        let v = heapInUse
        heapSample.store(v, ordering: .relaxed)
        heapSampledAt.store(now, ordering: .relaxed)
        return v
    }

    /// Three quarters of what this process may use: its cgroup's memory limit when it has
    /// one (a container), else the machine's memory.
    public static func defaultLimitBytes() -> Int {
        var limit = Int(ProcessInfo.processInfo.physicalMemory)
        for path in ["/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"] {
            if let text = try? String(contentsOfFile: path, encoding: .utf8),
                let n = Int(text.trimmingCharacters(in: .whitespacesAndNewlines)), n > 0
            {
                limit = min(limit, n)
            }
        }
        return limit / 4 * 3
    }
}

private let heapSample = Atomic<Int>(0)
private let heapSampledAt = Atomic<UInt64>(0)
