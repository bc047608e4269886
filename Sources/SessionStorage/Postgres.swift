import CPostgres
import CheckedNumbers
import Glibc

/// One libpq connection: statements with text parameters (bytea as hex) and text results.
/// Not thread-safe; each user holds its own. A connection that broke is re-established
/// before the next statement, so a database that comes back is used again.
final class PostgresConnection {
    enum Value { case text(String), int(Int), bytes([UInt8]), null }

    struct Failure: Error {
        var message: String
        /// The connection broke during the statement (or was broken before it): whatever the
        /// server did with the statement, its answer never came.
        var connectionLost = false
    }

    private var connection: OpaquePointer?
    private let conninfo: String
    /// Statements run on every (re)connection: session settings that a reset would lose.
    private let setup: [String]

    /// Connects at once: a database that cannot be reached at start is an error.
    init(_ conninfo: String, setup: [String] = []) throws(Failure) {
        self.conninfo = conninfo
        self.setup = setup
        try ensureConnected()
    }

    deinit { PQfinish(connection) }

    private static func message(_ c: OpaquePointer?) -> String {
        guard let c, let m = PQerrorMessage(c) else { return "out of memory" }
        return String(cString: m).trimmingTrailingNewlines()
    }

    private func ensureConnected() throws(Failure) {
        if let connection, PQstatus(connection) == CONNECTION_OK { return }
        if connection == nil { connection = PQconnectdb(conninfo) } else { PQreset(connection) }
        guard PQstatus(connection) == CONNECTION_OK else { throw Failure(message: Self.message(connection)) }
        // Notices (an IF NOT EXISTS that found the table) would go to stderr.
        PQsetNoticeProcessor(connection, { _, _ in }, nil)
        for statement in setup { try run(statement) }
    }

    /// The SQLSTATE of the last failure (`23505` a unique violation, `55P03` a lock timeout).
    private(set) var lastErrorCode = ""

    /// Runs `sql` with `$1…` parameters; each result row is handed to `row` as its columns' text.
    /// `reconnecting` false: a broken connection fails the statement instead of being opened
    /// again (a transaction's COMMIT must not land on a new connection, where it commits nothing
    /// and succeeds).
    func run(_ sql: String, _ params: [Value] = [], reconnecting: Bool = true, row: (([String?]) -> Void)? = nil) throws(Failure) {
        if !reconnecting, PQstatus(connection) != CONNECTION_OK {
            throw Failure(message: Self.message(connection), connectionLost: true)
        }
        try ensureConnected()
        let texts: [String?] = params.map {
            switch $0 {
            case .text(let s): return s
            case .int(let n): return String(n)
            case .bytes(let b): return "\\x" + Self.hex(b)
            case .null: return nil
            }
        }
        var cStrings = texts.map { $0.map { strdup($0) } ?? nil }
        defer { for p in cStrings { free(p) } }
        let result: OpaquePointer? = cStrings.withUnsafeMutableBufferPointer { buffer in
            buffer.withMemoryRebound(to: UnsafePointer<CChar>?.self) { values in
                PQexecParams(connection, sql, Int32(texts.count), nil, values.baseAddress, nil, nil, 0)
            }
        }
        defer { PQclear(result) }
        let status = PQresultStatus(result)
        guard status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK else {
            let m = result.flatMap { PQresultErrorMessage($0) }.map { String(cString: $0) } ?? ""
            lastErrorCode = result.flatMap { PQresultErrorField($0, Int32(UInt8(ascii: "C"))) }.map { String(cString: $0) } ?? ""
            throw Failure(
                message: (m.isEmpty ? Self.message(connection) : m).trimmingTrailingNewlines(), connectionLost: PQstatus(connection) != CONNECTION_OK)
        }
        guard let row, status == PGRES_TUPLES_OK else { return }
        let columns = PQnfields(result)
        for r in 0..<PQntuples(result) {
            row((0..<columns).map { c in PQgetisnull(result, r, c) == 1 ? nil : String(cString: PQgetvalue(result, r, c)) })
        }
    }

    /// A PostgreSQL array literal of `values` (ids and integers: nothing to quote).
    static func array<S: Sequence>(_ values: S) -> String where S.Element: CustomStringConvertible {
        "{" + values.map(\.description).joined(separator: ",") + "}"
    }

    private static let digits = Array("0123456789abcdef".utf8)

    static func hex(_ bytes: [UInt8]) -> String {
        var out = [UInt8](repeating: 0, count: bytes.count * 2)
        for (i, b) in bytes.enumerated() { out[2 * i] = digits[Int(b >> 4)]; out[2 * i + 1] = digits[Int(b & 15)] }
        return String(decoding: out, as: UTF8.self)
    }

    /// A bytea column's text (`\x` and hex digits) as bytes.
    static func bytes(_ text: String) -> [UInt8]? {
        let u = Array(text.utf8)
        guard u.count >= 2, u[0] == UInt8(ascii: "\\"), u[1] == UInt8(ascii: "x"), u.count % 2 == 0 else { return nil }
        func nibble(_ c: UInt8) -> UInt8? {
            switch c {
            case 48...57: return c - 48
            case 97...102: return c - 87
            case 65...70: return c - 55
            default: return nil
            }
        }
        var out = [UInt8]()
        out.reserveCapacity((u.count - 2) / 2)
        var i = 2
        while i < u.count {
            guard let hi = nibble(u[i]), let lo = nibble(u[i + 1]) else { return nil }
            out.append(hi << 4 | lo)
            i += 2
        }
        return out
    }
}

private extension String {
    func trimmingTrailingNewlines() -> String {
        var s = Substring(self)
        while s.last == "\n" { s = s.dropLast() }
        return String(s)
    }
}
