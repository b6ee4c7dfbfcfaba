// SQLite 3 (Debian's libsqlite3-dev, FTS5 built in): the history's database, through its C API.
#include <sqlite3.h>

// SQLITE_TRANSIENT is a cast of -1 to a function pointer, which Swift cannot import: the same value, typed.
static inline sqlite3_destructor_type clipbridge_sqlite_transient(void) { return SQLITE_TRANSIENT; }

// The functions the history looks up at run time (ClipHistory's SQLiteLibrary.swift): each one's type taken from its
// declaration above, and its name from the same token, so a wrong signature or name in the Swift table does not
// compile (a table typed by hand disagreed with nothing).
#define CLIPBRIDGE_LOOKED_UP(function) \
    typedef __typeof__(function) *clipbridge_##function##_t; \
    static const char *const clipbridge_##function##_name = #function;
CLIPBRIDGE_LOOKED_UP(sqlite3_open_v2)
CLIPBRIDGE_LOOKED_UP(sqlite3_close_v2)
CLIPBRIDGE_LOOKED_UP(sqlite3_errmsg)
CLIPBRIDGE_LOOKED_UP(sqlite3_errstr)
CLIPBRIDGE_LOOKED_UP(sqlite3_busy_timeout)
CLIPBRIDGE_LOOKED_UP(sqlite3_exec)
CLIPBRIDGE_LOOKED_UP(sqlite3_free)
CLIPBRIDGE_LOOKED_UP(sqlite3_prepare_v2)
CLIPBRIDGE_LOOKED_UP(sqlite3_finalize)
CLIPBRIDGE_LOOKED_UP(sqlite3_step)
CLIPBRIDGE_LOOKED_UP(sqlite3_bind_null)
CLIPBRIDGE_LOOKED_UP(sqlite3_bind_int64)
CLIPBRIDGE_LOOKED_UP(sqlite3_bind_double)
CLIPBRIDGE_LOOKED_UP(sqlite3_bind_text)
CLIPBRIDGE_LOOKED_UP(sqlite3_bind_text64)
CLIPBRIDGE_LOOKED_UP(sqlite3_bind_blob64)
CLIPBRIDGE_LOOKED_UP(sqlite3_last_insert_rowid)
CLIPBRIDGE_LOOKED_UP(sqlite3_changes)
CLIPBRIDGE_LOOKED_UP(sqlite3_column_type)
CLIPBRIDGE_LOOKED_UP(sqlite3_column_int64)
CLIPBRIDGE_LOOKED_UP(sqlite3_column_text)
CLIPBRIDGE_LOOKED_UP(sqlite3_column_bytes)
CLIPBRIDGE_LOOKED_UP(sqlite3_column_blob)
