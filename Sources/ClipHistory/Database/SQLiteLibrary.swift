import CSQLite
import Glibc
import X11Selection

/// SQLite's functions, looked up in `libsqlite3.so.0` when the history is first opened, not linked: a process
/// that never opens a history — every `clipbridge paste` and `copy` — does not load the library (loading it cost
/// a 16-byte paste about 1 ms, a fifth of its start-up: `farm-bench` with `LD_PRELOAD` of it, 1.20×). The header
/// still gives the types and constants; `Package.swift` links no SQLite.
struct SQLiteLibrary: @unchecked Sendable {
    typealias Handle = OpaquePointer
    typealias Statement = OpaquePointer

    let open_v2: @convention(c) (UnsafePointer<CChar>?, UnsafeMutablePointer<Handle?>?, Int32, UnsafePointer<CChar>?) -> Int32
    let close_v2: @convention(c) (Handle?) -> Int32
    let errmsg: @convention(c) (Handle?) -> UnsafePointer<CChar>?
    let errstr: @convention(c) (Int32) -> UnsafePointer<CChar>?
    let busy_timeout: @convention(c) (Handle?, Int32) -> Int32
    let exec: @convention(c) (
        Handle?, UnsafePointer<CChar>?, (@convention(c) (UnsafeMutableRawPointer?, Int32,
            UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?, UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32)?,
        UnsafeMutableRawPointer?, UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32
    let free: @convention(c) (UnsafeMutableRawPointer?) -> Void
    let prepare_v2: @convention(c) (
        Handle?, UnsafePointer<CChar>?, Int32, UnsafeMutablePointer<Statement?>?, UnsafeMutablePointer<UnsafePointer<CChar>?>?) -> Int32
    let finalize: @convention(c) (Statement?) -> Int32
    let step: @convention(c) (Statement?) -> Int32
    let bind_null: @convention(c) (Statement?, Int32) -> Int32
    let bind_int64: @convention(c) (Statement?, Int32, Int64) -> Int32
    let bind_double: @convention(c) (Statement?, Int32, Double) -> Int32
    let bind_text: @convention(c) (
        Statement?, Int32, UnsafePointer<CChar>?, Int32, (@convention(c) (UnsafeMutableRawPointer?) -> Void)?) -> Int32
    let bind_text64: @convention(c) (
        Statement?, Int32, UnsafePointer<CChar>?, UInt64, (@convention(c) (UnsafeMutableRawPointer?) -> Void)?, UInt8) -> Int32
    let bind_blob64: @convention(c) (
        Statement?, Int32, UnsafeRawPointer?, UInt64, (@convention(c) (UnsafeMutableRawPointer?) -> Void)?) -> Int32
    let last_insert_rowid: @convention(c) (Handle?) -> Int64
    let changes: @convention(c) (Handle?) -> Int32
    let column_type: @convention(c) (Statement?, Int32) -> Int32
    let column_int64: @convention(c) (Statement?, Int32) -> Int64
    let column_text: @convention(c) (Statement?, Int32) -> UnsafePointer<UInt8>?
    let column_bytes: @convention(c) (Statement?, Int32) -> Int32
    let column_blob: @convention(c) (Statement?, Int32) -> UnsafeRawPointer?

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
        func symbol<T>(_ name: String) throws(SharedLibrary.LoadError) -> T { try library.function(name) }
        open_v2 = try symbol("sqlite3_open_v2")
        close_v2 = try symbol("sqlite3_close_v2")
        errmsg = try symbol("sqlite3_errmsg")
        errstr = try symbol("sqlite3_errstr")
        busy_timeout = try symbol("sqlite3_busy_timeout")
        exec = try symbol("sqlite3_exec")
        free = try symbol("sqlite3_free")
        prepare_v2 = try symbol("sqlite3_prepare_v2")
        finalize = try symbol("sqlite3_finalize")
        step = try symbol("sqlite3_step")
        bind_null = try symbol("sqlite3_bind_null")
        bind_int64 = try symbol("sqlite3_bind_int64")
        bind_double = try symbol("sqlite3_bind_double")
        bind_text = try symbol("sqlite3_bind_text")
        bind_text64 = try symbol("sqlite3_bind_text64")
        bind_blob64 = try symbol("sqlite3_bind_blob64")
        last_insert_rowid = try symbol("sqlite3_last_insert_rowid")
        changes = try symbol("sqlite3_changes")
        column_type = try symbol("sqlite3_column_type")
        column_int64 = try symbol("sqlite3_column_int64")
        column_text = try symbol("sqlite3_column_text")
        column_bytes = try symbol("sqlite3_column_bytes")
        column_blob = try symbol("sqlite3_column_blob")
    }
}
