/// The history database's tables, and the steps that bring an older file up to date (`PRAGMA user_version`
/// counts the steps applied).
///
/// - `entry`: one copy — its selection, when it was first and last copied (a copy equal to an earlier one
///   moves that entry to the top: `copied_at`), the owner's application (`WM_CLASS`), pinned or not, its bytes
///   in all, the fingerprint of its flavours (what makes two copies equal) and its one-line summary.
/// - `flavour`: every target kept of it, in the owner's TARGETS order (`position`): target, property type,
///   format, and the bytes — inline when small, else the name of a content-addressed blob file
///   (``BlobStore``).
/// - `entry_text`: the text of each entry for full-text search (FTS5, `rowid` = the entry's id).
/// - `state`: the history's own settings that every process sees (`paused_until`; `encryption`, the salt and key
///   check of an encrypted history).
/// - Step 2: `entry.sealed_text`, an encrypted history's search text (sealed, so not in the full-text index).
enum HistorySchema {
    /// The full-text index of entries' text (made again empty when a history is encrypted).
    static let fullTextTable = "CREATE VIRTUAL TABLE entry_text USING fts5 (body, tokenize = 'unicode61 remove_diacritics 2')"

    /// The steps, in order; step N brings `user_version` from N to N + 1.
    static let migrations: [String] = [
        """
        CREATE TABLE entry (
            id INTEGER PRIMARY KEY,
            selection TEXT NOT NULL,
            first_copied_at INTEGER NOT NULL,
            copied_at INTEGER NOT NULL,
            owner_class TEXT,
            pinned INTEGER NOT NULL DEFAULT 0,
            byte_count INTEGER NOT NULL,
            fingerprint BLOB NOT NULL UNIQUE,
            summary TEXT NOT NULL
        );
        CREATE INDEX entry_by_time ON entry (copied_at, id);
        CREATE TABLE flavour (
            entry_id INTEGER NOT NULL REFERENCES entry (id) ON DELETE CASCADE,
            position INTEGER NOT NULL,
            target TEXT NOT NULL,
            type TEXT NOT NULL,
            format INTEGER NOT NULL,
            byte_count INTEGER NOT NULL,
            bytes BLOB,
            blob TEXT,
            PRIMARY KEY (entry_id, position)
        ) WITHOUT ROWID;
        CREATE INDEX flavour_by_blob ON flavour (blob) WHERE blob IS NOT NULL;
        \(fullTextTable);
        CREATE TABLE state (key TEXT PRIMARY KEY, value ANY NOT NULL);
        """,
        "ALTER TABLE entry ADD COLUMN sealed_text BLOB;",
    ]

    /// Brings `database` up to date, in one immediate transaction: the version is read again once the write lock
    /// is held, so two processes opening a new history at once (a daemon and `clipbridge history`) apply each step
    /// once — the second finds it done.
    /// - Throws: ``HistoryError`` when the file was written by a newer ClipBridge (more steps than known).
    static func migrate(_ database: SQLiteDatabase) throws {
        // Most opens find the file up to date: no write lock for them.
        guard Int(try database.integer("PRAGMA user_version")) != migrations.count else { return }
        try database.transaction {
            let version = Int(try database.integer("PRAGMA user_version"))
            guard version <= migrations.count else {
                throw HistoryError(
                    "\(database.path) was written by a newer ClipBridge (schema \(version), this one knows \(migrations.count))")
            }
            for step in version..<migrations.count {
                try database.execute(migrations[step])
            }
            try database.execute("PRAGMA user_version = \(migrations.count)")
        }
    }
}
