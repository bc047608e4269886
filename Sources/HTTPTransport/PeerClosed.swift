#if canImport(Glibc)
    import Glibc
#endif
import CheckedNumbers

/// Linux's POLLRDHUP (the peer shut its side), which Glibc declares only under _GNU_SOURCE.
private let pollReadHangUp: Int16 = 0x2000

/// Whether the peer of `socket` has closed it (its FIN came, whether or not data or a TLS
/// close_notify record waits before it: a one-byte peek took that record for data), without
/// reading anything; false for -1.
public func peerClosed(_ socket: Int32) -> Bool {
    guard socket >= 0 else { return false }
    var p = pollfd(fd: socket, events: pollReadHangUp, revents: 0)
    return poll(&p, 1, 0) == 1 && p.revents & (pollReadHangUp | Int16(POLLHUP) | Int16(POLLERR)) != 0
}
