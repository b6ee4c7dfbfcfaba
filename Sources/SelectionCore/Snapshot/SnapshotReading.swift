import FoundationEssentials

/// Reads an owner's offer as ``SnapshotPolicy`` keeps it, one target at a time, for a backend that has no faster way
/// (X11 reads in MULTIPLE batches on its own): the plan, the omitted targets, the flavour and total budgets, an owner
/// that leaves midway — decided here once; the bytes read by the backend's `read` into a ``FlavourSpool`` each, in
/// memory up to ``SnapshotLimits/inMemoryBytes`` and in a private file past it, so memory stays bounded at any size.
package enum SnapshotReading {
    /// How a backend's read of one target ended other than with its bytes (past its budget, the spool's
    /// ``FlavourSpool/TooLarge`` omits it).
    package enum Stop: Error {
        /// The owner went away (or was replaced): this target and those after it are omitted, what was read stays.
        case ownerLeft
    }

    /// One flavour kept: its bytes in memory or in the spool's file (the caller owns the file).
    package struct Kept: Sendable {
        package var target: SelectionTarget
        package var content: SelectionSnapshot.Content
        package var byteCount: Int
    }

    /// The kept flavours of an owner offering `offered`, in the plan's order, and their facts; nothing is read of an
    /// offer marked sensitive. `read` gets each target and a spool holding at most the bytes it may bring (past them
    /// its `append` throws); it throws ``Stop`` (or any other error: that target is omitted).
    package static func read(
        offered: [SelectionTarget], _ request: SnapshotRequest,
        read: (SelectionTarget, FlavourSpool) async throws -> Void
    ) async -> (flavours: [Kept], facts: KeptFacts) {
        guard case .keep(let targets) = SnapshotPolicy.plan(for: offered, requested: request.targets) else {
            return ([], KeptFacts(flavours: 0, isSensitive: true))
        }
        let limits = request.limits
        var kept: [Kept] = []
        var omitted: [SelectionTarget] = []
        var total = 0
        var ownerLeft = false
        for step in SnapshotPolicy.steps(for: targets, keeps: limits.keepsTarget, maximumFlavours: limits.maximumFlavours) {
            let target: SelectionTarget
            switch step {
            case .omit(let skipped, _):
                omitted.append(skipped)
                continue
            case .read(let unread) where ownerLeft:
                omitted.append(unread)
                continue
            case .read(let next):
                target = next
            }
            let budget = SnapshotPolicy.flavourBudget(flavourLimit: limits.maximumFlavourBytes, remaining: limits.maximumTotalBytes - total)
            let spool = FlavourSpool(limit: budget, inMemoryLimit: limits.inMemoryBytes, directory: limits.spoolDirectory,
                                     twins: kept.map { FlavourSpool.Twin(content: $0.content, byteCount: $0.byteCount) })
            do {
                try await read(target, spool)
                let byteCount = spool.byteCount
                kept.append(Kept(target: target, content: try spool.finish(), byteCount: byteCount))
                total += byteCount
            } catch Stop.ownerLeft {
                spool.discard()
                ownerLeft = true
                omitted.append(target)
            } catch {
                spool.discard()
                omitted.append(target)
            }
        }
        let inMemory = kept.compactMap { flavour -> (SelectionTarget, Data)? in
            guard case .bytes(let bytes) = flavour.content else { return nil }
            return (flavour.target, bytes)
        }
        let isCut = SnapshotPolicy.isCut(inMemory)
        return (kept, KeptFacts(flavours: kept.count, bytes: total, omitted: omitted, ownerLeft: ownerLeft, isCut: isCut))
    }
}
