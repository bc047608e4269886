// Public imports: the clocks are inlinable (below), so what their bodies use is part of the
// module's interface. timespec reaches Swift through the first C module that includes
// <time.h>: libmicrohttpd's (with MemberImportVisibility its fields count as that module's).
public import CMicroHTTPD
import CheckedNumbers
public import Glibc

// Inlinable: a call across the module boundary cost 180 instructions a request (callgrind).

/// The monotonic clock in nanoseconds: for timing requests and the engine.
@inlinable public func monotonicNanos() -> UInt64 {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
}

/// The monotonic clock at the kernel tick's resolution (a few ms), read without touching
/// the clock source: enough for idle times, and cheap enough for every request.
@inlinable public func coarseMonotonicNanos() -> UInt64 {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC_COARSE, &ts)
    return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
}
