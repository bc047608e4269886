import CMicroHTTPD

/// Holds the WebSocket (or other) takeover until libmicrohttpd hands over the socket.
final class UpgradeBox {
    let run: @Sendable (UpgradedConnection) -> Void
    init(_ run: @escaping @Sendable (UpgradedConnection) -> Void) { self.run = run }
}

/// A socket taken over after `101 Switching Protocols`: non-blocking, and closed through
/// libmicrohttpd (never `close()`).
public final class UpgradedConnection: @unchecked Sendable {
    public let socket: Int32
    private var handle: OpaquePointer?
    public let initial: [UInt8]

    init(socket: Int32, handle: OpaquePointer, initial: [UInt8]) {
        self.socket = socket
        self.handle = handle
        self.initial = initial
    }

    public func close() {
        guard let h = handle else { return }
        handle = nil
        _ = layoutd_mhd_upgrade_close(h)
    }
}
