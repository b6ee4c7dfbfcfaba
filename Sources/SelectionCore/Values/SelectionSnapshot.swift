import FoundationEssentials
import Glibc

/// Every flavour an owner offered at one moment, read in full: what a clipboard manager keeps so that a copy
/// outlives the application that made it, and serves again exactly as the owner did — same targets in the
/// same order, same property types and formats, same bytes.
///
/// Made by a backend's read of an owner's offer (X11: `X11Connection.snapshot(_:targets:limits:timeout:inOneRequest:)`),
/// or from a history entry; served again by a claim (X11: `SelectionSnapshot.offer`). Large flavours live in private
/// files (mode 0600) in ``SnapshotLimits/spoolDirectory``; ``removeFiles()`` deletes them when the snapshot is no
/// longer served.
public struct SelectionSnapshot: Sendable {
    /// Where a flavour's bytes are.
    public enum Content: Sendable, Equatable {
        /// In memory.
        case bytes(Data)
        /// In a private file of this snapshot.
        case file(URL)
        /// In a file held open (a history entry being restored): not this snapshot's to delete.
        case opened(OpenedFile)

        public static func == (lhs: Content, rhs: Content) -> Bool {
            switch (lhs, rhs) {
            case (.bytes(let a), .bytes(let b)): a == b
            case (.file(let a), .file(let b)): a == b
            case (.opened(let a), .opened(let b)): a === b
            default: false
            }
        }

        /// The path a reader opens, for content in a file.
        public var path: String? {
            switch self {
            case .bytes: nil
            case .file(let url): url.path
            case .opened(let file): file.path
            }
        }
    }

    /// One target's reply, as the owner wrote it.
    public struct Flavour: Sendable, Equatable {
        /// The target.
        public var target: SelectionTarget
        /// The property type the owner wrote (never INCR).
        public var type: SelectionTarget
        /// 8, 16 or 32 (format-32 items as 32-bit little-endian values, as reads deliver them).
        public var format: Int
        /// The bytes.
        public var content: Content
        /// How many bytes.
        public var byteCount: Int

        /// Creates a flavour (a file's content must be a private file the snapshot then owns).
        public init(target: SelectionTarget, type: SelectionTarget, format: Int, content: Content, byteCount: Int) {
            self.target = target
            self.type = type
            self.format = format
            self.content = content
            self.byteCount = byteCount
        }
    }

    /// A target that was offered but not kept, and why.
    public struct Omission: Sendable, Equatable {
        /// The target.
        public var target: SelectionTarget
        /// Why: the owner refused or broke the conversion, it timed out, or it was over a size limit.
        public var reason: String

        /// Creates an omission.
        public init(target: SelectionTarget, reason: String) {
            self.target = target
            self.reason = reason
        }
    }

    /// The selection it was taken of.
    public var selection: SelectionName
    /// The kept flavours, in the owner's TARGETS order.
    public var flavours: [Flavour]
    /// The offered targets that were read but not kept.
    public var omissions: [Omission]
    /// True when the offer asked not to be kept (`x-kde-passwordManagerHint`): then nothing was read.
    public var isSensitive: Bool
    /// True when the owner went away before every target was read: the flavours are the ones read whole
    /// before it did (each byte-exact), and the targets not read are among the omissions.
    public var ownerLeft = false
    /// True when the content is a file manager's cut (`application/x-kde-cutselection` = `1`): pasting it moves
    /// the files, so it is served only by its owner — a keeper does not restore it when the owner goes.
    public var isCut = false

    /// Creates a snapshot, as `snapshot(_:targets:limits:timeout:inOneRequest:)` does (or from content kept elsewhere).
    public init(selection: SelectionName, flavours: [Flavour], omissions: [Omission] = [], isSensitive: Bool = false) {
        self.selection = selection
        self.flavours = flavours
        self.omissions = omissions
        self.isSensitive = isSensitive
    }

    /// Total bytes kept.
    public var byteCount: Int { flavours.reduce(0) { $0 + $1.byteCount } }

    /// This snapshot with only the flavours of `targets`, in that order (a SAVE_TARGETS list); the other
    /// flavours' files stay (their holder removes them).
    package func narrowed(to targets: [SelectionTarget]) -> SelectionSnapshot {
        var kept = self
        var byTarget: [SelectionTarget: Flavour] = [:]
        for flavour in flavours where byTarget[flavour.target] == nil { byTarget[flavour.target] = flavour }
        kept.flavours = targets.compactMap { byTarget.removeValue(forKey: $0) }
        return kept
    }

    /// Marks a cut, and for a copy puts back the file lists that were not read because reading them acts on the
    /// owner (`SnapshotPolicy.sideEffectTargets`), re-made from the kept `text/uri-list`, each at its place in the
    /// owner's order. `steps` are the snapshot's, in the owner's order (the flavours' order too).
    package mutating func completeFileList(sideEffectPlaces steps: [SnapshotPolicy.Step]) {
        let inMemory = flavours.compactMap { flavour -> (target: SelectionTarget, bytes: Data)? in
            guard case .bytes(let data) = flavour.content else { return nil }
            return (flavour.target, data)
        }
        isCut = SnapshotPolicy.isCut(inMemory)
        guard !isCut, let uris = inMemory.first(where: { $0.target == SnapshotPolicy.uriList }),
            let list = SnapshotPolicy.copiedFiles(fromURIList: uris.bytes)
        else { return }
        // The steps again, the read ones' flavours taken in turn, a re-made list where its target was skipped.
        var kept = flavours[...]
        var merged: [Flavour] = []
        for step in steps {
            switch step {
            case .omit(let target, SnapshotPolicy.sideEffectReason):
                merged.append(Flavour(target: target, type: target, format: 8, content: .bytes(list), byteCount: list.count))
                omissions.removeAll { $0.target == target }
            case .read(let target):
                if let next = kept.first, next.target == target { merged.append(kept.removeFirst()) }
            case .omit:
                break
            }
        }
        flavours = merged + kept
    }

    /// Marks the snapshot as cut short by its owner's departure: the targets of `steps` still to read are
    /// omitted (those already omitted keep their reason).
    package mutating func keepRead(omittingFrom steps: ArraySlice<SnapshotPolicy.Step>) {
        ownerLeft = true
        for step in steps {
            switch step {
            case .read(let target): omissions.append(.init(target: target, reason: SnapshotPolicy.ownerLeftReason))
            case .omit(let target, let reason): omissions.append(.init(target: target, reason: reason))
            }
        }
    }

    /// Deletes the files of spooled flavours. Serving the snapshot afterwards fails for those flavours.
    public func removeFiles() {
        for flavour in flavours {
            if case .file(let url) = flavour.content { unlink(url.path) }
        }
    }
}
