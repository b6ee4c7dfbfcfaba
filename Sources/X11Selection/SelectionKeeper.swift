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
    /// else: a recorder may copy them at its own pace, then drops the recording.
    public struct Recording: Sendable {
        /// The selection.
        public var selection: SelectionName
        /// The owner's window (nil when the verdict came after it left).
        public var owner: X11Window?
        /// The application that copied (`WM_CLASS` of the owner's client), looked up while it was read.
        public var ownerClass: WindowClass?
        /// Every flavour kept, in the owner's order.
        public var snapshot: SelectionSnapshot
        /// Holds the snapshot's files.
        let files: KeptSnapshot
    }

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
    /// Every decision is `KeeperMachine`'s; this task only carries its actions out, one event at a time.
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
                for try await change in changes {
                    feed.yield(.machine(.ownerChanged(
                        change.meaning, owner: change.owner, time: change.timestamp == .currentTime ? nil : change.timestamp)))
                }
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
                    case .lost(.some):
                        // A SelectionClear carries the new owner's time: another manager took over (ICCCM 2.8).
                        feed.yield(.machine(.managerReplaced))
                    case .lost(nil):
                        // No time: the lease ended here — this connection shut down (the daemon stopping), which is
                        // the keeper's end, not a replacement (it used to be logged as one).
                        feed.yield(.changesEnded(nil))
                    case .served, .failed: break
                    }
                }
            }
        }
        var driver = Driver(keeper: self, feed: feed, report: report)
        defer {
            changeFeeder.cancel()
            managerFeeder?.cancel()
            feed.finish()
            driver.cancelAll()
        }
        let owner = try? await connection.owner(of: selection)
        if try await driver.carryOut(.started(owner: owner)) { return }
        for await input in inputs {
            let event: Machine.Event
            switch input {
            case .machine(let next):
                event = next
            case .save(let request):
                event = .saveRequested(request, owner: try? await connection.owner(of: selection))
            case .changesEnded(let error):
                if let error { throw error }
                return
            }
            if try await driver.carryOut(event) { return }
        }
    }

    typealias Machine = KeeperMachine<KeptSnapshot, X11Terms>

    /// What the keeper's task reacts to, one at a time.
    private enum Input: Sendable {
        case machine(Machine.Event)
        /// A SAVE_TARGETS request: the owner is asked before the machine sees it.
        case save(SaveTargetsRequest)
        case changesEnded((any Error)?)
    }

    /// Carries out the machine's actions on the connection: the keeper's one task owns it.
    private struct Driver {
        let keeper: SelectionKeeper
        let feed: AsyncStream<Input>.Continuation
        let report: @Sendable (Event) -> Void
        var machine: Machine
        /// The snapshot reads running, by generation.
        var reads: [Int: Task<Void, Never>] = [:]
        /// What the keeper serves and the lease of that claim.
        var serving: (kept: KeptSnapshot, lease: SelectionLease)?

        init(keeper: SelectionKeeper, feed: AsyncStream<Input>.Continuation, report: @escaping @Sendable (Event) -> Void) {
            self.keeper = keeper
            self.feed = feed
            self.report = report
            machine = Machine(selection: keeper.selection, validates: keeper.validator != nil)
        }

        /// Hands `event` to the machine and carries out what it decides; true when the keeper is done.
        mutating func carryOut(_ event: Machine.Event) async throws -> Bool {
            if case .read(let generation, _) = event { reads[generation] = nil }
            var queue = machine.handle(event)[...]
            while let action = queue.popFirst() {
                switch action {
                case .read(let generation, let targets, let inOneRequest):
                    reads[generation] = read(generation, targets: targets, inOneRequest: inOneRequest)
                case .cancelRead(let generation):
                    reads.removeValue(forKey: generation)?.cancel()
                case .validate(let generation, let owner, let kept):
                    guard let validator = keeper.validator else { continue }
                    let change = Change(selection: keeper.selection, owner: owner, snapshot: kept.snapshot)
                    let feed = feed
                    Task { feed.yield(.machine(.verdict(await validator(change), generation: generation))) }
                case .claim(let claim):
                    // Its outcome is the machine's next event, before anything else happens.
                    queue = machine.handle(.claimEnded(await serve(claim))) + queue
                case .stopServing:
                    if let (kept, lease) = serving { kept.holdWhileServing(lease) }
                    serving = nil
                case .answer(let request, let saved):
                    await keeper.connection.answer(request, saved: saved)
                case .clear:
                    // A claim of nothing, given up at once, leaves the selection without an owner.
                    if (try? await keeper.connection.claim(keeper.selection, offering: SelectionOffer([]))) != nil {
                        await keeper.connection.release(keeper.selection)
                    }
                case .release:
                    await keeper.connection.release(keeper.selection)
                case .report(let event):
                    report(event)
                case .record(let owner, let kept):
                    keeper.recorder?(Recording(
                        selection: keeper.selection, owner: owner, ownerClass: kept.ownerClass, snapshot: kept.snapshot,
                        files: kept))
                case .stop:
                    return true
                }
            }
            return false
        }

        /// Claims the selection with `claim`'s content, rewritten; the number of targets served.
        private mutating func serve(_ claim: Machine.Claim) async -> Result<Int, Machine.ClaimFailure> {
            let kept = claim.content
            if let targets = claim.narrowedTo { kept.narrow(to: targets) }
            var offer = kept.snapshot.offer
            if let rewriter = keeper.rewriter {
                let rewrite = await rewriter(kept.snapshot)
                offer = rewrite.offer
                if !rewrite.changes.isEmpty { report(.rewritten(keeper.selection, changes: rewrite.changes)) }
            }
            do {
                let lease = try await keeper.connection.claim(keeper.selection, offering: offer, at: claim.time)
                // What served before (a veto's restoration replaces a restored copy) finishes its transfers.
                if let (previous, previousLease) = serving { previous.holdWhileServing(previousLease) }
                serving = (kept, lease)
                return .success(offer.representations.count)
            } catch {
                return .failure(Machine.ClaimFailure(reason: "\(error)"))
            }
        }

        private func read(_ generation: Int, targets: [SelectionTarget]?, inOneRequest: Bool) -> Task<Void, Never> {
            let connection = keeper.connection, selection = keeper.selection, limits = keeper.limits
            let timeout = keeper.timeout, feed = feed, recording = keeper.recorder != nil
            return Task {
                let outcome: Machine.ReadOutcome
                do {
                    // Who copied, asked first, while the owner is surely there (a history's rules name applications):
                    // a few round trips.
                    var ownerClass: WindowClass?
                    if recording, let owner = try? await connection.owner(of: selection) {
                        ownerClass = try? await connection.applicationClass(of: owner)
                    }
                    let snapshot = try await connection.snapshot(
                        selection, targets: targets, limits: limits, timeout: timeout, inOneRequest: inOneRequest)
                    outcome = .kept(KeptSnapshot(snapshot, ownerClass: ownerClass), KeptFacts(snapshot))
                } catch {
                    outcome = .failed("\(error)")
                }
                // A cancelled read belongs to an owner since replaced: the machine would drop it anyway.
                if !Task.isCancelled { feed.yield(.machine(.read(generation: generation, outcome))) }
            }
        }

        func cancelAll() {
            for read in reads.values { read.cancel() }
        }
    }
}
