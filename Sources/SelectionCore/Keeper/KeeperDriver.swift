/// Keeps a selection's content alive after its owner goes away, and takes over what owners hand over, on any
/// ``SelectionBackend``. Every decision is ``KeeperMachine``'s; this task only carries its actions out — reads,
/// validator calls, claims, answers — one event at a time, and feeds their outcomes back as events.
package struct KeeperDriver<Backend: SelectionBackend>: Sendable {
    package typealias Owner = Backend.Terms.Owner
    /// Judges a new owner's content once it was read (a sensitive offer: with nothing read).
    package typealias Validator = @Sendable (Owner?, Backend.Kept) async -> KeeperVerdict
    /// Makes the offer served from kept content (the daemon's convert-on-the-fly rules), with one line per change.
    package typealias Rewriter = @Sendable (Backend.Kept) async -> (offer: Backend.Offer, changes: [String])
    /// Takes each copy kept and accepted (a history): it must return at once.
    package typealias Recorder = @Sendable (Owner?, Backend.Kept) -> Void

    package let backend: Backend
    package let selection: SelectionName
    package let limits: SnapshotLimits
    package let timeout: Duration?
    package let validator: Validator?
    package let rewriter: Rewriter?
    package let recorder: Recorder?

    package init(
        backend: Backend, selection: SelectionName, limits: SnapshotLimits, timeout: Duration? = nil,
        validator: Validator? = nil, rewriter: Rewriter? = nil, recorder: Recorder? = nil
    ) {
        self.backend = backend
        self.selection = selection
        self.limits = limits
        self.timeout = timeout
        self.validator = validator
        self.rewriter = rewriter
        self.recorder = recorder
    }

    typealias Machine = KeeperMachine<Backend.Kept, Backend.Terms>

    /// What the keeper's task reacts to, one at a time.
    private enum Input: Sendable {
        case machine(Machine.Event)
        /// A handover request: the owner is asked for before the machine sees it.
        case handover(Backend.Terms.Handover)
        case changesEnded((any Error)?)
    }

    /// Keeps the selection until the task is cancelled, the backend's owner changes end or the manager role does.
    /// - Parameters:
    ///   - manager: the manager role's events (handovers, its end); nil: keep-alive only.
    ///   - report: called with each step, on the keeper's task.
    /// - Throws: what the backend's owner changes throw (a lost connection), or why they could not start.
    package func run(
        manager: AsyncStream<ManagerEvent<Backend.Terms>>?, _ report: @escaping @Sendable (KeeperReport<Owner>) -> Void
    ) async throws {
        let changes = try await backend.ownerChanges(of: [selection])
        let (inputs, feed) = AsyncStream<Input>.makeStream()
        let changeFeeder = Task {
            do {
                for try await change in changes {
                    feed.yield(.machine(.ownerChanged(change.meaning, owner: change.owner, time: change.time)))
                }
                feed.yield(.changesEnded(nil))
            } catch {
                feed.yield(.changesEnded(error))
            }
        }
        let managerFeeder = manager.map { events in
            Task {
                for await event in events {
                    switch event {
                    case .handover(let request): feed.yield(.handover(request))
                    case .replaced: feed.yield(.machine(.managerReplaced))
                    case .ended: feed.yield(.changesEnded(nil))
                    }
                }
            }
        }
        var tasks = Tasks(driver: self, feed: feed, report: report)
        defer {
            changeFeeder.cancel()
            managerFeeder?.cancel()
            feed.finish()
            tasks.cancelAll()
        }
        if try await tasks.carryOut(.started(owner: await backend.owner(of: selection))) { return }
        for await input in inputs {
            let event: Machine.Event
            switch input {
            case .machine(let next):
                event = next
            case .handover(let request):
                event = .saveRequested(request, owner: await backend.owner(of: selection))
            case .changesEnded(let error):
                if let error { throw error }
                return
            }
            if try await tasks.carryOut(event) { return }
        }
    }

    /// Carries out the machine's actions on the backend: the keeper's one task owns it.
    private struct Tasks {
        let driver: KeeperDriver
        let feed: AsyncStream<Input>.Continuation
        let report: @Sendable (KeeperReport<Owner>) -> Void
        var machine: Machine
        /// The snapshot reads running, by generation.
        var reads: [Int: Task<Void, Never>] = [:]
        /// What the keeper serves, and the claim serving it.
        var serving: (kept: Backend.Kept, claim: Backend.Claim)?

        init(driver: KeeperDriver, feed: AsyncStream<Input>.Continuation, report: @escaping @Sendable (KeeperReport<Owner>) -> Void) {
            self.driver = driver
            self.feed = feed
            self.report = report
            machine = Machine(selection: driver.selection, validates: driver.validator != nil)
        }

        /// Hands `event` to the machine and carries out what it decides; true when the keeper is done.
        mutating func carryOut(_ event: Machine.Event) async throws -> Bool {
            if case .read(let generation, _) = event { reads[generation] = nil }
            let backend = driver.backend, selection = driver.selection
            var queue = machine.handle(event)[...]
            while let action = queue.popFirst() {
                switch action {
                case .read(let generation, let targets, let inOneRequest):
                    reads[generation] = read(generation, targets: targets, inOneRequest: inOneRequest)
                case .cancelRead(let generation):
                    reads.removeValue(forKey: generation)?.cancel()
                case .validate(let generation, let owner, let kept):
                    guard let validator = driver.validator else { continue }
                    let feed = feed
                    Task { feed.yield(.machine(.verdict(await validator(owner, kept), generation: generation))) }
                case .claim(let claim):
                    // Its outcome is the machine's next event, before anything else happens.
                    queue = machine.handle(.claimEnded(await serve(claim))) + queue
                case .stopServing:
                    if let (kept, claim) = serving { backend.hold(kept, while: claim) }
                    serving = nil
                case .answer(let request, let saved):
                    await backend.answer(request, saved: saved)
                case .clear:
                    await backend.clear(selection)
                case .release:
                    await backend.release(selection)
                case .report(let event):
                    report(event)
                case .record(let owner, let kept):
                    driver.recorder?(owner, kept)
                case .stop:
                    return true
                }
            }
            return false
        }

        /// Claims the selection with `claim`'s content, rewritten; the number of flavours served.
        private mutating func serve(_ claim: Machine.Claim) async -> Result<Int, Machine.ClaimFailure> {
            let backend = driver.backend
            let kept = claim.narrowedTo.map { backend.narrow(claim.content, to: $0) } ?? claim.content
            var offer = backend.offer(of: kept)
            if let rewriter = driver.rewriter {
                let rewrite = await rewriter(kept)
                offer = rewrite.offer
                if !rewrite.changes.isEmpty { report(.rewritten(driver.selection, changes: rewrite.changes)) }
            }
            do {
                let made = try await backend.claim(driver.selection, offering: offer, at: claim.time)
                // What served before (a veto's restoration replaces a restored copy) finishes its transfers.
                if let (previous, previousClaim) = serving { backend.hold(previous, while: previousClaim) }
                serving = (kept, made)
                return .success(backend.flavourCount(of: offer))
            } catch {
                return .failure(Machine.ClaimFailure(reason: "\(error)"))
            }
        }

        private func read(_ generation: Int, targets: [SelectionTarget]?, inOneRequest: Bool) -> Task<Void, Never> {
            let backend = driver.backend, selection = driver.selection, feed = feed
            let request = SnapshotRequest(
                targets: targets, limits: driver.limits, timeout: driver.timeout, handover: inOneRequest,
                describesOwner: driver.recorder != nil)
            return Task {
                let outcome: Machine.ReadOutcome
                do {
                    let (kept, facts) = try await backend.snapshot(of: selection, request)
                    outcome = .kept(kept, facts)
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
