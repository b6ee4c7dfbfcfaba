import CSQLite
import Glibc
import DynamicLibraries

/// SQLite's functions, looked up in `libsqlite3.so.0` when the history is first opened, not linked: a process
/// that never opens a history — every `clipbridge paste` and `copy` — does not load the library (loading it cost
/// a 16-byte paste about 1 ms, a fifth of its start-up: `farm-bench` with `LD_PRELOAD` of it, 1.20×). The header
/// still gives the types and constants; `Package.swift` links no SQLite.
struct SQLiteLibrary: @unchecked Sendable {
    typealias Handle = OpaquePointer
    typealias Statement = OpaquePointer

    // Each type is the C declaration's (CSQLite/shim.h): a call that does not match it does not compile.
    let open_v2: clipbridge_sqlite3_open_v2_t
    let close_v2: clipbridge_sqlite3_close_v2_t
    let errmsg: clipbridge_sqlite3_errmsg_t
    let errstr: clipbridge_sqlite3_errstr_t
    let busy_timeout: clipbridge_sqlite3_busy_timeout_t
    let exec: clipbridge_sqlite3_exec_t
    let free: clipbridge_sqlite3_free_t
    let prepare_v2: clipbridge_sqlite3_prepare_v2_t
    let finalize: clipbridge_sqlite3_finalize_t
    let step: clipbridge_sqlite3_step_t
    let bind_null: clipbridge_sqlite3_bind_null_t
    let bind_int64: clipbridge_sqlite3_bind_int64_t
    let bind_double: clipbridge_sqlite3_bind_double_t
    let bind_text: clipbridge_sqlite3_bind_text_t
    let bind_text64: clipbridge_sqlite3_bind_text64_t
    let bind_blob64: clipbridge_sqlite3_bind_blob64_t
    let last_insert_rowid: clipbridge_sqlite3_last_insert_rowid_t
    let changes: clipbridge_sqlite3_changes_t
    let column_type: clipbridge_sqlite3_column_type_t
    let column_int64: clipbridge_sqlite3_column_int64_t
    let column_text: clipbridge_sqlite3_column_text_t
    let column_bytes: clipbridge_sqlite3_column_bytes_t
    let column_blob: clipbridge_sqlite3_column_blob_t

    /// The library, loaded once per process; the failure names the library and the missing symbol.
    static let loaded: Result<SQLiteLibrary, SQLiteError> = {
        do throws(SQLiteError) {
            return .success(try SQLiteLibrary())
        } catch {
            return .failure(error)
        }
    }()

    /// The library, or the error that it could not be loaded.
    static func api() throws(SQLiteError) -> SQLiteLibrary {
        try loaded.get()
    }

    private init() throws(SQLiteError) {
        do throws(SharedLibrary.LoadError) {
            // Debian's libsqlite3-0 (libsqlite3-dev installs the headers this module is built against).
            try self.init(SharedLibrary("libsqlite3.so.0", provider: "libsqlite3-0"))
        } catch {
            throw SQLiteError(code: SQLITE_CANTOPEN, message: error.description)
        }
    }

    private init(_ library: SharedLibrary) throws(SharedLibrary.LoadError) {
        open_v2 = try library.function(clipbridge_sqlite3_open_v2_name)
        close_v2 = try library.function(clipbridge_sqlite3_close_v2_name)
        errmsg = try library.function(clipbridge_sqlite3_errmsg_name)
        errstr = try library.function(clipbridge_sqlite3_errstr_name)
        busy_timeout = try library.function(clipbridge_sqlite3_busy_timeout_name)
        exec = try library.function(clipbridge_sqlite3_exec_name)
        free = try library.function(clipbridge_sqlite3_free_name)
        prepare_v2 = try library.function(clipbridge_sqlite3_prepare_v2_name)
        finalize = try library.function(clipbridge_sqlite3_finalize_name)
        step = try library.function(clipbridge_sqlite3_step_name)
        bind_null = try library.function(clipbridge_sqlite3_bind_null_name)
        bind_int64 = try library.function(clipbridge_sqlite3_bind_int64_name)
        bind_double = try library.function(clipbridge_sqlite3_bind_double_name)
        bind_text = try library.function(clipbridge_sqlite3_bind_text_name)
        bind_text64 = try library.function(clipbridge_sqlite3_bind_text64_name)
        bind_blob64 = try library.function(clipbridge_sqlite3_bind_blob64_name)
        last_insert_rowid = try library.function(clipbridge_sqlite3_last_insert_rowid_name)
        changes = try library.function(clipbridge_sqlite3_changes_name)
        column_type = try library.function(clipbridge_sqlite3_column_type_name)
        column_int64 = try library.function(clipbridge_sqlite3_column_int64_name)
        column_text = try library.function(clipbridge_sqlite3_column_text_name)
        column_bytes = try library.function(clipbridge_sqlite3_column_bytes_name)
        column_blob = try library.function(clipbridge_sqlite3_column_blob_name)
    }
}
