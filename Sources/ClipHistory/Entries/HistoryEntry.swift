import FoundationEssentials
import SelectionCore

/// One copy in the history: when, from which application, and its one-line summary. Its flavours — every target
/// kept, in the owner's order — are ``HistoryStore/flavours(of:)``'s.
public struct HistoryEntry: Sendable, Equatable, Identifiable {
    /// The entry's number, stable for its life (shown by `clipbridge history`, taken by `show`, `restore` …).
    public var id: Int64
    /// The selection it was copied to (the last one, when the same content was copied again).
    public var selection: SelectionName
    /// When this content was first copied.
    public var firstCopiedAt: Date
    /// When it was last copied (or restored): the history's order, newest first.
    public var copiedAt: Date
    /// The copying application's `WM_CLASS` class (`firefox`, `Gedit`), when the owner's windows named one.
    public var ownerClass: String?
    /// Pinned entries are never evicted.
    public var isPinned: Bool
    /// The bytes of every flavour together.
    public var byteCount: Int
    /// The one-line summary: the text collapsed, `[image 1920×1080 PNG 2.1 MB]`, `[2 files: a.txt, b.png]`, or
    /// the type's name.
    public var summary: String
    /// The flavours' targets, in the owner's order.
    public var targets: [SelectionTarget]
}

/// One flavour of a history entry: a target's reply as the owner wrote it.
public struct HistoryFlavour: Sendable, Equatable {
    /// Where its bytes are.
    public enum Storage: Sendable, Equatable {
        /// In the database row.
        case inline(Data)
        /// In the content-addressed blob file of this name (its SHA-256).
        case blob(String)
    }

    /// The target.
    public var target: SelectionTarget
    /// The property type the owner wrote.
    public var type: SelectionTarget
    /// 8, 16 or 32.
    public var format: Int
    /// How many bytes.
    public var byteCount: Int
    /// Where the bytes are.
    public var storage: Storage
}

/// What ``HistoryStore/record(_:at:)`` did with a copy.
public enum RecordOutcome: Sendable, Equatable {
    /// A new entry.
    case added(Int64)
    /// The same content was in the history already: that entry moved to the top.
    case movedToTop(Int64)
    /// Not recorded, and why (the capture rules, or nothing kept).
    case skipped(String)
}
