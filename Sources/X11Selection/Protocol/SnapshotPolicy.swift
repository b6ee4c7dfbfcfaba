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

    /// Targets never kept, besides the meta targets.
    static let unkeptTargets: Set<SelectionTarget> = [
        .incr, "INSERT_SELECTION", "INSERT_PROPERTY", "PIXMAP", "BITMAP", "DRAWABLE", "COLORMAP", "WINDOW",
    ]

    /// The plan for an owner offering `offered` (its TARGETS reply, in its order).
    static func plan(for offered: [SelectionTarget]) -> Plan {
        if offered.contains(SelectionOffer.passwordManagerHint) { return .sensitive }
        var seen = Set<SelectionTarget>()
        return .keep(offered.filter { target in
            !target.isMetaTarget && !unkeptTargets.contains(target) && seen.insert(target).inserted
        })
    }
}
