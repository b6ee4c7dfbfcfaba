/// Every decision of a selection sync (X11's `SelectionSync`), as a pure state machine: events in, actions out. Its
/// task looks at the pointer, sleeps, reads and claims when told, and feeds the outcomes back.
///
/// Each change the sync copies (``SyncPolicy/copies(_:)``) starts a generation; whatever an older generation
/// was doing — settling, reading — is cancelled, and an outcome of it that still arrives is dropped: a change
/// overtaken by a newer one is never copied.
package struct SyncMachine<Content: Sendable, Instant: InstantProtocol>: Sendable where Instant.Duration == Duration {
    package enum Event: Sendable {
        /// An owner change of the source selection, seen at `now`.
        case changed(OwnerChangeMeaning, now: Instant)
        /// The pointer, looked at `now` for `generation`: whether a button is held.
        case looked(generation: Int, buttonHeld: Bool, now: Instant)
        /// The snapshot of `generation` was read (or failed, with a reason).
        case read(generation: Int, Result<(Content, KeptFacts), ReadFailure>)
        /// The claim of the destination ended: serving, or failed with a reason.
        case claimEnded(generation: Int, Result<Int, ReadFailure>)
    }

    /// Why a read or a claim failed, for the log.
    package struct ReadFailure: Error, Sendable, Equatable {
        package var reason: String

        package init(reason: String) { self.reason = reason }
    }

    package enum Action: Sendable {
        /// Stop what `generation` is doing (a newer change came).
        case cancel(generation: Int)
        /// Look at the pointer's buttons for `generation`, after `after` (none: now).
        case look(generation: Int, after: Duration?)
        /// Take a snapshot of the source for `generation`.
        case read(generation: Int)
        /// Serve this content on the destination.
        case claim(generation: Int, Content)
        /// Tell the sync's user.
        case report(SyncReport)
    }

    private enum Phase {
        case idle
        case settling(since: Instant)
        case reading
        case claiming(flavours: Int)
    }

    package let source: SelectionName
    package let destination: SelectionName
    package let settle: Duration
    package let maximumWait: Duration
    private var generation = 0
    private var phase = Phase.idle

    package init(from source: SelectionName, to destination: SelectionName, settle: Duration, maximumWait: Duration) {
        self.source = source
        self.destination = destination
        self.settle = settle
        self.maximumWait = maximumWait
    }

    package mutating func handle(_ event: Event) -> [Action] {
        switch event {
        case .changed(let change, let now):
            guard SyncPolicy.copies(change) else { return [] }
            // A newer change overtakes one still settling (or being read).
            var actions: [Action] = []
            if case .idle = phase {} else { actions.append(.cancel(generation: generation)) }
            generation += 1
            phase = .settling(since: now)
            return actions + [.look(generation: generation, after: settle)]
        case .looked(let looked, let buttonHeld, let now):
            guard looked == generation, case .settling(let since) = phase else { return [] }
            switch SyncPolicy.step(waited: since.duration(to: now), buttonHeld: buttonHeld, settle: settle, maximumWait: maximumWait) {
            case .wait(let interval):
                return [.look(generation: generation, after: interval)]
            case .copy:
                phase = .reading
                return [.read(generation: generation)]
            }
        case .read(let read, let result):
            guard read == generation, case .reading = phase else { return [] }
            switch result {
            case .success(let (content, facts)):
                if let reason = facts.refusal {
                    phase = .idle
                    return [.report(.notCopied(from: source, to: destination, reason: reason))]
                }
                phase = .claiming(flavours: facts.flavours)
                return [.claim(generation: generation, content)]
            case .failure(let failure):
                phase = .idle
                return [.report(.notCopied(from: source, to: destination, reason: failure.reason))]
            }
        case .claimEnded(let claimed, let result):
            guard claimed == generation, case .claiming(let flavours) = phase else { return [] }
            phase = .idle
            switch result {
            case .success: return [.report(.copied(from: source, to: destination, flavours: flavours))]
            case .failure(let failure): return [.report(.notCopied(from: source, to: destination, reason: failure.reason))]
            }
        }
    }
}

// Comparable actions, for the machine's tests.
extension SyncMachine.Action: Equatable where Content: Equatable {}
