import CMalloc
import Foundation

/// New sessions and one-shot layouts are refused (503) once the heap in use passes the
/// budget, so a burst of big documents is answered instead of ending in the kernel's
/// OOM killer. Measured as glibc's count of bytes in use, not RSS: memory freed by a
/// deleted session counts as free even while the allocator keeps its pages.
public struct MemoryBudget: Sendable {
    /// 0: no budget.
    public var limitBytes: Int

    public init(limitBytes: Int) { self.limitBytes = limitBytes }

    public static var heapInUse: Int { Int(layoutd_heap_in_use()) }

    var isSpent: Bool { limitBytes > 0 && Self.heapInUse >= limitBytes }

    /// Three quarters of what this process may use: its cgroup's memory limit when it has
    /// one (a container), else the machine's memory.
    public static func defaultLimitBytes() -> Int {
        var limit = Int(ProcessInfo.processInfo.physicalMemory)
        for path in ["/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"] {
            if let text = try? String(contentsOfFile: path, encoding: .utf8),
               let n = Int(text.trimmingCharacters(in: .whitespacesAndNewlines)), n > 0 {
                limit = min(limit, n)
            }
        }
        return limit / 4 * 3
    }
}
