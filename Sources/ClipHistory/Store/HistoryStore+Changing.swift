import FoundationEssentials
import Glibc
import Synchronization
import SelectionCore

/// Changing the history: deleting, clearing, pinning, moving an entry to the top.
extension HistoryStore {
    /// Deletes entries (and their blobs no other entry shares); returns how many there were.
    ///
    /// What was deleted leaves no trace in the files: SQLite zeroes freed pages (`secure_delete`), the full-text
    /// index is merged so the entries' words leave its segments (FTS5 otherwise keeps them until a later merge),
    /// and the write-ahead log, which holds earlier page images, is checkpointed and truncated. (Entries evicted
    /// beyond the limits are deleted without the merge, which would cost every copy once the history is full.)
    @discardableResult
    public func delete(_ ids: [Int64]) throws -> Int {
        try withFileLock {
            let (count, names) = try database.withLock { database in
                let deleted = try database.transaction {
                    let present = try ids.filter { try database.integer("SELECT count(*) FROM entry WHERE id = ?", [.integer($0)]) > 0 }
                    return (present.count, try delete(present, in: database))
                }
                if deleted.0 > 0 {
                    try database.execute("INSERT INTO entry_text (entry_text) VALUES ('optimize'); PRAGMA wal_checkpoint(TRUNCATE)")
                }
                return deleted
            }
            removeUnreferenced(names)
            return count
        }
    }

    /// Deletes every entry (but the pinned ones, when `keepingPinned`); returns how many went.
    @discardableResult
    public func clear(keepingPinned: Bool = false) throws -> Int {
        let ids = try database.withLock { database in
            try database.rows("SELECT id FROM entry" + (keepingPinned ? " WHERE pinned = 0" : "")) { $0.integer(0) }
        }
        return try delete(ids)
    }

    /// Pins or unpins entry `id`: pinned entries are never evicted. False when there is no such entry.
    @discardableResult
    public func setPinned(_ id: Int64, _ pinned: Bool) throws -> Bool {
        try database.withLock { database in
            try database.run("UPDATE entry SET pinned = ? WHERE id = ?", [.integer(pinned ? 1 : 0), .integer(id)])
            return database.changes > 0
        }
    }

    /// Moves entry `id` to the top (it was restored). False when there is no such entry.
    @discardableResult
    public func moveToTop(_ id: Int64, at time: Date = Date()) throws -> Bool {
        try database.withLock { database in
            try database.run("UPDATE entry SET copied_at = ? WHERE id = ?", [.integer(Self.milliseconds(time)), .integer(id)])
            return database.changes > 0
        }
    }
}
