import CSQLite
import CheckedNumbers

/// A failed SQLite call: its result code and SQLite's message.
public struct SQLiteError: Error, CustomStringConvertible {
    public let code: Int32
    public let message: String
    public var description: String { "SQLite error \(code): \(message)" }
}

/// The one place where SQLite's C API meets Swift: a connection and its prepared
/// statements. Not thread-safe: each connection belongs to one thread at a time.
final class SQLiteConnection {
    private(set) var handle: OpaquePointer?

    init(path: String, readOnly: Bool = false) throws(SQLiteError) {
        // NOMUTEX: a connection is used by one thread at a time (the writer, or a reader under its lock).
        let flags = (readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE) | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_URI
        let rc = sqlite3_open_v2(path, &handle, flags, nil)
        guard rc == SQLITE_OK else {
            let error = SQLiteError(code: rc, message: handle.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open \(path)")
            sqlite3_close_v2(handle)
            handle = nil
            throw error
        }
        sqlite3_extended_result_codes(handle, 1)
        // A reader that meets the writer's checkpoint waits a little instead of failing.
        sqlite3_busy_timeout(handle, 5000)
    }

    deinit { sqlite3_close_v2(handle) }

    func execute(_ sql: String) throws(SQLiteError) {
        var message: UnsafeMutablePointer<CChar>?
        let rc = sqlite3_exec(handle, sql, nil, nil, &message)
        guard rc == SQLITE_OK else {
            let text = message.map { String(cString: $0) } ?? "error"
            sqlite3_free(message)
            throw SQLiteError(code: sqlite3_extended_errcode(handle), message: text)
        }
    }

    func prepare(_ sql: String) throws(SQLiteError) -> Statement {
        var stmt: OpaquePointer?
        let rc = sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &stmt, nil)
        guard rc == SQLITE_OK, let stmt else { throw error(rc) }
        return Statement(stmt, connection: self)
    }

    func error(_ rc: Int32) -> SQLiteError {
        SQLiteError(
            code: sqlite3_extended_errcode(handle) != 0 ? sqlite3_extended_errcode(handle) : rc,
            message: String(cString: sqlite3_errmsg(handle)))
    }

    var isReadOnly: Bool { sqlite3_db_readonly(handle, "main") == 1 }

    /// Rows changed by the last statement.
    var changes: Int { Int(sqlite3_changes(handle)) }
}

/// A prepared statement, reset after each use so it can be run again.
final class Statement {
    private let stmt: OpaquePointer
    private unowned let connection: SQLiteConnection

    fileprivate init(_ stmt: OpaquePointer, connection: SQLiteConnection) {
        self.stmt = stmt
        self.connection = connection
    }

    deinit { sqlite3_finalize(stmt) }

    enum Value {
        case int(Int)
        case text(String)
        case blob([UInt8])
    }

    /// Binds `values` to ?1, ?2… and runs the statement to its end; `row` sees each result row.
    func run(_ values: [Value], row: (Row) throws(SQLiteError) -> Void = { _ in }) throws(SQLiteError) {
        defer { sqlite3_reset(stmt); sqlite3_clear_bindings(stmt) }
        for (k, v) in values.enumerated() {
            let i = Int32(k + 1)
            let rc: Int32
            switch v {
            case .int(let n): rc = sqlite3_bind_int64(stmt, i, Int64(n))
            case .text(let s): rc = sqlite3_bind_text(stmt, i, s, -1, csqlite_transient())
            case .blob(let b):
                rc = b.withUnsafeBytes {
                    sqlite3_bind_blob(stmt, i, $0.baseAddress ?? UnsafeRawPointer(bitPattern: 1), Int32($0.count), csqlite_transient())
                }
            }
            guard rc == SQLITE_OK else { throw connection.error(rc) }
        }
        while true {
            let rc = sqlite3_step(stmt)
            if rc == SQLITE_DONE { return }
            guard rc == SQLITE_ROW else { throw connection.error(rc) }
            try row(Row(stmt: stmt))
        }
    }

    struct Row {
        let stmt: OpaquePointer
        func int(_ k: Int32) -> Int { Int(sqlite3_column_int64(stmt, k)) }
        func text(_ k: Int32) -> String { sqlite3_column_text(stmt, k).map { String(cString: $0) } ?? "" }
        func blob(_ k: Int32) -> [UInt8] {
            let n = Int(sqlite3_column_bytes(stmt, k))
            guard n > 0, let p = sqlite3_column_blob(stmt, k) else { return [] }
            return Array(UnsafeRawBufferPointer(start: p, count: n))
        }
    }
}
