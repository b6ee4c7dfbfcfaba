import FoundationEssentials

/// What a clipboard manager keeps of an owner's offer, as a pure decision from the owner's TARGETS.
///
/// Kept: every target the owner lists, once, in the owner's order — a manager that keeps only text (GNOME's,
/// CopyQ's re-owned snapshot) loses rich text, files and app-private formats. Not kept:
/// - the meta targets an owner's engine answers itself (TARGETS, MULTIPLE, TIMESTAMP, SAVE_TARGETS,
///   TARGET_SIZES, DELETE) and INCR;
/// - side-effect targets (ICCCM §2.6.3: INSERT_SELECTION, INSERT_PROPERTY), whose conversion acts rather
///   than transfers;
/// - targets whose value names a resource of the owner (ICCCM §2.6.2: PIXMAP, BITMAP, DRAWABLE, COLORMAP,
///   WINDOW): the resource goes with the owner, so a kept ID would name nothing, or something else;
/// - targets whose *reading* has a side effect for the owner, read only by a real paste: a file manager's
///   cut list. libfm (pcmanfm) clears a cut as soon as anyone reads `x-special/gnome-copied-files`, taking
///   that read for the paste of a move (src/gtk/fm-clipboard.c, get_data: "info about is_cut is already on
///   clipboard so reset it"), so a manager reading it completed the "move" itself and the real paste found
///   nothing. The list is re-made from `text/uri-list` instead (``copiedFiles(fromURIList:)``), for a copy; a
///   cut (`application/x-kde-cutselection` = `1`) is never served by a manager (``isCut(_:)``);
/// - and nothing at all when the offer carries `x-kde-passwordManagerHint` (the convention KDE's and GNOME's
///   password managers use, and a sensitive offer carries): content that asks not to be kept.
package enum SnapshotPolicy {
    /// What to do with an offer.
    package enum Plan: Sendable, Equatable {
        /// Keep nothing: the offer is marked sensitive.
        case sensitive
        /// Read and keep these targets, in this order.
        case keep([SelectionTarget])
    }

    /// The reason a target past `SnapshotLimits.maximumFlavours` is omitted with.
    package static func overFlavourLimit(_ maximum: Int) -> String { "over the limit of \(maximum) flavours per copy" }

    /// The reason given for the targets not read because the owner went away first.
    package static let ownerLeftReason = "the owner went away before it was read"

    /// What a snapshot does with each target of its plan, in order.
    package enum Step: Sendable, Equatable {
        /// Read it.
        case read(SelectionTarget)
        /// Do not read it, for this reason.
        case omit(SelectionTarget, reason: String)
    }

    /// The steps for `targets` (a plan's): a target `keeps` rejects is omitted unread; of the others, the first
    /// `maximumFlavours` are read and the rest omitted (the work one owner can cause is bounded: an owner may
    /// list a million targets).
    package static func steps(
        for targets: [SelectionTarget], keeps: ((SelectionTarget) -> Bool)?, maximumFlavours: Int
    ) -> [Step] {
        var reads = 0
        return targets.map { target in
            if sideEffectTargets.contains(target) { return .omit(target, reason: sideEffectReason) }
            if let keeps, !keeps(target) { return .omit(target, reason: "not among the kept types") }
            guard reads < maximumFlavours else { return .omit(target, reason: overFlavourLimit(maximumFlavours)) }
            reads += 1
            return .read(target)
        }
    }

    /// Targets a manager never reads because reading them acts on the owner (see above): the GNOME format of a
    /// file manager's copied or cut files (Nautilus, Nemo, Thunar, libfm) and MATE's Caja variant of it.
    package static let sideEffectTargets: Set<SelectionTarget> = ["x-special/gnome-copied-files", "x-special/mate-copied-files"]

    /// The reason a side-effect target is omitted with.
    package static let sideEffectReason = "not read: reading it acts on the owner (a file manager takes it for the paste of a cut)"

    /// `text/uri-list` (RFC 2483).
    package static let uriList: SelectionTarget = "text/uri-list"
    /// `application/x-kde-cutselection`: `1` when the files were cut.
    package static let kdeCutSelection: SelectionTarget = "application/x-kde-cutselection"

    /// Whether kept flavours describe a cut (`application/x-kde-cutselection` holding `1`; libfm and Dolphin
    /// offer it, libfm only for a cut): a paste of a cut moves the files, so only the owner may serve it.
    package static func isCut(_ flavours: [(target: SelectionTarget, bytes: Data)]) -> Bool {
        flavours.contains { $0.target == kdeCutSelection && $0.bytes.first == UInt8(ascii: "1") }
    }

    /// The GNOME copied-files list of a copy (`copy`, then one URI per line) made from a `text/uri-list` reply:
    /// its lines without CR, comments (`#`) and empty lines (RFC 2483 §5). Nil when it names no URI.
    package static func copiedFiles(fromURIList bytes: Data) -> Data? {
        var lines: [Data] = []
        for line in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: true) {
            var uri = Data(line)
            while let last = uri.last, last == UInt8(ascii: "\r") || last == 0 { uri.removeLast() }
            guard let first = uri.first, first != UInt8(ascii: "#") else { continue }
            lines.append(uri)
        }
        guard !lines.isEmpty else { return nil }
        return Data("copy".utf8) + lines.reduce(into: Data()) { $0.append(UInt8(ascii: "\n")); $0.append($1) }
    }

    /// Targets never kept, besides the meta targets.
    package static let unkeptTargets: Set<SelectionTarget> = [
        .incr, "INSERT_SELECTION", "INSERT_PROPERTY", "PIXMAP", "BITMAP", "DRAWABLE", "COLORMAP", "WINDOW",
    ]

    /// The plan for an owner offering `offered` (its TARGETS reply, in its order). With `requested` (a
    /// SAVE_TARGETS list: the freedesktop spec's "convert the CLIPBOARD selection to the selected targets"),
    /// those targets in that order, by the same rules; either list naming the hint makes the offer sensitive.
    package static func plan(for offered: [SelectionTarget], requested: [SelectionTarget]? = nil) -> Plan {
        if offered.contains(SelectionTarget.passwordManagerHint)
            || requested?.contains(SelectionTarget.passwordManagerHint) == true
        {
            return .sensitive
        }
        var seen = Set<SelectionTarget>()
        return .keep((requested ?? offered).filter { target in
            !target.isMetaTarget && !unkeptTargets.contains(target) && seen.insert(target).inserted
        })
    }

    /// The most the next flavour may take: the per-flavour limit, or what is left of the total if less. A
    /// flavour that sends more is omitted when it passes it; one that announces more (TARGET_SIZES) is not read.
    package static func flavourBudget(flavourLimit: Int, remaining: Int) -> Int {
        min(flavourLimit, remaining)
    }
}
