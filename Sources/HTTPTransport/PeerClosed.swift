#if canImport(Glibc)
    import Glibc
#endif
import CheckedNumbers

/// Whether the peer of `socket` has closed it (an end of stream waits to be read), without
/// reading anything; false for -1. Plain connections only: over TLS a close comes as a
/// record first, which this takes for data.
public func peerClosed(_ socket: Int32) -> Bool {
    guard socket >= 0 else { return false }
    var byte: UInt8 = 0
    return recv(socket, &byte, 1, Int32(MSG_PEEK) | Int32(MSG_DONTWAIT)) == 0
}
