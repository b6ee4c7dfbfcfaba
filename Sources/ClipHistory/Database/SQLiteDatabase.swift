import CSQLite
import FoundationEssentials
import Glibc

/// One connection to an SQLite database file: the history's only door to SQLite's C API, as `Loop/` is the
/// selection engine's to Xlib. Everything above it works with Swift values (``SQLiteValue``, ``SQLiteRow``).
///
/// SQLite's functions come from ``SQLiteLibrary``, loaded on first use. SQLite's C API directly rather than GRDB.swift: GRDB 7.10 imports Foundation (58 of its files), which on Linux
/// links FoundationInternationalization and ICU's data into the one `clipbridge` binary — what Yams did to it
/// (41 → 94 MB, and a slower 16-byte paste: Package.swift, CLibYAML) and what README's "The engine" section says
/// the libraries avoid. The history needs a dozen statements; this door is their whole surface.
///
/// Not thread-safe: its owner serializes every call (``HistoryStore`` holds it behind a lock). Every wait has a
/// deadline: a database locked by another process is retried for ``busyTimeout`` and then reported.
final class SQLiteDatabase {
    /// How long a statement waits for another connection's lock before it fails with `SQLITE_BUSY`.
    static let busyTimeout: Duration = .seconds(5)

    private let handle: OpaquePointer
    private let api: SQLiteLibrary
    /// The file, for messages.
    let path: String

    /// Opens (and with `create`, creates) the database at `path`. The file is created with mode 0600, and SQLite
    /// gives its write-ahead log the same.
    init(path: String, readOnly: Bool = false, create: Bool = true) throws(SQLiteError) {
        self.path = path
        let api = try SQLiteLibrary.api()
        self.api = api
        var flags = SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE
        flags |= readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE
        if create && !readOnly { flags |= SQLITE_OPEN_CREATE }
        if create && !readOnly {
            // Made 0600 before SQLite opens it: SQLite has no mode argument, and it gives the write-ahead log and its
            // index the database file's mode. (Tightening the umask around the call instead changed it for every
            // thread of the daemon meanwhile.)
            let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
            if descriptor >= 0 { close(descriptor) }
        }
        var opened: OpaquePointer?
        let code = api.open_v2(path, &opened, flags, nil)
        guard code == SQLITE_OK, let opened else {
            let message = String(cString: (opened.flatMap(api.errmsg) ?? api.errstr(code))!)
            _ = api.close_v2(opened)
            throw SQLiteError(code: code, message: "cannot open \(path): \(message)")
        }
        handle = opened
        _ = api.busy_timeout(handle, Int32(Self.busyTimeout.components.seconds * 1000))
    }

    deinit {
        _ = api.close_v2(handle)
    }

    /// Runs one or more statements that take no values and return no rows (schema, pragmas).
    func execute(_ sql: String) throws(SQLiteError) {
        var message: UnsafeMutablePointer<CChar>?
        let code = api.exec(handle, sql, nil, nil, &message)
        if code != SQLITE_OK {
            let text = message.map { String(cString: $0) } ?? api.errstr(code).map { String(cString: $0) } ?? "error \(code)"
            api.free(message)
            throw SQLiteError(code: code, message: text, statement: sql)
        }
    }

    /// Runs one statement with `values` bound to its parameters, in order; rows it returns are ignored.
    func run(_ sql: String, _ values: [SQLiteValue] = []) throws(SQLiteError) {
        let statement = try prepare(sql, values)
        defer { _ = api.finalize(statement) }
        while try step(statement, sql) {}
    }

    /// Runs one query with `values` bound, calling `body` with each row.
    func forEachRow(_ sql: String, _ values: [SQLiteValue] = [], _ body: (SQLiteRow) throws -> Void) throws {
        let statement = try prepare(sql, values)
        defer { _ = api.finalize(statement) }
        while try step(statement, sql) { try body(SQLiteRow(statement: statement, api: api)) }
    }

    /// The rows of a query, each made into a value by `make`.
    func rows<T>(_ sql: String, _ values: [SQLiteValue] = [], _ make: (SQLiteRow) throws -> T) throws -> [T] {
        var result: [T] = []
        try forEachRow(sql, values) { result.append(try make($0)) }
        return result
    }

    /// The first column of the first row of a query, as an integer (0 when there is no row or it is NULL).
    func integer(_ sql: String, _ values: [SQLiteValue] = []) throws -> Int64 {
        var value: Int64 = 0
        var first = true
        try forEachRow(sql, values) { row in
            if first { value = row.integer(0) }
            first = false
        }
        return value
    }

    /// Runs `body` in an immediate transaction (the write lock taken at once, so two writers never deadlock
    /// upgrading): committed when it returns, rolled back when it throws.
    func transaction<T>(_ body: () throws -> T) throws -> T {
        try execute("BEGIN IMMEDIATE")
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }

    /// The rowid of the last row inserted on this connection.
    var lastInsertedRowID: Int64 { api.last_insert_rowid(handle) }

    /// Rows changed by the last statement.
    var changes: Int { Int(api.changes(handle)) }

    // MARK: - Statements

    private func prepare(_ sql: String, _ values: [SQLiteValue]) throws(SQLiteError) -> OpaquePointer {
        var statement: OpaquePointer?
        let code = api.prepare_v2(handle, sql, -1, &statement, nil)
        guard code == SQLITE_OK, let statement else { throw error(code, sql) }
        for (index, value) in values.enumerated() {
            let position = Int32(index + 1)
            let bound: Int32
            switch value {
            case .null:
                bound = api.bind_null(statement, position)
            case .integer(let number):
                bound = api.bind_int64(statement, position, number)
            case .real(let number):
                bound = api.bind_double(statement, position, number)
            case .text(let text):
                // With its length: text holding a NUL is bound whole (a length of -1 would cut it there).
                var text = text
                bound = text.withUTF8 { utf8 in
                    utf8.withMemoryRebound(to: CChar.self) { characters in
                        guard let base = characters.baseAddress, !characters.isEmpty else {
                            return api.bind_text(statement, position, "", 0, clipbridge_sqlite_transient())
                        }
                        return api.bind_text64(
                            statement, position, base, UInt64(characters.count), clipbridge_sqlite_transient(),
                            UInt8(SQLITE_UTF8))
                    }
                }
            case .blob(let data):
                bound = data.withUnsafeBytes { raw in
                    // A zero-length blob still binds a blob, not NULL (a pointer of nil would).
                    api.bind_blob64(
                        statement, position, raw.baseAddress ?? UnsafeRawPointer(bitPattern: 1), UInt64(raw.count),
                        clipbridge_sqlite_transient())
                }
            }
            guard bound == SQLITE_OK else {
                _ = api.finalize(statement)
                throw error(bound, sql)
            }
        }
        return statement
    }

    /// One step: true when it produced a row, false when it is done.
    private func step(_ statement: OpaquePointer, _ sql: String) throws(SQLiteError) -> Bool {
        switch api.step(statement) {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        case let code: throw error(code, sql)
        }
    }

    private func error(_ code: Int32, _ sql: String) -> SQLiteError {
        SQLiteError(code: code, message: api.errmsg(handle).map { String(cString: $0) } ?? "error \(code)", statement: sql)
    }
}

/// A value bound to a statement's parameter.
enum SQLiteValue {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob(Data)

    static func integer(_ value: Int) -> SQLiteValue { .integer(Int64(value)) }
    static func optional(_ text: String?) -> SQLiteValue { text.map { .text($0) } ?? .null }
}

/// The current row of a query, read by column index (valid only inside the row's callback).
struct SQLiteRow {
    fileprivate let statement: OpaquePointer
    fileprivate let api: SQLiteLibrary

    func isNull(_ column: Int32) -> Bool { api.column_type(statement, column) == SQLITE_NULL }
    func integer(_ column: Int32) -> Int64 { api.column_int64(statement, column) }
    func int(_ column: Int32) -> Int { Int(api.column_int64(statement, column)) }
    func bool(_ column: Int32) -> Bool { api.column_int64(statement, column) != 0 }

    func text(_ column: Int32) -> String? {
        guard let bytes = api.column_text(statement, column) else { return nil }
        let count = Int(api.column_bytes(statement, column))
        return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    }

    func blob(_ column: Int32) -> Data? {
        guard !isNull(column) else { return nil }
        let count = Int(api.column_bytes(statement, column))
        guard count > 0, let bytes = api.column_blob(statement, column) else { return Data() }
        return Data(bytes: bytes, count: count)
    }
}

/// An error SQLite reported, with its message and the statement that failed.
public struct SQLiteError: Error, CustomStringConvertible, Sendable {
    /// SQLite's extended result code.
    public var code: Int32
    /// SQLite's message.
    public var message: String
    /// The statement, when one failed.
    public var statement: String?

    /// The disk (or the quota) is full.
    public var isDiskFull: Bool { code & 0xff == SQLITE_FULL }

    public var description: String {
        if let statement { return "SQLite: \(message) (in \(statement.prefix(80)))" }
        return "SQLite: \(message)"
    }
}
