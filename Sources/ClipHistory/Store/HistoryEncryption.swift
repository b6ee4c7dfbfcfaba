import FoundationEssentials
import Glibc

/// Whether a history is encrypted, and with which key: the `encryption` row of its `state` table holds the
/// random salt its keys are derived with and the check value of the right key (``HistoryCipher``).
///
/// - No row, no key: a plain history.
/// - A row and the key that matches its check: an encrypted history, opened.
/// - A row and no key, or another key: an error saying so — never plain entries added to an encrypted history,
///   never garbage read as content.
/// - No row and a key: the history becomes encrypted — the row is written, and the entries it already holds are
///   sealed (``HistoryStore/sealPlainEntries()``).
enum HistoryEncryption {
    static let stateKey = "encryption"

    /// The history's cipher (nil: plain).
    static func prepare(_ database: SQLiteDatabase, key: HistoryKey?, directory: String) throws -> HistoryCipher? {
        if let record = try stored(database) {
            guard let key else {
                throw HistoryError(
                    "the history in \(directory) is encrypted: give its key (history-key-command or history-encrypt in the "
                        + "settings)")
            }
            return try open(record, with: key, directory: directory)
        }
        guard let key else { return nil }
        // Two processes encrypting at once (a daemon and `history`, with the same settings): the second finds the
        // first's salt once it holds the write lock.
        return try database.transaction {
            if let record = try stored(database) { return try open(record, with: key, directory: directory) }
            let salt = HistoryCipher.newSalt()
            let cipher = try HistoryCipher(key: key, salt: salt)
            try database.run(
                "INSERT INTO state (key, value) VALUES (?, ?)", [.text(stateKey), .blob(Data(salt + cipher.check))])
            return cipher
        }
    }

    /// The cipher of `key` with the stored salt, when its check matches the stored one.
    private static func open(_ record: (salt: [UInt8], check: [UInt8]), with key: HistoryKey, directory: String) throws
        -> HistoryCipher
    {
        let cipher = try HistoryCipher(key: key, salt: record.salt)
        guard cipher.check == record.check else {
            throw HistoryError("the key given does not open the history in \(directory): it was encrypted with another")
        }
        return cipher
    }

    /// Whether the history in `directory` is encrypted (false when there is none yet), read without changing it.
    static func isEncrypted(directory: String) throws -> Bool {
        let path = "\(directory)/\(HistoryStore.databaseName)"
        guard access(path, F_OK) == 0 else { return false }
        let database = try SQLiteDatabase(path: path, create: false)
        guard try database.integer("SELECT count(*) FROM sqlite_schema WHERE name = 'state'") > 0 else { return false }
        return try stored(database) != nil
    }

    private static func stored(_ database: SQLiteDatabase) throws -> (salt: [UInt8], check: [UInt8])? {
        let rows = try database.rows("SELECT value FROM state WHERE key = ?", [.text(stateKey)]) { $0.blob(0) }
        guard let value = rows.first.flatMap({ $0 }) else { return nil }
        let bytes = Array(value)
        guard bytes.count == HistoryCipher.saltBytes + SHA256.byteCount else {
            throw HistoryError("the history's encryption record is damaged (\(bytes.count) bytes)")
        }
        return (Array(bytes[..<HistoryCipher.saltBytes]), Array(bytes[HistoryCipher.saltBytes...]))
    }
}
