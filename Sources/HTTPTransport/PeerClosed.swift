import CEpoll

/// Whether the peer of `socket` has closed it (its FIN came, whether or not data or a TLS
/// close_notify record waits before it), without reading anything; false for -1.
public func peerClosed(_ socket: Int32) -> Bool {
    guard socket >= 0 else { return false }
    return layoutd_peer_hung_up(socket) != 0
}
