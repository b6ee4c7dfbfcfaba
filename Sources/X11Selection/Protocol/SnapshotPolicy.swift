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
/// - and nothing at all when the offer carries `x-kde-passwordManagerHint` (the convention KDE's and GNOME's
///   password managers use, and `SelectionOffer.isSensitive` sets): content that asks not to be kept.
enum SnapshotPolicy {
    /// What to do with an offer.
    enum Plan: Sendable, Equatable {
        /// Keep nothing: the offer is marked sensitive.
        case sensitive
        /// Read and keep these targets, in this order.
        case keep([SelectionTarget])
    }

    /// The most one MULTIPLE read of a snapshot assembles in memory, all replies together (16 MiB); replies
    /// past it are read alone, streamed to files.
    static let batchBytes = 16 << 20

    /// Targets never kept, besides the meta targets.
    static let unkeptTargets: Set<SelectionTarget> = [
        .incr, "INSERT_SELECTION", "INSERT_PROPERTY", "PIXMAP", "BITMAP", "DRAWABLE", "COLORMAP", "WINDOW",
    ]

    /// The plan for an owner offering `offered` (its TARGETS reply, in its order). With `requested` (a
    /// SAVE_TARGETS list: the freedesktop spec's "convert the CLIPBOARD selection to the selected targets"),
    /// those targets in that order, by the same rules; either list naming the hint makes the offer sensitive.
    static func plan(for offered: [SelectionTarget], requested: [SelectionTarget]? = nil) -> Plan {
        if offered.contains(SelectionOffer.passwordManagerHint)
            || requested?.contains(SelectionOffer.passwordManagerHint) == true
        {
            return .sensitive
        }
        var seen = Set<SelectionTarget>()
        return .keep((requested ?? offered).filter { target in
            !target.isMetaTarget && !unkeptTargets.contains(target) && seen.insert(target).inserted
        })
    }

    /// The sizes an owner announces in its TARGET_SIZES reply (freedesktop clipboard-manager spec): pairs of
    /// (target atom, size) as format-32 items. A size of −1 (0xFFFFFFFF) means unknown and is left out, as is
    /// a trailing odd item; the first announcement of a target counts.
    static func announcedSizes(_ items: [UInt]) -> [(atom: X11Atom, size: Int)] {
        var sizes: [(atom: X11Atom, size: Int)] = []
        var seen = Set<X11Atom>()
        var index = 0
        while index + 1 < items.count {
            let atom = X11Atom(rawValue: items[index])
            let size = UInt32(truncatingIfNeeded: items[index + 1])
            if size != UInt32.max, !atom.isNone, seen.insert(atom).inserted { sizes.append((atom, Int(size))) }
            index += 2
        }
        return sizes
    }

    /// The most the next flavour may take: the per-flavour limit, or what is left of the total if less. A
    /// flavour that sends more is omitted when it passes it; one that announces more (TARGET_SIZES) is not read.
    static func flavourBudget(flavourLimit: Int, remaining: Int) -> Int {
        min(flavourLimit, remaining)
    }
}
