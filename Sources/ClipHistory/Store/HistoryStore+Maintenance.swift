import Glibc
import Synchronization

/// Keeping the history sound: collecting what a killed writer left, and checking the database and its files
/// (`clipbridge history check`).
extension HistoryStore {
    /// Removes blob files no entry names (left by a process killed between writing a blob and committing its
    /// row) and temporary files of writers that died. Returns how many files went.
    @discardableResult
    public func collectGarbage() throws -> Int {
        try withFileLock {
            let referenced = try database.withLock { database in
                Set(try database.rows("SELECT DISTINCT blob FROM flavour WHERE blob IS NOT NULL") { $0.text(0) ?? "" })
            }
            return blobs.collectGarbage(keeping: referenced.contains)
        }
    }

    /// Runs SQLite's `PRAGMA integrity_check`: "ok", or what is wrong.
    public func integrityCheck() throws -> String {
        try database.withLock { database in
            try database.rows("PRAGMA integrity_check") { $0.text(0) ?? "" }.joined(separator: "\n")
        }
    }

    /// Checks the whole history: the database's integrity, and that every blob a flavour names is there with
    /// the flavour's size. Returns the problems found (none: the history is sound).
    public func verify() throws -> [String] {
        var problems: [String] = []
        let integrity = try integrityCheck()
        if integrity != "ok" { problems.append("database: \(integrity)") }
        let blobsNamed = try database.withLock { database in
            try database.rows("SELECT entry_id, blob, byte_count FROM flavour WHERE blob IS NOT NULL") {
                (entry: $0.integer(0), name: $0.text(1) ?? "", bytes: $0.int(2))
            }
        }
        for blob in blobsNamed {
            var info = stat()
            if stat(blobs.path(of: blob.name), &info) != 0 {
                problems.append("entry \(blob.entry): blob \(blob.name) is missing")
            } else if Int(info.st_size) != blobs.fileBytes(holding: blob.bytes) {
                problems.append(
                    "entry \(blob.entry): blob \(blob.name) has \(info.st_size) bytes, not \(blobs.fileBytes(holding: blob.bytes))")
            }
        }
        return problems
    }
}
