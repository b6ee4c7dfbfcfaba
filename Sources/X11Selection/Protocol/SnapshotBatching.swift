// The X11 part of a snapshot's reading plan: MULTIPLE batches and TARGET_SIZES announcements.

/// How a snapshot of an X owner is read in MULTIPLE batches (ICCCM §2.6.2), and what its TARGET_SIZES reply
/// announces (freedesktop clipboard-manager spec) — the X side of ``SnapshotPolicy``'s plan.
enum SnapshotBatching {
    /// The most one MULTIPLE read of a snapshot assembles in memory, all replies together (16 MiB); replies
    /// past it are read alone, streamed to files.
    static let batchBytes = 16 << 20

    /// The most targets asked in one MULTIPLE request of a snapshot.
    static let batchTargets = 64

    /// From how many targets to read a snapshot in MULTIPLE batches when the owner offers MULTIPLE (a handover
    /// always does): one round trip per batch instead of one per target, so an owner listing hundreds of
    /// targets is read before it can go away. Below this, target by target: xsel 1.2 lists MULTIPLE among six
    /// targets and never answers it, which would cost a whole timeout.
    static let batchThreshold = 16

    /// The targets of `steps` to read in MULTIPLE batches (each at most ``batchTargets``), or none: batches when
    /// the owner offers MULTIPLE and either the owner waits for us (a handover) or there are at least
    /// ``batchThreshold`` to read. Targets announced over `inMemoryBytes` are read alone, streamed.
    static func batches(
        _ steps: [SnapshotPolicy.Step], ownerOffersMultiple: Bool, handover: Bool, announced: [SelectionTarget: Int], inMemoryBytes: Int
    ) -> [[SelectionTarget]] {
        guard ownerOffersMultiple else { return [] }
        let reads = steps.compactMap { step -> SelectionTarget? in
            guard case .read(let target) = step else { return nil }
            return announced[target].map { $0 <= inMemoryBytes } ?? true ? target : nil
        }
        guard reads.count > 1, handover || reads.count >= batchThreshold else { return [] }
        return stride(from: 0, to: reads.count, by: batchTargets).map {
            Array(reads[$0..<min($0 + batchTargets, reads.count)])
        }
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

}
