// SQLite 3 (Debian's libsqlite3-dev, FTS5 built in): the history's database, through its C API.
#include <sqlite3.h>

// SQLITE_TRANSIENT is a cast of -1 to a function pointer, which Swift cannot import: the same value, typed.
static inline sqlite3_destructor_type clipbridge_sqlite_transient(void) { return SQLITE_TRANSIENT; }
