// timespec reaches Swift through the first C module that includes <time.h>: libmicrohttpd's
// (with MemberImportVisibility its fields count as that module's members).
import CMicroHTTPD
import Glibc

/// The monotonic clock in nanoseconds: for timing requests and the engine.
func monotonicNanos() -> UInt64 {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
}

/// The monotonic clock at the kernel tick's resolution (a few ms), read without touching
/// the clock source: enough for idle times, and cheap enough for every request.
func coarseMonotonicNanos() -> UInt64 {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC_COARSE, &ts)
    return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
}
