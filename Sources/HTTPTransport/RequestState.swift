import CMicroHTTPD
import Synchronization
#if canImport(Glibc)
    import Glibc
#endif

/// Per-request state between libmicrohttpd's calls for one request. Owned by its
/// connection's thread; an offloaded request hands it to one worker, which only fills
/// `offloaded` before resuming the connection. While the request is handled on the
/// connection's thread it is also where the request's headers and query are read.
final class RequestState: RequestValues, @unchecked Sendable {
    let connection: OpaquePointer
    var body: [UInt8] = []
    /// The body's length as the request declared it (0: not declared), within the limit.
    var declaredLength = 0
    var tooLarge = false
    /// The body limit of this request's path.
    var maxBody = 0
    var answered = false
    /// Answered 101: no longer counted in flight.
    var upgraded = false
    /// The connection's request clock, looked up once per request (a libmicrohttpd call).
    var clock: ConnectionGuard.Clock?
    /// The client a trusted proxy named, counted in flight until the request completes.
    var forwarded: ClientAddress?
    let offloaded = Mutex<Response?>(nil)

    init(connection: OpaquePointer) { self.connection = connection }

    func header(_ name: String) -> String? { value(.HEADER_KIND, name) }
    func query(_ name: String) -> String? { value(.GET_ARGUMENT_KIND, name) }

    func header(_ name: String, is expected: StaticString) -> Bool {
        // Compared in place: a header value of 16 bytes or more would be a heap String.
        guard let v = name.withCString({ MHD_lookup_connection_value(connection, .HEADER_KIND, $0) }) else { return false }
        return strcmp(v, UnsafeRawPointer(expected.utf8Start).assumingMemoryBound(to: CChar.self)) == 0
    }

    // `withCString` borrows the string's bytes; passing a String where C wants a pointer would
    // copy it into a fresh array on every call.
    private func value(_ kind: MHD_ValueKind, _ name: String) -> String? {
        name.withCString { MHD_lookup_connection_value(connection, kind, $0) }.map { String(cString: $0) }
    }
}
