import ClipBridge
import FoundationEssentials
import UniformTypes
import SelectionCore

/// The clipboard history as a library: the entries `clipbridge daemon` records (or any ``HistoryRecorder``),
/// newest first, each readable as an `ItemProvider` (ClipBridge's) — `loadTransferable(type:)` reads a history entry as it
/// reads a drop or the clipboard — restored to a clipboard, searched, deleted, and followed as it changes.
///
/// ```swift
/// let history = try ClipboardHistory()
/// for entry in try history.entries(limit: 10) { print(entry.id, entry.summary) }
/// let note = try await history.itemProvider(for: id).loadTransferable(type: Note.self)
/// let lease = try await history.restore(id) { try await clipboard.claim($0) }
/// for try await entries in history.changes() { show(entries) }
/// ```
public final class ClipboardHistory: Sendable {
    /// The store the entries are read from.
    public let store: HistoryStore

    /// Opens the history in `directory` (by default the daemon's, `$XDG_DATA_HOME/clipbridge`).
    /// - Parameters:
    ///   - directory: the history's directory.
    ///   - limits: the bounds on what is kept.
    ///   - key: the key of an encrypted history (``HistoryStore`` says what it seals).
    /// - Throws: ``HistoryError``, ``SQLiteError``.
    public init(
        directory: String = HistoryStore.defaultDirectory(), limits: HistoryLimits = HistoryLimits(), key: HistoryKey? = nil
    ) throws {
        store = try HistoryStore(directory: directory, limits: limits, key: key)
    }

    /// The history held by `store`.
    public init(store: HistoryStore) {
        self.store = store
    }

    /// The entries, newest first.
    public func entries(limit: Int = .max) throws -> [HistoryEntry] {
        try store.entries(limit: limit)
    }

    /// The entries whose text holds every word of `text` (word beginnings), newest first.
    public func search(_ text: String, limit: Int = .max) throws -> [HistoryEntry] {
        try store.search(text, limit: limit)
    }

    /// Entry `id`'s content as an item provider: each flavour under its content type, in the owner's order; the
    /// best text flavour as UTF-8 plain text, decoded as a paste decodes it. Bytes are read when a load asks.
    /// - Throws: ``HistoryError`` when there is no such entry.
    public func itemProvider(for id: HistoryEntry.ID) throws -> ItemProvider {
        let flavours = try store.flavours(of: id)
        guard !flavours.isEmpty else { throw HistoryError.noSuchEntry(id) }
        let provider = ItemProvider()
        let store = self.store
        let text = TargetMapping.preferredTextTarget(in: flavours.map(\.target))
        var registered = Set<UTType>()
        for flavour in flavours {
            if flavour.target == text {
                registered.insert(.utf8PlainText)
                provider.registerDataRepresentation(for: .utf8PlainText) {
                    let bytes = try store.bytes(of: flavour)
                    return TargetMapping.canonicalText(bytes, target: flavour.target, propertyType: flavour.type) ?? bytes
                }
                continue
            }
            let type = TargetMapping.contentType(for: flavour.target)
            // Other text targets are the same text in other encodings: the best one stands for them.
            guard !type.conforms(to: .plainText), registered.insert(type).inserted else { continue }
            provider.registerDataRepresentation(for: type) { try store.bytes(of: flavour) }
        }
        return provider
    }

    /// Puts entry `id` on a selection again through `claim`, which claims it with the entry's snapshot — every
    /// flavour byte-exact with its property type and format, in the owner's order (ClipBridge's
    /// `Clipboard.claim(_:)` on X11) — then moves the entry to the top. The history decides nothing about the display:
    /// the same restore serves any backend.
    /// - Throws: ``HistoryError`` when there is no such entry; what `claim` throws (the entry then stays where it was).
    public func restore<Claimed>(
        _ id: HistoryEntry.ID, selection: SelectionName = .clipboard,
        with claim: (SelectionSnapshot) async throws -> Claimed
    ) async throws -> Claimed {
        let claimed = try await claim(try snapshot(for: id, selection: selection))
        try store.moveToTop(id)
        return claimed
    }

    /// Entry `id` ready to be served on `selection`: every flavour in the owner's order, each blob held open
    /// (``HistoryStore/snapshot(of:selection:)``) — what ``restore(_:selection:with:)`` claims with, and what
    /// `clipbridge history restore` hands its detached server.
    /// - Throws: ``HistoryError`` (``HistoryError/isNoSuchEntry``) when there is no such entry; when a payload
    ///   cannot be opened.
    public func snapshot(for id: HistoryEntry.ID, selection: SelectionName = .clipboard) throws -> SelectionSnapshot {
        let snapshot = try store.snapshot(of: id, selection: selection)
        guard !snapshot.flavours.isEmpty else { throw HistoryError.noSuchEntry(id) }
        return snapshot
    }

    /// Deletes entries; returns how many there were.
    @discardableResult
    public func delete(_ ids: [HistoryEntry.ID]) throws -> Int {
        try store.delete(ids)
    }

    /// The newest `limit` entries now, then again each time the history changes — a copy recorded by the daemon,
    /// an entry deleted or pinned by another process — checked every `interval` (SQLite's `data_version`, one
    /// cheap query). Ends when the task is cancelled; throws when the database cannot be read.
    public func changes(every interval: Duration = .milliseconds(250), limit: Int = 100)
        -> AsyncThrowingStream<[HistoryEntry], any Error>
    {
        let store = self.store
        return AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    // A connection of its own: data_version counts other connections' commits, this process's
                    // recorder among them.
                    let watcher = try SQLiteDatabase(path: "\(store.directory)/\(HistoryStore.databaseName)", create: false)
                    var seen = try watcher.integer("PRAGMA data_version")
                    continuation.yield(try store.entries(limit: limit))
                    while !Task.isCancelled {
                        try await Task.sleep(for: interval)
                        let version = try watcher.integer("PRAGMA data_version")
                        if version != seen {
                            seen = version
                            continuation.yield(try store.entries(limit: limit))
                        }
                    }
                    continuation.finish()
                } catch is CancellationError {
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }
}
