import FoundationEssentials
import Glibc
import Synchronization
import SelectionCore

/// The clipboard history on disk: an SQLite database (WAL) and a folder of content-addressed blob files, in a
/// directory private to the user (0700; files 0600). Safe to open from several processes at once — the daemon
/// records while `clipbridge history` lists, deletes or pins.
///
/// Crash-proof by order: a payload's blob file is complete and synced before the row naming it commits
/// (content-addressed files named by their SHA-256), each copy is one transaction, and the database runs with `synchronous = FULL`. A process
/// killed at any point leaves every earlier entry intact; what it left half-written (blob files no row names)
/// is collected by ``collectGarbage()``.
///
/// Opened with a ``HistoryKey``, the history is encrypted at rest: every payload (inline or blob), summary,
/// application name and search text is sealed with ChaCha20-Poly1305, and blob names and fingerprints are keyed
/// hashes. What stays readable without the key: when each entry was copied, its selection, its targets' names,
/// property types and formats, and sizes. Search then decrypts each entry's text in memory and matches the same
/// word prefixes as the full-text index (which an encrypted history leaves empty). A plain history opened with a
/// key is encrypted then, its earlier entries sealed in place.
///
/// Every call blocks on the disk: call it from a thread of your own (``HistoryRecorder`` has one), not from
/// the cooperative pool's few threads.
public final class HistoryStore: Sendable {
    /// The directory.
    public let directory: String
    /// Bounds on what is kept.
    public let limits: HistoryLimits
    let blobs: BlobStore
    let database: Mutex<SQLiteDatabase>
    /// The keys of an encrypted history; nil for a plain one.
    let cipher: HistoryCipher?
    /// Serializes blob removals with writes across processes (`flock` on `lock`): a blob one process is about to
    /// reference is never removed by another that found it unreferenced.
    private let lockPath: String

    /// The database's file name in ``directory``.
    public static let databaseName = "history.sqlite3"

    /// Opens the history in `directory` (made if missing), bringing an older database up to date.
    /// - Parameters:
    ///   - directory: the history's directory.
    ///   - limits: the bounds on what is kept.
    ///   - key: the key of an encrypted history; a plain history given one is encrypted (its entries sealed now).
    /// - Throws: ``HistoryError`` (the directory cannot be made, the file is not a history database, it was
    ///   written by a newer ClipBridge, it is encrypted and no key or another key was given); ``SQLiteError``.
    public init(directory: String, limits: HistoryLimits = HistoryLimits(), key: HistoryKey? = nil) throws {
        self.directory = directory
        self.limits = limits
        try PrivateDirectory.make(directory)
        lockPath = "\(directory)/lock"
        let database = try SQLiteDatabase(path: "\(directory)/\(Self.databaseName)")
        try database.execute(
            "PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; PRAGMA foreign_keys = ON; PRAGMA secure_delete = ON")
        try HistorySchema.migrate(database)
        let cipher = try HistoryEncryption.prepare(database, key: key, directory: directory)
        self.cipher = cipher
        blobs = try BlobStore(directory: "\(directory)/blobs", cipher: cipher)
        self.database = Mutex(database)
        if cipher != nil { try sealPlainEntries() }
    }

    /// Whether the history is encrypted at rest.
    public var isEncrypted: Bool { cipher != nil }

    /// Whether the history in `directory` is encrypted — false when there is none yet — read without opening it
    /// for writing (so before its key is fetched: a key is made only for a history that has none).
    public static func isEncrypted(directory: String) throws -> Bool {
        try HistoryEncryption.isEncrypted(directory: directory)
    }

    /// The default directory: `$XDG_DATA_HOME/clipbridge`, else `~/.local/share/clipbridge` (XDG Base Directory
    /// specification).
    public static func defaultDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let data = environment["XDG_DATA_HOME"], data.hasPrefix("/") { return "\(data)/clipbridge" }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? "/"
        return "\(home)/.local/share/clipbridge"
    }

    // MARK: - Recording

    /// Records a copy: a new entry at the top, or — when an entry has the same flavours, byte for byte, in the
    /// same order — that entry moved to the top. Then the oldest unpinned entries beyond the limits go.
    ///
    /// - Throws: ``HistoryError`` when a payload cannot be written (``HistoryError/isDiskFull`` for a full
    ///   disk): nothing of this copy is kept, and every earlier entry is intact.
    @discardableResult
    public func record(_ copy: CapturedCopy, at time: Date = Date()) throws -> RecordOutcome {
        guard !copy.flavours.isEmpty else { return .skipped("nothing was kept") }
        guard copy.byteCount <= limits.maximumEntryBytes else {
            return .skipped("\(copy.byteCount) bytes, over the limit of \(limits.maximumEntryBytes) per copy")
        }
        return try withFileLock {
            // Payloads first, each complete on disk before the row naming it commits.
            var stored: [(flavour: CapturedCopy.Flavour, storage: HistoryFlavour.Storage, digest: String)] = []
            // Flavours that share one file (a snapshot keeps a repeat of an earlier flavour once: wl-copy's five names
            // of one text) are one blob, hashed and copied once.
            var blobOfFile: [String: String] = [:]
            for flavour in copy.flavours {
                if flavour.byteCount <= limits.inlineBytes, let data = try flavour.inlineBytes() {
                    stored.append((flavour, .inline(try cipher?.seal(data, as: .payload) ?? data),
                                   try Fingerprint.digest(data, cipher: cipher)))
                } else if let path = flavour.content.path, let name = blobOfFile[path] {
                    stored.append((flavour, .blob(name), name))
                } else {
                    let blob = try flavour.store(in: blobs)
                    if let path = flavour.content.path { blobOfFile[path] = blob.name }
                    stored.append((flavour, .blob(blob.name), blob.name))
                }
            }
            let fingerprint = try Fingerprint.of(stored.map { ($0.flavour.target, $0.flavour.type, $0.flavour.format, $0.digest) })
            let milliseconds = Self.milliseconds(time)
            let ownerClass = try copy.ownerClass.map { try sealed($0, as: .ownerClass) } ?? .null
            let summary = try sealed(copy.summary.line, as: .summary)
            // An encrypted history keeps its search text sealed, out of the full-text index.
            let sealedText: SQLiteValue =
                if let cipher, !copy.summary.searchText.isEmpty { .blob(try cipher.seal(copy.summary.searchText, as: .text)) }
                else { .null }
            let (outcome, evictedBlobs) = try database.withLock { database in
                try database.transaction {
                    let existing = try database.integer("SELECT id FROM entry WHERE fingerprint = ?", [.blob(fingerprint)])
                    let outcome: RecordOutcome
                    if existing != 0 {
                        try database.run(
                            "UPDATE entry SET copied_at = ?, selection = ?, owner_class = coalesce(?, owner_class) WHERE id = ?",
                            [.integer(milliseconds), .text(copy.selection.rawValue), ownerClass, .integer(existing)])
                        outcome = .movedToTop(existing)
                    } else {
                        try database.run(
                            """
                            INSERT INTO entry (selection, first_copied_at, copied_at, owner_class, byte_count, fingerprint, summary,
                                sealed_text)
                            VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                            """,
                            [.text(copy.selection.rawValue), .integer(milliseconds), .integer(milliseconds),
                             ownerClass, .integer(copy.byteCount), .blob(fingerprint), summary, sealedText])
                        let id = database.lastInsertedRowID
                        for (position, item) in stored.enumerated() {
                            let (bytes, blob): (SQLiteValue, SQLiteValue) = switch item.storage {
                            case .inline(let data): (.blob(data), .null)
                            case .blob(let name): (.null, .text(name))
                            }
                            try database.run(
                                "INSERT INTO flavour (entry_id, position, target, type, format, byte_count, bytes, blob) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                                [.integer(id), .integer(position), .text(item.flavour.target.rawValue),
                                 .text(item.flavour.type.rawValue), .integer(item.flavour.format),
                                 .integer(item.flavour.byteCount), bytes, blob])
                        }
                        if cipher == nil, !copy.summary.searchText.isEmpty {
                            try database.run(
                                "INSERT INTO entry_text (rowid, body) VALUES (?, ?)", [.integer(id), .text(copy.summary.searchText)])
                        }
                        outcome = .added(id)
                    }
                    return (outcome, try evictBeyondLimits(database))
                }
            }
            removeUnreferenced(evictedBlobs + stored.compactMap { if case .blob(let name) = $0.storage { name } else { nil } })
            return outcome
        }
    }

    /// Deletes the oldest unpinned entries while there are more than ``HistoryLimits/maximumEntries`` or more
    /// bytes than ``HistoryLimits/maximumBytes``; returns the blobs they named (removed once unreferenced).
    private func evictBeyondLimits(_ database: SQLiteDatabase) throws -> [String] {
        var count = Int(try database.integer("SELECT count(*) FROM entry"))
        var bytes = Int(try database.integer("SELECT total(byte_count) FROM entry"))
        guard count > limits.maximumEntries || bytes > limits.maximumBytes else { return [] }
        var doomed: [Int64] = []
        try database.forEachRow("SELECT id, byte_count FROM entry WHERE pinned = 0 ORDER BY copied_at, id") { row in
            guard count > limits.maximumEntries || bytes > limits.maximumBytes else { return }
            doomed.append(row.integer(0))
            count -= 1
            bytes -= row.int(1)
        }
        return try delete(doomed, in: database)
    }

    // MARK: - Reading

    /// The entries, newest first: at most `limit`, and only those `matching` accepts (given each entry's targets).
    public func entries(limit: Int = .max, matching: ((HistoryEntry) -> Bool)? = nil) throws -> [HistoryEntry] {
        try select(where: "", [], limit: limit, matching: matching)
    }

    /// The entries whose text contains every word of `query` (each as a word prefix: `clip` finds "clipboard"),
    /// newest first — full-text search (SQLite FTS5). An empty query finds every entry.
    public func search(_ query: String, limit: Int = .max, matching: ((HistoryEntry) -> Bool)? = nil) throws
        -> [HistoryEntry]
    {
        guard let expression = SearchQuery.expression(query) else { return try entries(limit: limit, matching: matching) }
        if let cipher {
            return try searchSealed(query, cipher: cipher, limit: limit, matching: matching)
        }
        return try select(
            where: "WHERE e.id IN (SELECT rowid FROM entry_text WHERE entry_text MATCH ?)", [.text(expression)],
            limit: limit, matching: matching)
    }

    /// The entry `id`, or nil.
    public func entry(_ id: Int64) throws -> HistoryEntry? {
        try select(where: "WHERE e.id = ?", [.integer(id)], limit: 1, matching: nil).first
    }

    /// The flavours of entry `id`, in the owner's order (none when there is no such entry).
    public func flavours(of id: Int64) throws -> [HistoryFlavour] {
        try database.withLock { database in
            try database.rows(
                "SELECT target, type, format, byte_count, bytes, blob FROM flavour WHERE entry_id = ? ORDER BY position",
                [.integer(id)]
            ) { row in
                let storage: HistoryFlavour.Storage =
                    if let name = row.text(5) { .blob(name) } else { .inline(row.blob(4) ?? Data()) }
                return HistoryFlavour(
                    target: SelectionTarget(rawValue: row.text(0) ?? ""), type: SelectionTarget(rawValue: row.text(1) ?? ""),
                    format: row.int(2), byteCount: row.int(3), storage: storage)
            }
        }
    }

    /// The bytes of a flavour.
    /// - Throws: ``HistoryError`` when its blob cannot be read, or (encrypted) does not open.
    public func bytes(of flavour: HistoryFlavour) throws -> Data {
        switch flavour.storage {
        case .inline(let data): return try cipher?.open(data, as: .payload) ?? data
        case .blob(let name): return try blobs.contents(of: name)
        }
    }

    /// Where a flavour's bytes are: in memory, or the blob's file (serve it while it is not deleted). An encrypted
    /// history's blobs are opened into memory.
    public func content(of flavour: HistoryFlavour) throws -> SelectionSnapshot.Content {
        switch flavour.storage {
        case .blob(let name) where cipher == nil: return .file(URL(fileURLWithPath: blobs.path(of: name)))
        default: return .bytes(try bytes(of: flavour))
        }
    }

    /// A flavour's bytes as a new open file descriptor the caller closes: the blob's file itself in a plain
    /// history; else a private file in memory (`/dev/shm`, already unlinked) holding the bytes — an encrypted
    /// history's content never reaches the disk unsealed.
    public func openPayload(_ flavour: HistoryFlavour) throws -> Int32 {
        if case .blob(let name) = flavour.storage, cipher == nil {
            let path = blobs.path(of: name)
            let descriptor = open(path, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else { throw HistoryError.system("cannot open \(path)") }
            return descriptor
        }
        guard let (descriptor, path) = PrivateFiles.makeMemoryFile(prefix: "clipbridge-history.") else {
            throw HistoryError.system("cannot create a file in memory")
        }
        do {
            switch flavour.storage {
            case .inline: try BlobStore.write(try bytes(of: flavour), to: descriptor, path: path)
            case .blob(let name): try blobs.copy(name, to: descriptor, path: path)
            }
        } catch {
            close(descriptor)
            throw error
        }
        return descriptor
    }

    /// Entry `id` as the snapshot it was recorded from, ready to be served again — what every restore serves (the
    /// library's ``ClipboardHistory/restore(_:selection:with:)``, `clipbridge history restore` and `pick`): every
    /// flavour in the owner's order, a small one's bytes in memory, a blob held open (`OpenedFile`:
    /// pruning the entry meanwhile does not cut the restore short; an encrypted blob is decrypted into a file in
    /// memory, a piece at a time). Empty when there is no such entry.
    /// - Throws: ``HistoryError`` when a payload cannot be opened; every payload opened so far is closed.
    public func snapshot(of id: Int64, selection: SelectionName = .clipboard) throws -> SelectionSnapshot {
        SelectionSnapshot(selection: selection, flavours: try flavours(of: id).map { flavour in
            let content: SelectionSnapshot.Content = switch flavour.storage {
            case .inline: .bytes(try bytes(of: flavour))
            case .blob: .opened(OpenedFile(adopting: try openPayload(flavour)))
            }
            return SelectionSnapshot.Flavour(
                target: flavour.target, type: flavour.type, format: flavour.format, content: content,
                byteCount: flavour.byteCount)
        })
    }

    /// How many entries there are, and their bytes.
    public func totals() throws -> (entries: Int, bytes: Int) {
        try database.withLock { database in
            (Int(try database.integer("SELECT count(*) FROM entry")),
             Int(try database.integer("SELECT total(byte_count) FROM entry")))
        }
    }

    func select(where clause: String, _ values: [SQLiteValue], limit: Int, matching: ((HistoryEntry) -> Bool)?)
        throws -> [HistoryEntry]
    {
        let sql = """
            SELECT e.id, e.selection, e.first_copied_at, e.copied_at, e.owner_class, e.pinned, e.byte_count, e.summary,
                (SELECT group_concat(target, char(10)) FROM (SELECT target FROM flavour f WHERE f.entry_id = e.id ORDER BY position))
            FROM entry e \(clause) ORDER BY e.copied_at DESC, e.id DESC
            """
        let limited = sql + (matching == nil && limit != .max ? " LIMIT \(limit)" : "")
        let rows = try database.withLock { database in
            try database.rows(limited, values) { row in
                HistoryEntry(
                    id: row.integer(0), selection: SelectionName(rawValue: row.text(1) ?? "CLIPBOARD"),
                    firstCopiedAt: Self.date(row.integer(2)), copiedAt: Self.date(row.integer(3)),
                    ownerClass: text(row, 4, as: .ownerClass), isPinned: row.bool(5), byteCount: row.int(6),
                    summary: text(row, 7, as: .summary) ?? "",
                    targets: (row.text(8) ?? "").split(separator: "\n").map { SelectionTarget(rawValue: String($0)) })
            }
        }
        guard let matching else { return rows }
        var found: [HistoryEntry] = []
        for entry in rows where found.count < limit && matching(entry) { found.append(entry) }
        return found
    }

    // MARK: - Helpers

    /// `text` as stored in `column`: sealed in an encrypted history.
    func sealed(_ text: String, as column: HistoryCipher.Column) throws -> SQLiteValue {
        guard let cipher else { return .text(text) }
        return .blob(try cipher.seal(text, as: column))
    }

    /// The text stored in `column` of `row`: opened in an encrypted history, where a value that does not open
    /// (changed on disk) reads as a note saying so — one damaged row does not hide the others.
    func text(_ row: SQLiteRow, _ column: Int32, as kind: HistoryCipher.Column) -> String? {
        guard let cipher else { return row.text(column) }
        guard let sealed = row.blob(column) else { return nil }
        return (try? cipher.openText(sealed, as: kind)) ?? "[damaged: does not open with this key]"
    }

    /// Deletes entries `ids` in the open transaction; returns the blobs they named.
    func delete(_ ids: [Int64], in database: SQLiteDatabase) throws -> [String] {
        var names: [String] = []
        for id in ids {
            try database.forEachRow("SELECT blob FROM flavour WHERE entry_id = ? AND blob IS NOT NULL", [.integer(id)]) {
                names.append($0.text(0) ?? "")
            }
            try database.run("DELETE FROM entry_text WHERE rowid = ?", [.integer(id)])
            try database.run("DELETE FROM entry WHERE id = ?", [.integer(id)])
        }
        return names
    }

    /// Removes the blobs of `names` no flavour names any more (the file lock is held).
    func removeUnreferenced(_ names: [String]) {
        for name in Set(names) where !name.isEmpty {
            let used = (try? database.withLock { database in
                try database.integer("SELECT count(*) FROM flavour WHERE blob = ?", [.text(name)])
            }) ?? 1
            if used == 0 { blobs.remove(name) }
        }
    }

    /// Runs `body` holding the history's file lock, waiting for it at most ``SQLiteDatabase/busyTimeout``.
    func withFileLock<T>(_ body: () throws -> T) throws -> T {
        let descriptor = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw HistoryError.system("cannot open \(lockPath)") }
        defer { close(descriptor) }
        let deadline = ContinuousClock.now + SQLiteDatabase.busyTimeout
        while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            guard errno == EWOULDBLOCK || errno == EINTR, ContinuousClock.now < deadline else {
                throw HistoryError("\(lockPath) stayed locked by another process")
            }
            usleep(5_000)
        }
        return try body()
    }

    static func milliseconds(_ date: Date) -> Int64 {
        date == .distantFuture ? Int64.max : Int64((date.timeIntervalSince1970 * 1000).rounded())
    }

    static func date(_ milliseconds: Int64) -> Date {
        milliseconds == Int64.max ? .distantFuture : Date(timeIntervalSince1970: Double(milliseconds) / 1000)
    }
}

/// Bounds on a history, oldest unpinned entries evicted first.
public struct HistoryLimits: Sendable, Equatable {
    /// The most entries kept (pinned ones count, but are never evicted).
    public var maximumEntries = 1000
    /// The most bytes kept, every entry's flavours together.
    public var maximumBytes = 1 << 30
    /// The largest copy recorded, in bytes (the daemon passes its per-copy limit).
    public var maximumEntryBytes = 512 << 20
    /// Flavours up to this size live in the database row; larger ones in blob files.
    public var inlineBytes = 32 << 10

    /// 1,000 entries, 1 GiB, 512 MiB per copy, 32 KiB inline.
    public init() {}
}
