import FoundationEssentials

/// Keeps a selection's content alive after the application that copied it goes away: a clipboard manager's
/// two ways of saving content, on one selection.
///
/// - **Keep-alive**, for the many owners that never hand over (xclip, terminals, Java, games): on every new
///   owner it takes a ``SelectionSnapshot`` of the offer, every flavour. When the owner then disappears
///   without a successor — its window destroyed or its client gone (XFixes SelectionWindowDestroy /
///   SelectionClientClose) — it claims the selection and serves the snapshot, targets in the owner's order.
///   It never claims while an owner lives, so it cannot clobber app-private formats; it keeps nothing of a
///   sensitive offer; and a snapshot overtaken by a newer owner is discarded, never served.
/// - **Handover** (freedesktop clipboard-manager spec), when ``run(managing:_:)`` is given the lease of
///   `CLIPBOARD_MANAGER` (``X11Connection/claimManager(_:replacing:timeout:)``): an exiting owner's
///   SAVE_TARGETS is answered with the snapshot of that owner (taken then if there is none yet, of the targets
///   it lists), the selection claimed with it, and the owner told only once everything was read.
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
        /// An owner handed its content over (SAVE_TARGETS): the keeper serves these flavours now.
        case saved(SelectionName, flavours: Int, requestor: X11Window)
        /// A SAVE_TARGETS request was refused, and why.
        case saveRefused(SelectionName, requestor: X11Window, reason: String)
        /// Another manager took the manager selection: the keeper stopped (ICCCM 2.8).
        case replaced(SelectionName)
    }

    /// The connection it reads and serves on.
    public let connection: X11Connection
    /// The selection kept.
    public let selection: SelectionName
    /// Bounds on what is kept of each offer.
    public let limits: SnapshotLimits
    /// The deadline of each read of a snapshot; nil uses the connection's.
    public let timeout: Duration?

    /// Creates a keeper; ``run(managing:_:)`` starts it.
    public init(
        connection: X11Connection, selection: SelectionName = .clipboard, limits: SnapshotLimits = SnapshotLimits(),
        timeout: Duration? = nil
    ) {
        self.connection = connection
        self.selection = selection
        self.limits = limits
        self.timeout = timeout
    }

    /// What the keeper's loop reacts to, one at a time.
    private enum Input: Sendable {
        case change(OwnerChange)
        case changesEnded((any Error)?)
        case save(SaveTargetsRequest)
        /// A save's snapshot is read (nil: it could not be): `generation` is the owner it was taken of.
        case saveRead(SaveTargetsRequest, generation: Int, SelectionSnapshot?)
        case managerReplaced
    }

    /// The snapshot of the current owner's offer, being taken or taken.
    private struct Current {
        var owner: X11Window?
        var generation: Int
        var task: Task<SelectionSnapshot?, Never>
        /// Started for a SAVE_TARGETS request that came before the owner's change reached the keeper.
        var awaitsChange = false
    }

    /// Keeps the selection until the task is cancelled or the connection ends, reporting each step to
    /// `report`. Spooled files of replaced snapshots are removed once nothing serves them any more, and all
    /// of them when it returns.
    /// - Parameters:
    ///   - managerLease: the lease of the manager selection (`claimManager`), whose SAVE_TARGETS requests the
    ///     keeper answers; it returns (after `.replaced`) when another manager takes it. Nil: keep-alive only.
    ///   - report: called with each event, on the keeper's task.
    /// - Throws: `SelectionError` `.extensionUnavailable` (no XFixes), `.connectionLost`.
    public func run(
        managing managerLease: SelectionLease? = nil, _ report: @escaping @Sendable (Event) -> Void
    ) async throws {
        let changes = try await connection.ownerChanges(of: [selection])
        let (inputs, feed) = AsyncStream<Input>.makeStream()
        let changeFeeder = Task {
            do {
                for try await change in changes { feed.yield(.change(change)) }
                feed.yield(.changesEnded(nil))
            } catch {
                feed.yield(.changesEnded(error))
            }
        }
        let managerFeeder = managerLease.map { lease in
            Task {
                for await event in lease.events {
                    switch event {
                    case .saveTargetsRequested(let request): feed.yield(.save(request))
                    case .lost: feed.yield(.managerReplaced)
                    case .served, .failed: break
                    }
                }
            }
        }
        var current: Current?
        var generation = 0
        var retired: [SelectionSnapshot] = []
        var served: (snapshot: SelectionSnapshot, lease: SelectionLease, generation: Int)?
        defer {
            changeFeeder.cancel()
            managerFeeder?.cancel()
            feed.finish()
            current?.task.cancel()
            for snapshot in retired { snapshot.removeFiles() }
            served?.snapshot.removeFiles()
        }
        // An owner already there when the keeper starts is kept too.
        if let owner = try? await connection.owner(of: selection) {
            current = Current(owner: owner, generation: generation, task: snapshotTask(report))
        }
        for await input in inputs {
            switch input {
            case .change(let change) where change.reason == .newOwner:
                // Our own claim is the restoration or the save itself; a lost claim is reported by its own change.
                if change.isOwnedByThisProcess { continue }
                if let started = current, started.awaitsChange, started.owner == change.owner {
                    // The change a save's snapshot was started ahead of: that snapshot is this owner's.
                    current?.awaitsChange = false
                    continue
                }
                // The previous offer is history: its snapshot, finished or not, is never served. (A read still
                // running on it ends with the owner's TARGETS now naming another offer or its window gone.)
                if let previous = current {
                    previous.task.cancel()
                    if let snapshot = await previous.task.value { retired.append(snapshot) }
                }
                if let (snapshot, lease, _) = served {
                    served = nil
                    retireWhenDone(snapshot, lease: lease)
                }
                generation += 1
                current = Current(owner: change.owner, generation: generation, task: snapshotTask(report))
            case .change(let change):
                // The owner's window or client is gone.
                guard change.owner == nil, served == nil else { continue }
                let snapshot = await current?.task.value
                current = nil
                guard let snapshot, !snapshot.isSensitive, !snapshot.flavours.isEmpty else {
                    if let snapshot { retired.append(snapshot) }
                    report(.lostWithOwner(selection))
                    continue
                }
                do {
                    let lease = try await connection.claim(selection, offering: snapshot.offer)
                    served = (snapshot, lease, generation)
                    report(.restored(selection, flavours: snapshot.flavours.count))
                } catch {
                    // Another client claimed it first: it is the owner now, and its change follows.
                    retired.append(snapshot)
                    report(.notKept(selection, reason: "\(error)"))
                }
            case .changesEnded(let error):
                if let error { throw error }
                return
            case .save(let request):
                if served != nil {
                    // Already ours: what the requestor wants kept is kept.
                    await connection.answer(request, saved: true)
                    continue
                }
                let owner = try? await connection.owner(of: selection)
                if current == nil || current?.owner != owner {
                    // The owner's change has not reached the keeper yet (or it had no owner at the start).
                    current?.task.cancel()
                    generation += 1
                    current = Current(
                        owner: owner, generation: generation, task: snapshotTask(report, targets: request.targets),
                        awaitsChange: owner != nil)
                }
                let pending = current!
                Task {
                    feed.yield(.saveRead(request, generation: pending.generation, await pending.task.value))
                }
            case .saveRead(let request, let takenOf, let snapshot):
                if let served, served.generation == takenOf {
                    await connection.answer(request, saved: true)
                    continue
                }
                let refusal: String?
                if takenOf != generation || current?.generation != takenOf {
                    refusal = "the selection changed while it was read"
                } else if let snapshot, snapshot.isSensitive {
                    refusal = "the content is marked sensitive"
                } else if snapshot == nil || snapshot!.flavours.isEmpty {
                    refusal = "nothing could be read"
                } else {
                    refusal = nil
                }
                guard refusal == nil, var saved = snapshot else {
                    await connection.answer(request, saved: false)
                    report(.saveRefused(selection, requestor: request.requestor, reason: refusal ?? ""))
                    continue
                }
                if let targets = request.targets { saved = saved.keepingOnly(targets) }
                current = nil
                do {
                    let lease = try await connection.claim(selection, offering: saved.offer)
                    served = (saved, lease, takenOf)
                    // Only now: the owner exits on this answer, and everything was read from it.
                    await connection.answer(request, saved: true)
                    report(.saved(selection, flavours: saved.flavours.count, requestor: request.requestor))
                } catch {
                    retired.append(saved)
                    await connection.answer(request, saved: false)
                    report(.saveRefused(selection, requestor: request.requestor, reason: "\(error)"))
                }
            case .managerReplaced:
                report(.replaced(selection))
                if served != nil { await connection.release(selection) }
                return
            }
            for snapshot in retired { snapshot.removeFiles() }
            retired.removeAll()
        }
    }

    private func snapshotTask(
        _ report: @escaping @Sendable (Event) -> Void, targets: [SelectionTarget]? = nil
    ) -> Task<SelectionSnapshot?, Never> {
        let connection = connection, selection = selection, limits = limits, timeout = timeout
        return Task {
            do {
                let snapshot = try await connection.snapshot(selection, targets: targets, limits: limits, timeout: timeout)
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
