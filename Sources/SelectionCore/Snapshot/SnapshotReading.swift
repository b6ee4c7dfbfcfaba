import FoundationEssentials

/// Reads an owner's offer as ``SnapshotPolicy`` keeps it, one target at a time, for a backend that has no faster way
/// (X11 reads in MULTIPLE batches and spools to files on its own): the plan, the omitted targets, the flavour and
/// total budgets, an owner that leaves midway — decided here once, the bytes read by the backend's `read`.
package enum SnapshotReading {
    /// How a backend's read of one target ended other than with its bytes.
    package enum Stop: Error {
        /// The flavour passed the budget it was given: omitted.
        case overBudget
        /// The owner went away (or was replaced): this target and those after it are omitted, what was read stays.
        case ownerLeft
    }

    /// The kept flavours of an owner offering `offered`, in the plan's order, and their facts; nothing is read of an
    /// offer marked sensitive. `read` gets each target and the most bytes it may bring; it throws ``Stop`` (or any
    /// other error: that target is omitted).
    package static func read(
        offered: [SelectionTarget], _ request: SnapshotRequest,
        read: (SelectionTarget, _ budget: Int) async throws -> Data
    ) async -> (flavours: [(target: SelectionTarget, bytes: Data)], facts: KeptFacts) {
        guard case .keep(let targets) = SnapshotPolicy.plan(for: offered, requested: request.targets) else {
            return ([], KeptFacts(flavours: 0, isSensitive: true))
        }
        let limits = request.limits
        var kept: [(target: SelectionTarget, bytes: Data)] = []
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
            do {
                let bytes = try await read(target, budget)
                guard bytes.count <= budget else { throw Stop.overBudget }
                kept.append((target, bytes))
                total += bytes.count
            } catch Stop.ownerLeft {
                ownerLeft = true
                omitted.append(target)
            } catch {
                omitted.append(target)
            }
        }
        let isCut = SnapshotPolicy.isCut(kept.map { ($0.target, $0.bytes) })
        return (kept, KeptFacts(flavours: kept.count, bytes: total, omitted: omitted, ownerLeft: ownerLeft, isCut: isCut))
    }
}
