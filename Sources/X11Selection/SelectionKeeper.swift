import FoundationEssentials

/// Keeps a selection's content alive after the application that copied it goes away — the keep-alive half
/// of a clipboard manager, for the many owners that never hand over with SAVE_TARGETS (xclip, terminals,
/// Java, games).
///
/// On every new owner it takes a ``SelectionSnapshot`` of the offer, every flavour. When the owner then
/// disappears without a successor — its window destroyed or its client gone (XFixes
/// SelectionWindowDestroy / SelectionClientClose) — it claims the selection and serves the snapshot,
/// targets in the owner's order. It never claims while an owner lives, so it cannot clobber app-private
/// formats; it keeps nothing of a sensitive offer; and a snapshot overtaken by a newer owner before it was
/// complete is discarded, never served.
public final class SelectionKeeper: Sendable {
    /// What the keeper did.
    public enum Event: Sendable, Equatable {
        /// A new owner's offer was kept: its flavours, total bytes and omitted targets.
        case kept(SelectionName, flavours: Int, bytes: Int, omitted: [SelectionTarget])
        /// A new owner's offer is marked sensitive: nothing was kept.
        case skippedSensitive(SelectionName)
        /// The offer could not be kept (the owner went away while it was read, or broke the protocol).
        case notKept(SelectionName, reason: String)
        /// The owner went away without a successor and the keeper now serves the kept flavours.
        case restored(SelectionName, flavours: Int)
        /// The owner went away, and nothing kept could replace it.
        case lostWithOwner(SelectionName)
    }

    /// The connection it reads and serves on.
    public let connection: X11Connection
    /// The selection kept.
    public let selection: SelectionName
    /// Bounds on what is kept of each offer.
    public let limits: SnapshotLimits
    /// The deadline of each read of a snapshot; nil uses the connection's.
    public let timeout: Duration?

    /// Creates a keeper; ``run(_:)`` starts it.
    public init(
        connection: X11Connection, selection: SelectionName = .clipboard, limits: SnapshotLimits = SnapshotLimits(),
        timeout: Duration? = nil
    ) {
        self.connection = connection
        self.selection = selection
        self.limits = limits
        self.timeout = timeout
    }

    /// Keeps the selection until the task is cancelled or the connection ends, reporting each step to
    /// `report`. Spooled files of replaced snapshots are removed once nothing serves them any more, and all
    /// of them when it returns.
    /// - Throws: `SelectionError` `.extensionUnavailable` (no XFixes), `.connectionLost`.
    public func run(_ report: @escaping @Sendable (Event) -> Void) async throws {
        let changes = try await connection.ownerChanges(of: [selection])
        var latest: Task<SelectionSnapshot?, Never>?
        var retired: [SelectionSnapshot] = []
        var served: (snapshot: SelectionSnapshot, lease: SelectionLease)?
        defer {
            latest?.cancel()
            for snapshot in retired { snapshot.removeFiles() }
            served?.snapshot.removeFiles()
        }
        // An owner already there when the keeper starts is kept too.
        if (try? await connection.owner(of: selection)) != nil {
            latest = snapshotTask(report)
        }
        for try await change in changes {
            switch change.reason {
            case .newOwner:
                // Our own claim is the restoration itself; a lost claim is reported by its own change.
                if change.isOwnedByThisProcess { continue }
                // The previous offer is history: its snapshot, finished or not, is never served. (A read still
                // running on it ends with the owner's TARGETS now naming another offer or its window gone.)
                if let previous = latest {
                    previous.cancel()
                    if let snapshot = await previous.value { retired.append(snapshot) }
                }
                if let (snapshot, lease) = served {
                    served = nil
                    retireWhenDone(snapshot, lease: lease)
                }
                latest = snapshotTask(report)
            case .ownerWindowDestroyed, .ownerClientClosed:
                guard change.owner == nil, served == nil else { continue }
                let snapshot = await latest?.value
                latest = nil
                guard let snapshot, !snapshot.isSensitive, !snapshot.flavours.isEmpty else {
                    if let snapshot { retired.append(snapshot) }
                    report(.lostWithOwner(selection))
                    continue
                }
                do {
                    let lease = try await connection.claim(selection, offering: snapshot.offer)
                    served = (snapshot, lease)
                    report(.restored(selection, flavours: snapshot.flavours.count))
                } catch {
                    // Another client claimed it first: it is the owner now, and its change follows.
                    retired.append(snapshot)
                    report(.notKept(selection, reason: "\(error)"))
                }
            }
            for snapshot in retired { snapshot.removeFiles() }
            retired.removeAll()
        }
    }

    private func snapshotTask(_ report: @escaping @Sendable (Event) -> Void) -> Task<SelectionSnapshot?, Never> {
        let connection = connection, selection = selection, limits = limits, timeout = timeout
        return Task {
            do {
                let snapshot = try await connection.snapshot(selection, limits: limits, timeout: timeout)
                if Task.isCancelled {
                    snapshot.removeFiles()
                    return nil
                }
                if snapshot.isSensitive {
                    report(.skippedSensitive(selection))
                } else {
                    report(.kept(selection, flavours: snapshot.flavours.count, bytes: snapshot.byteCount,
                                 omitted: snapshot.omissions.map(\.target)))
                }
                return snapshot
            } catch {
                if !Task.isCancelled { report(.notKept(selection, reason: "\(error)")) }
                return nil
            }
        }
    }

    /// Removes a served snapshot's files once its lease has ended (a transfer in flight when the selection
    /// was lost still finishes from them: ICCCM 2.2).
    private func retireWhenDone(_ snapshot: SelectionSnapshot, lease: SelectionLease) {
        Task {
            for await _ in lease.events {}
            snapshot.removeFiles()
        }
    }
}
