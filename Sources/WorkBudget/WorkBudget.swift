#if canImport(Glibc)
    // Public: the inlinable `run`s set the thread's budget with pthread's calls.
    public import Glibc
#endif
import CheckedNumbers
import Synchronization

/// What one request's work may take: a deadline, and a cancel (a drain, a client gone). The
/// loops where work can explode (simplex steps, conflicts broken again, text passes and
/// lines, sizes, pictures' boxes, an import's roots) ask `WorkBudget.exhausted()` and stop
/// early; the request is then answered 503 and what it built is thrown away. The budget is
/// the thread's (set around a request's handling), so the engines and the text need no
/// parameter for it; a thread without one is never stopped.
public final class WorkBudget: Sendable {
    public let seconds: Double
    /// The deadline's distance from its start, and the deadline (re-armed: `run(seconds:)`).
    private let span: UInt64
    private let deadline: Atomic<UInt64>
    private let cancelled = Atomic<Bool>(false)
    private let spent = Atomic<Bool>(false)
    /// Whether the one who asked is gone (a closed connection): asked at most every
    /// `probeNanos`, since it is a system call.
    private let gone: (@Sendable () -> Bool)?
    private let nextProbe = Atomic<UInt64>(0)
    static let probeNanos: UInt64 = 50_000_000

    public init(seconds: Double, gone: (@Sendable () -> Bool)? = nil) {
        self.seconds = seconds
        self.gone = gone
        span = seconds.isFinite && seconds > 0 ? UInt64(saturating: min(seconds, 1e9) * 1e9) : .max
        deadline = Atomic(span == .max ? .max : Self.now() &+ span)
    }

    /// The same budget again, from now.
    @usableFromInline func rearm() {
        deadline.store(span == .max ? .max : Self.now() &+ span, ordering: .relaxed)
        cancelled.store(false, ordering: .relaxed)
        spent.store(false, ordering: .relaxed)
    }

    /// Stops the work at its next check (a drain past its timeout).
    public func cancel() { cancelled.store(true, ordering: .relaxed) }

    public var wasCancelled: Bool { cancelled.load(ordering: .relaxed) }

    /// Whether a check found it spent, and so some loop stopped early: what the request then
    /// made is not an answer. (Time alone running out, with nothing asking, stops nothing.)
    public var stoppedWork: Bool { spent.load(ordering: .relaxed) }

    /// Whether the work should stop: cancelled, or past the deadline (a clock read: ~20 ns).
    public var isExhausted: Bool {
        if spent.load(ordering: .relaxed) { return true }
        let now = Self.now()
        var over = cancelled.load(ordering: .relaxed) || now > deadline.load(ordering: .relaxed)
        if !over, let gone, now >= nextProbe.load(ordering: .relaxed) {
            nextProbe.store(now &+ Self.probeNanos, ordering: .relaxed)
            if gone() {
                cancelled.store(true, ordering: .relaxed)
                over = true
            }
        }
        guard over else { return false }
        spent.store(true, ordering: .relaxed)
        return true
    }

    static func now() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return UInt64(ts.tv_sec) &* 1_000_000_000 &+ UInt64(ts.tv_nsec)
    }

    // MARK: The thread's budget

    /// The budget of the work on this thread, if any.
    public static var current: WorkBudget? {
        guard let p = pthread_getspecific(key) else { return nil }
        return Unmanaged<WorkBudget>.fromOpaque(p).takeUnretainedValue()
    }

    /// Runs `body` with `budget` as the thread's (nil: none, for work that must not stop half
    /// way, such as a change to a kept session), then puts the one before back. Inlinable,
    /// as `run(seconds:)`: specialized where it is called (a generic call across modules goes
    /// through metadata and witness tables).
    @inlinable public static func run<T, E: Error>(_ budget: WorkBudget?, _ body: () throws(E) -> T) throws(E) -> T {
        let before = pthread_getspecific(key)
        let retained = budget.map { Unmanaged.passRetained($0) }
        pthread_setspecific(key, retained?.toOpaque())
        defer {
            pthread_setspecific(key, before)
            retained?.release()
        }
        return try body()
    }

    /// Runs `body` under a budget of `seconds` from now, handed to it: the thread's spare one
    /// armed again unless it is in use (a set-constant, the fast path, then makes none: its
    /// allocation and arithmetic were ~300 of a request's ~29,600 instructions). The budget
    /// is the thread's: read after the body, it is as the body left it until the thread's
    /// next `run(seconds:)`; no other thread may keep it.
    @inlinable public static func run<T, E: Error>(seconds: Double, _ body: (WorkBudget) throws(E) -> T) throws(E) -> T {
        let budget: WorkBudget
        if let p = pthread_getspecific(spareKey), case let spare = Unmanaged<WorkBudget>.fromOpaque(p).takeUnretainedValue(),
            spare.seconds == seconds, spare !== current
        {
            spare.rearm()
            budget = spare
        } else {
            budget = WorkBudget(seconds: seconds)
            if let old = pthread_getspecific(spareKey) { Unmanaged<WorkBudget>.fromOpaque(old).release() }
            pthread_setspecific(spareKey, Unmanaged.passRetained(budget).toOpaque())
        }
        return try run(budget) { () throws(E) -> T in try body(budget) }
    }

    /// Whether the thread's budget is spent: what a loop asks before another step.
    @inline(__always) public static func exhausted() -> Bool {
        guard let p = pthread_getspecific(key) else { return false }
        return Unmanaged<WorkBudget>.fromOpaque(p).takeUnretainedValue().isExhausted
    }

    @usableFromInline static let key: pthread_key_t = {
        var k = pthread_key_t()
        pthread_key_create(&k, nil)
        return k
    }()

    /// The thread's spare budget, released when the thread ends.
    @usableFromInline static let spareKey: pthread_key_t = {
        var k = pthread_key_t()
        pthread_key_create(&k) { p in if let p { Unmanaged<WorkBudget>.fromOpaque(p).release() } }
        return k
    }()
}
