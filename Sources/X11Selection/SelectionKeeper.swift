import FoundationEssentials

/// Keeps a selection's content alive after the application that copied it goes away: a clipboard manager's
/// two ways of saving content, on one selection.
///
/// - **Keep-alive**, for the many owners that never hand over (xclip, terminals, Java, games): on every new
///   owner it takes a `SelectionSnapshot` of the offer, every flavour. When the owner then disappears
///   without a successor — its window destroyed or its client gone (XFixes SelectionWindowDestroy /
///   SelectionClientClose) — it claims the selection and serves the snapshot, targets in the owner's order.
///   It never claims while an owner lives, so it cannot clobber app-private formats; it keeps nothing of a
///   sensitive offer; and a snapshot overtaken by a newer owner is discarded, never served.
/// - **Handover** (freedesktop clipboard-manager spec), when ``run(managing:_:)`` is given the lease of
///   `CLIPBOARD_MANAGER` (``X11Connection/claimManager(_:replacing:timeout:)``): an exiting owner's
///   SAVE_TARGETS is answered with the snapshot of that owner (taken then if there is none yet, of the targets
///   it lists), the selection claimed with it, and the owner told only once everything was read.
public final class SelectionKeeper: Sendable {
    /// What the keeper reports (SelectionCore's `KeeperReport`), requestors named by their windows.
    public typealias Event = KeeperReport<X11Window>

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

    /// A validator's verdict (SelectionCore's `KeeperVerdict`).
    public typealias Verdict = KeeperVerdict

    /// Sees each new owner's content once it was read, and may veto it.
    public typealias Validator = @Sendable (Change) async -> Verdict

    /// A copy the keeper kept and accepted, for a history: every flavour of one owner's offer, read once —
    /// the history is written from the keeper's own snapshot, never from a second read of the owner.
    ///
    /// Its spooled files stay on disk while the recording is alive, even once the keeper serves something
    /// else: a recorder may copy them at its own pace, then drops the recording. The type is the core's, the same
    /// on every backend.
    public typealias Recording = RecordedCopy

    /// Takes each copy the keeper kept and accepted, in order, on the keeper's task: it must return at once
    /// (hand the recording to a queue of its own).
    public typealias Recorder = @Sendable (Recording) -> Void

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
    /// Takes each copy kept and accepted (a history); nil records nothing.
    public let recorder: Recorder?

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
    ///   - recorder: called with each copy kept and accepted (after the validator's verdict when there is one),
    ///     never with content marked sensitive or a file manager's cut.
    public init(
        connection: X11Connection, selection: SelectionName = .clipboard, limits: SnapshotLimits = SnapshotLimits(),
        timeout: Duration? = nil, validator: Validator? = nil, rewriter: Rewriter? = nil, recorder: Recorder? = nil
    ) {
        self.connection = connection
        self.selection = selection
        self.limits = limits
        self.timeout = timeout
        self.validator = validator
        self.rewriter = rewriter
        self.recorder = recorder
    }

    /// Keeps the selection until the task is cancelled or the connection ends, reporting each step to
    /// `report`. Spooled files of replaced snapshots are removed once nothing serves them any more, and all
    /// of them when it returns.
    ///
    /// Every decision is SelectionCore's `KeeperMachine`'s; its driver (`KeeperDriver`, the same for every
    /// backend) carries the actions out over this connection.
    /// - Parameters:
    ///   - managerLease: the lease of the manager selection (`claimManager`), whose SAVE_TARGETS requests the
    ///     keeper answers; it returns (after `.replaced`) when another manager takes it. Nil: keep-alive only.
    ///   - report: called with each event, on the keeper's task.
    /// - Throws: `SelectionError` `.extensionUnavailable` (no XFixes), `.connectionLost`.
    public func run(
        managing managerLease: SelectionLease? = nil, _ report: @escaping @Sendable (Event) -> Void
    ) async throws {
        let selection = selection
        let validator = validator.map { validator in
            { @Sendable (owner: X11Window?, kept: KeptSnapshot) async -> Verdict in
                await validator(Change(selection: selection, owner: owner, snapshot: kept.snapshot))
            }
        }
        let rewriter = rewriter.map { rewriter in
            { @Sendable (kept: KeptSnapshot) async -> (offer: SelectionOffer, changes: [String]) in
                let rewrite = await rewriter(kept.snapshot)
                return (rewrite.offer, rewrite.changes)
            }
        }
        let recorder = recorder.map { recorder in
            { @Sendable (owner: X11Window?, kept: KeptSnapshot) in
                recorder(Recording(selection: selection, ownerClass: kept.ownerClass, snapshot: kept.snapshot, files: kept))
            }
        }
        let driver = KeeperDriver(
            backend: X11SelectionBackend(connection), selection: selection, limits: limits, timeout: timeout,
            validator: validator, rewriter: rewriter, recorder: recorder)
        try await driver.run(manager: managerLease.map(Self.managerEvents), report)
    }

    /// The manager lease's events as the keeper's driver takes them.
    private static func managerEvents(_ lease: SelectionLease) -> AsyncStream<ManagerEvent<X11Terms>> {
        AsyncStream { continuation in
            let task = Task {
                for await event in lease.events {
                    switch event {
                    case .saveTargetsRequested(let request): continuation.yield(.handover(request))
                    // A SelectionClear carries the new owner's time: another manager took over (ICCCM 2.8).
                    case .lost(.some): continuation.yield(.replaced)
                    // No time: the lease ended here — this connection shut down (the daemon stopping), which is the
                    // keeper's end, not a replacement (it used to be logged as one).
                    case .lost(nil): continuation.yield(.ended)
                    case .served, .failed: break
                    }
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }
}
