/// Where a request's headers and query arguments are read: the live connection while the
/// request is handled on its thread, or copies when it was handed to a worker.
public protocol RequestValues: AnyObject {
    func header(_ name: String) -> String?
    func query(_ name: String) -> String?
    /// Whether header `name` is exactly `value`, without making a String of it.
    func header(_ name: String, is value: StaticString) -> Bool
}

extension RequestValues {
    public func header(_ name: String, is value: StaticString) -> Bool {
        header(name).map { $0.utf8.elementsEqual(UnsafeBufferPointer(start: value.utf8Start, count: value.utf8CodeUnitCount)) } ?? false
    }
}

/// Headers and query arguments copied out of a connection (header names lowercased), or
/// given by a caller answering requests without a network (benchmarks).
public final class CopiedRequestValues: RequestValues, @unchecked Sendable {
    let headers: [String: String]
    let arguments: [String: String]
    public init(headers: [String: String], arguments: [String: String]) { self.headers = headers; self.arguments = arguments }
    public func header(_ name: String) -> String? { headers[name.lowercased()] }
    public func query(_ name: String) -> String? { arguments[name] }
}

/// One HTTP request as the routes see it. Header and query lookups go to `values`, which
/// for a live connection are valid only while the request is being handled.
public struct Request {
    public let method: String
    public let path: String
    public var body: [UInt8]
    /// The matched route's `{name}` captures: names and byte ranges of `path`.
    public var captures = PathCaptures()
    /// The connection came from a `--trusted-proxies` address (it names its client in a header).
    public var viaTrustedProxy = false
    /// The connection's socket (-1: none, a request made without a network).
    public var socket: Int32 = -1
    /// The connection's place in the per-owner count (nil: a request made without a network).
    var slot: ConnectionSlot? = nil

    /// Whether the client has closed its connection: its answer can go nowhere.
    public var clientClosed: Bool { peerClosed(socket) }
    let values: any RequestValues

    public init(method: String, path: String, body: [UInt8], values: any RequestValues) {
        self.method = method
        self.path = path
        self.body = body
        self.values = values
    }

    /// Counts this request's connection as `owner`'s (a tenant's): false when the owner
    /// already holds its share of the server's connections (`maxConnectionsPerOwner`).
    public func holdConnection(for owner: String) -> Bool { slot.map { $0.guard.claim($0.clock, for: owner) } ?? true }

    public func header(_ name: String) -> String? { values.header(name) }
    public func query(_ name: String) -> String? { values.query(name) }
    /// Whether header `name` is exactly `value`, without making a String of it.
    public func header(_ name: String, is value: StaticString) -> Bool { values.header(name, is: value) }
    /// A path capture, made a String only when asked for.
    @inlinable public func parameter(_ name: String) -> String {
        parameterUTF8(name) { String(decoding: $0, as: UTF8.self) } ?? ""
    }

    /// A path capture's bytes, read in place.
    /// Inlinable, so it is specialized where it is used (unspecialized across the module
    /// boundary it cost ~250 instructions a request: generic metadata lookups).
    @inlinable public func parameterUTF8<T>(_ name: String, _ body: (UnsafeBufferPointer<UInt8>) -> T) -> T? {
        guard let r = captures.range(of: name) else { return nil }
        if let found = path.utf8.withContiguousStorageIfAvailable({ body(UnsafeBufferPointer(rebasing: $0[r])) }) { return found }
        return Array(path.utf8)[r].withUnsafeBufferPointer(body)  // a bridged string: never from libmicrohttpd
    }

    /// Whether the client takes gzip (`Accept-Encoding` with gzip at a non-zero q).
    public var acceptsGzip: Bool {
        guard let raw = header("Accept-Encoding"), raw != "identity" else { return false }
        let ae = raw.lowercased()
        for part in ae.split(separator: ",") {
            let fields = part.split(separator: ";").map { $0.trimming(" ") }
            guard fields.first == "gzip" || fields.first == "*" else { continue }
            if let q = fields.dropFirst().first(where: { $0.hasPrefix("q=") }), Double(q.dropFirst(2)) == 0 { return false }
            return true
        }
        return false
    }
}

/// A request's connection, as the per-owner count knows it.
struct ConnectionSlot {
    let clock: ConnectionGuard.Clock
    let `guard`: ConnectionGuard
}
