import FoundationEssentials
import Glibc
import SelectionCore

/// A copy as the history records it: the selection, the application, every flavour kept (in memory or in the
/// snapshot's spooled files), and what a history line says of it.
public struct CapturedCopy: Sendable {
    /// One flavour: a target's reply as the owner wrote it, where the snapshot left its bytes.
    public typealias Flavour = SelectionSnapshot.Flavour

    /// The selection copied to.
    public var selection: SelectionName
    /// The copying application's class (`WM_CLASS`), when known.
    public var ownerClass: String?
    /// Every flavour, in the owner's order.
    public var flavours: [Flavour]
    /// What the history line says, and the text search finds it by.
    var summary: EntrySummary

    /// The bytes of every flavour together.
    public var byteCount: Int { flavours.reduce(0) { $0 + $1.byteCount } }

    /// The text of the copy as search finds it (empty for an image or a custom type).
    public var text: String { summary.searchText }

    /// Whether the copy is a file manager's cut (`application/x-kde-cutselection` = `1`): pasting it moves the files.
    public var isCut: Bool {
        SnapshotPolicy.isCut(flavours.compactMap { flavour in
            guard case .bytes(let bytes) = flavour.content else { return nil }
            return (flavour.target, bytes)
        })
    }

    /// A copy of `snapshot`'s flavours.
    public init(_ snapshot: SelectionSnapshot, ownerClass: String? = nil) {
        self.init(selection: snapshot.selection, ownerClass: ownerClass, flavours: snapshot.flavours)
    }

    /// A copy of these flavours.
    public init(selection: SelectionName, ownerClass: String? = nil, flavours: [Flavour]) {
        self.selection = selection
        self.ownerClass = ownerClass
        self.flavours = flavours
        summary = EntrySummary(flavours.map {
            EntrySummary.Flavour(
                target: $0.target, type: $0.type, byteCount: $0.byteCount, prefix: $0.prefix(EntrySummary.indexedBytes))
        })
    }
}

/// A flavour's bytes as the history stores them.
extension SelectionSnapshot.Flavour {
    /// The bytes, when in memory or in a small file; nil for a file that cannot be read (then the blob store
    /// reports why).
    func inlineBytes() throws -> Data? {
        content.path == nil ? try content.wholeBytes() : try? content.prefix(byteCount)
    }

    /// Stores the bytes as a blob.
    func store(in blobs: BlobStore) throws -> BlobStore.Stored {
        guard let path = content.path else { return try blobs.store(try content.wholeBytes()) }
        return try blobs.store(contentsOf: path)
    }

    /// The first `count` bytes.
    func prefix(_ count: Int) -> Data {
        (try? content.prefix(count)) ?? Data()
    }
}
