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
        /// The owner went away while its offer was read: the flavours read whole before it did are kept (and
        /// served), the targets not read are among `omitted`.
        case keptPart(SelectionName, flavours: Int, bytes: Int, omitted: [SelectionTarget])
        /// A new owner's offer is marked sensitive: nothing was kept.
        case skippedSensitive(SelectionName)
        /// The offer could not be kept (the owner went away while it was read, or broke the protocol).
        case notKept(SelectionName, reason: String)
        /// The owner went away without a successor and the keeper now serves the kept flavours.
        case restored(SelectionName, flavours: Int)
        /// The owner went away, and nothing kept could replace it.
        case lostWithOwner(SelectionName)
        /// The owner of a file manager's cut went away: a cut is served only by its owner (a paste moves the
        /// files), so it is not restored.
        case cutNotRestored(SelectionName)
        /// An owner handed its content over (SAVE_TARGETS): the keeper serves these flavours now.
        case saved(SelectionName, flavours: Int, requestor: X11Window)
        /// A SAVE_TARGETS request was refused, and why.
        case saveRefused(SelectionName, requestor: X11Window, reason: String)
        /// Another manager took the manager selection: the keeper stopped (ICCCM 2.8).
        case replaced(SelectionName)
        /// The validator vetoed a new owner's content: the previous content serves again (`restored`), or
        /// the selection was cleared.
        case vetoed(SelectionName, restored: Bool)
        /// The rewriter changed the kept content before the keeper served it: one line per change.
        case rewritten(SelectionName, changes: [String])
    }

    /// Kept content as the keeper serves it, after the rewriter: the offer, and one line per change made
    /// (none: served as kept).
    public struct Rewrite: Sendable {
        /// What the keeper serves.
        public var offer: SelectionOffer
        /// What was changed, one line each, for the log.
        public var changes: [String]

        /// Creates a rewrite.
        public init(offer: SelectionOffer, changes: [String]) {
            self.offer = offer
            self.changes = changes
        }
    }

    /// Rewrites kept content each time the keeper is about to serve it (the daemon's convert-on-the-fly
    /// rules). The offer may stream the snapshot's files — they live as long as the keeper serves it — but
    /// must not refer to files of its own, which nothing would remove.
    public typealias Rewriter = @Sendable (SelectionSnapshot) async -> Rewrite

    /// A new owner's content, as the validator sees it.
    public struct Change: Sendable {
        /// The selection.
        public var selection: SelectionName
        /// The new owner's window.
        public var owner: X11Window?
        /// What was read of its offer (nothing when sensitive), with the targets not kept.
        public var snapshot: SelectionSnapshot
    }

    /// What the validator decides about a change.
    public enum Verdict: Sendable, Equatable {
        /// Let it be.
        case accept
        /// Take the selection back and serve the last accepted content again (cleared if there is none).
        case restorePrevious
        /// Take the selection away: nobody owns it afterwards.
        case clear
    }

    /// Sees each new owner's content once it was read, and may veto it.
    public typealias Validator = @Sendable (Change) async -> Verdict

    /// The connection it reads and serves on.
    public let connection: X11Connection
    /// The selection kept.
    public let selection: SelectionName
    /// Bounds on what is kept of each offer.
    public let limits: SnapshotLimits
    /// The deadline of each read of a snapshot; nil uses the connection's.
    public let timeout: Duration?
    /// Sees each new owner's content and may veto it; nil accepts everything.
    public let validator: Validator?
    /// Rewrites kept content before it is served; nil serves it as kept.
    public let rewriter: Rewriter?

    /// Creates a keeper; ``run(managing:_:)`` starts it.
    /// - Parameters:
    ///   - connection: the connection it reads and serves on.
    ///   - selection: the selection kept.
    ///   - limits: bounds on what is kept of each offer.
    ///   - timeout: the deadline of each read; nil uses the connection's.
    ///   - validator: called with each new owner's content once it was read (a sensitive offer: with nothing
    ///     read); a veto takes the selection from that owner. Until the verdict, the new owner serves.
    ///   - rewriter: called with the kept content each time the keeper serves it (after the owner left, after a
    ///     handover, after a veto); what it returns is served instead.
    public init(
        connection: X11Connection, selection: SelectionName = .clipboard, limits: SnapshotLimits = SnapshotLimits(),
        timeout: Duration? = nil, validator: Validator? = nil, rewriter: Rewriter? = nil
    ) {
        self.connection = connection
        self.selection = selection
        self.limits = limits
        self.timeout = timeout
        self.validator = validator
        self.rewriter = rewriter
    }

    /// What the keeper's loop reacts to, one at a time.
    private enum Input: Sendable {
        case change(OwnerChange)
        case changesEnded((any Error)?)
        case save(SaveTargetsRequest)
        /// A save's snapshot is read (nil: it could not be): `generation` is the owner it was taken of.
        case saveRead(SaveTargetsRequest, generation: Int, KeptSnapshot?)
        /// The validator's verdict on the owner of `generation`.
        case verdict(Verdict, generation: Int)
        case managerReplaced
    }

    /// The snapshot of the current owner's offer, being taken or taken.
    private struct Current {
        var owner: X11Window?
        var generation: Int
        var task: Task<KeptSnapshot?, Never>
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
        // Kept snapshots remove their files once the last of these lets go of them (`KeptSnapshot`).
        var current: Current?
        var generation = 0
        var served: (kept: KeptSnapshot, lease: SelectionLease, generation: Int)?
        /// The last content the validator accepted: what a veto restores.
        var accepted: KeptSnapshot?
        defer {
            changeFeeder.cancel()
            managerFeeder?.cancel()
            feed.finish()
            current?.task.cancel()
        }
        /// Claims the selection with `kept` (rewritten), which then serves it; returns how many targets it serves.
        func serve(_ kept: KeptSnapshot, generation: Int) async throws -> Int {
            var offer = kept.snapshot.offer
            if let rewriter {
                let rewrite = await rewriter(kept.snapshot)
                offer = rewrite.offer
                if !rewrite.changes.isEmpty { report(.rewritten(selection, changes: rewrite.changes)) }
            }
            let lease = try await connection.claim(selection, offering: offer)
            served = (kept, lease, generation)
            return offer.representations.count
        }
        // An owner already there when the keeper starts is kept too.
        if let owner = try? await connection.owner(of: selection) {
            current = Current(owner: owner, generation: generation, task: snapshotTask(report))
            if let current { validate(current, feed: feed) }
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
                current?.task.cancel()
                if let (kept, lease, _) = served {
                    served = nil
                    kept.holdWhileServing(lease)
                }
                generation += 1
                current = Current(owner: change.owner, generation: generation, task: snapshotTask(report))
                if let current { validate(current, feed: feed) }
            case .change(let change):
                // The owner's window or client is gone.
                guard change.owner == nil, served == nil else { continue }
                let kept = await current?.task.value
                current = nil
                guard let kept, !kept.snapshot.isSensitive, !kept.snapshot.flavours.isEmpty else {
                    report(.lostWithOwner(selection))
                    continue
                }
                if kept.snapshot.isCut {
                    report(.cutNotRestored(selection))
                    continue
                }
                do {
                    let flavours = try await serve(kept, generation: generation)
                    report(.restored(selection, flavours: flavours))
                } catch {
                    // Another client claimed it first: it is the owner now, and its change follows.
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
                        owner: owner, generation: generation, task: snapshotTask(report, targets: request.targets, forSave: true),
                        awaitsChange: owner != nil)
                }
                let pending = current!
                Task {
                    feed.yield(.saveRead(request, generation: pending.generation, await pending.task.value))
                }
            case .saveRead(let request, let takenOf, let kept):
                if let served, served.generation == takenOf {
                    await connection.answer(request, saved: true)
                    continue
                }
                // `current` always holds the newest generation: another one means the owner changed meanwhile.
                let changed = current?.generation != takenOf
                guard !changed, let kept, !kept.snapshot.isSensitive, !kept.snapshot.flavours.isEmpty else {
                    let reason = changed ? "the selection changed while it was read"
                        : kept?.snapshot.isSensitive == true ? "the content is marked sensitive" : "nothing could be read"
                    await connection.answer(request, saved: false)
                    report(.saveRefused(selection, requestor: request.requestor, reason: reason))
                    continue
                }
                if let targets = request.targets { kept.narrow(to: targets) }
                current = nil
                do {
                    let flavours = try await serve(kept, generation: takenOf)
                    // Only now: the owner exits on this answer, and everything was read from it.
                    await connection.answer(request, saved: true)
                    report(.saved(selection, flavours: flavours, requestor: request.requestor))
                } catch {
                    await connection.answer(request, saved: false)
                    report(.saveRefused(selection, requestor: request.requestor, reason: "\(error)"))
                }
            case .verdict(let verdict, let of):
                if let judged = current, judged.generation == of {
                    if verdict == .accept {
                        accepted = await judged.task.value
                        continue
                    }
                    current = nil
                    judged.task.cancel()
                } else if let restored = served, restored.generation == of {
                    // The owner left before its verdict came, and the keeper serves what it kept of it: the
                    // verdict is about that content (a slow hook; without this an accepted copy was never
                    // remembered, and the next veto cleared instead of restoring it).
                    if verdict == .accept {
                        accepted = restored.kept
                        continue
                    }
                } else {
                    continue
                }
                if verdict == .restorePrevious, let previous = accepted, !previous.snapshot.flavours.isEmpty {
                    do {
                        _ = try await serve(previous, generation: generation)
                        report(.vetoed(selection, restored: true))
                        continue
                    } catch {
                        report(.notKept(selection, reason: "\(error)"))
                    }
                }
                // Cleared: a claim of nothing, given up at once, leaves the selection without an owner.
                if (try? await connection.claim(selection, offering: SelectionOffer([]))) != nil {
                    await connection.release(selection)
                }
                report(.vetoed(selection, restored: false))
            case .managerReplaced:
                report(.replaced(selection))
                if served != nil { await connection.release(selection) }
                return
            }
        }
    }

    /// With a validator: judges the owner of `current` once its snapshot is read, and feeds the verdict back.
    private func validate(_ current: Current, feed: AsyncStream<Input>.Continuation) {
        guard let validator else { return }
        let selection = selection
        Task {
            guard let kept = await current.task.value, !Task.isCancelled else { return }
            let verdict = await validator(Change(selection: selection, owner: current.owner, snapshot: kept.snapshot))
            feed.yield(.verdict(verdict, generation: current.generation))
        }
    }

    private func snapshotTask(
        _ report: @escaping @Sendable (Event) -> Void, targets: [SelectionTarget]? = nil, forSave: Bool = false
    ) -> Task<KeptSnapshot?, Never> {
        let connection = connection, selection = selection, limits = limits, timeout = timeout
        return Task {
            do {
                // A handover's owner waits, and implements MULTIPLE: one request instead of one per target.
                let snapshot = try await connection.snapshot(
                    selection, targets: targets, limits: limits, timeout: timeout, inOneRequest: forSave)
                let kept = KeptSnapshot(snapshot)
                if Task.isCancelled { return nil }
                if snapshot.isSensitive {
                    report(.skippedSensitive(selection))
                } else if snapshot.ownerLeft {
                    report(.keptPart(selection, flavours: snapshot.flavours.count, bytes: snapshot.byteCount,
                                     omitted: snapshot.omissions.map(\.target)))
                } else {
                    report(.kept(selection, flavours: snapshot.flavours.count, bytes: snapshot.byteCount,
                                 omitted: snapshot.omissions.map(\.target)))
                }
                return kept
            } catch {
                if !Task.isCancelled { report(.notKept(selection, reason: "\(error)")) }
                return nil
            }
        }
    }
}
