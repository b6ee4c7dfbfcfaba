import FoundationEssentials
import Synchronization
import SelectionCore

/// What an encrypted history does differently: search over sealed text, and sealing the entries a history held
/// before it was encrypted.
extension HistoryStore {
    /// Search in an encrypted history: each entry's sealed text opened in memory and matched word by word.
    func searchSealed(_ query: String, cipher: HistoryCipher, limit: Int, matching: ((HistoryEntry) -> Bool)?) throws
        -> [HistoryEntry]
    {
        guard let matcher = SearchQuery.Matcher(query) else { return try entries(limit: limit, matching: matching) }
        let texts = try database.withLock { database in
            try database.rows("SELECT id, sealed_text FROM entry WHERE sealed_text IS NOT NULL") { ($0.integer(0), $0.blob(1)) }
        }
        var found: [Int64] = []
        for (id, sealed) in texts {
            // A text changed on disk does not open: that entry is not found, the others are.
            if let sealed, let text = try? cipher.openText(sealed, as: .text), matcher.matches(text) { found.append(id) }
        }
        guard !found.isEmpty else { return [] }
        return try select(
            where: "WHERE e.id IN (SELECT value FROM json_each(?))",
            [.text("[" + found.map(String.init).joined(separator: ",") + "]")], limit: limit, matching: matching)
    }

    /// Seals what a history held before it was encrypted: every entry whose summary is still plain text — its
    /// payloads (inline ones in place, blobs into sealed blobs under keyed names), summary, application and search
    /// text — one entry per transaction, so a process killed meanwhile leaves each entry whole, plain or sealed, and
    /// the next open goes on. Then the full-text index, which held the plain text, is dropped and made again empty,
    /// the database vacuumed (with `secure_delete`, freed pages are zeroed) and the plain blobs removed.
    func sealPlainEntries() throws {
        guard let cipher else { return }
        let (plainEntries, indexedTexts) = try database.withLock { database in
            (try database.rows("SELECT id FROM entry WHERE typeof(summary) = 'text'") { $0.integer(0) },
             try database.integer("SELECT count(*) FROM entry_text"))
        }
        guard !plainEntries.isEmpty || indexedTexts > 0 else { return }
        try withFileLock {
            var plainBlobs: [String] = []
            for id in plainEntries {
                var digests: [(target: SelectionTarget, type: SelectionTarget, format: Int, digest: String)] = []
                var sealed: [(bytes: SQLiteValue, blob: SQLiteValue)] = []
                for flavour in try flavours(of: id) {
                    switch flavour.storage {
                    case .inline(let data):
                        sealed.append((.blob(try cipher.seal(data, as: .payload)), .null))
                        digests.append((flavour.target, flavour.type, flavour.format, try Fingerprint.digest(data, cipher: cipher)))
                    case .blob(let name):
                        let stored = try blobs.store(contentsOf: blobs.plain.path(of: name))
                        plainBlobs.append(name)
                        sealed.append((.null, .text(stored.name)))
                        digests.append((flavour.target, flavour.type, flavour.format, stored.name))
                    }
                }
                let fingerprint = try Fingerprint.of(digests)
                try database.withLock { database in
                    try database.transaction {
                        let texts = try database.rows(
                            "SELECT summary, owner_class, (SELECT body FROM entry_text WHERE rowid = e.id) FROM entry e WHERE id = ?",
                            [.integer(id)]
                        ) { ($0.text(0) ?? "", $0.text(1), $0.text(2)) }
                        guard let (summary, ownerClass, text) = texts.first else { return }
                        for (position, value) in sealed.enumerated() {
                            try database.run(
                                "UPDATE flavour SET bytes = ?, blob = ? WHERE entry_id = ? AND position = ?",
                                [value.bytes, value.blob, .integer(id), .integer(position)])
                        }
                        try database.run(
                            "UPDATE entry SET summary = ?, owner_class = ?, sealed_text = ?, fingerprint = ? WHERE id = ?",
                            [.blob(try cipher.seal(summary, as: .summary)),
                             try ownerClass.map { .blob(try cipher.seal($0, as: .ownerClass)) } ?? .null,
                             try text.map { .blob(try cipher.seal($0, as: .text)) } ?? .null, .blob(fingerprint),
                             .integer(id)])
                        try database.run("DELETE FROM entry_text WHERE rowid = ?", [.integer(id)])
                    }
                }
            }
            try database.withLock { database in
                // FTS5 keeps a deleted row's tokens in its index segments until they merge: the index goes whole.
                try database.transaction {
                    try database.execute("DROP TABLE entry_text")
                    try database.execute(HistorySchema.fullTextTable)
                }
                try database.execute("VACUUM; PRAGMA wal_checkpoint(TRUNCATE)")
            }
            for name in Set(plainBlobs) { blobs.plain.remove(name) }
        }
    }
}
