/// Every decision of a selection keeper (X11's `SelectionKeeper`), as a pure state machine: events in, actions out (the
/// shape of `ReadStateMachine`, and of swift-async-algorithms' `DebounceStateMachine`). The keeper's task only carries
/// the actions out — reads, validator calls, claims, answers — and feeds their outcomes back as events, one at a time,
/// so no decision depends on what an await let happen meanwhile.
///
/// Owners are counted in generations: each new owner (or a SAVE_TARGETS request that came before the owner's
/// change did) starts one, and an outcome of an older generation — a snapshot read, a verdict — is dropped or
/// answered as stale, never applied to the newer owner.
///
/// `Content` is what a read produced (the keeper's spooled snapshot; a plain value in tests); the machine sees
/// it only through its ``KeptFacts``. `Terms` names owners, times and handover requests as the backend does.
package struct KeeperMachine<Content: Sendable, Terms: BackendTerms>: Sendable {
    package typealias Owner = Terms.Owner
    package typealias Time = Terms.Time
    package typealias Handover = Terms.Handover

    /// A finished snapshot read.
    package enum ReadOutcome: Sendable {
        /// What was kept, and its facts.
        case kept(Content, KeptFacts)
        /// Nothing could be kept, and why.
        case failed(String)
    }

    /// What a claim made by the keeper is for.
    package enum Purpose: Sendable, Equatable {
        /// The owner went away without a successor.
        case restore
        /// The owner handed its content over: these requests are answered once the claim is made.
        case save([Handover])
        /// The validator vetoed a copy: the last accepted content serves again.
        case restorePrevious
    }

    /// A claim the keeper's task is asked to make, whose outcome comes back as ``Event/claimEnded(_:)``.
    package struct Claim: Sendable {
        package var content: Content
        package var purpose: Purpose
        /// The SAVE_TARGETS list to keep only, in its order; nil: everything kept.
        package var narrowedTo: [SelectionTarget]?
        /// The time to claim with; nil: the backend's time now. A restoration claims with the time its owner went
        /// away: an X server ignores a claim older than the selection's last change (X11 protocol,
        /// SetSelectionOwner), so an application that took the selection in between keeps it, where a claim made
        /// "now" would replace it.
        package var time: Time? = nil
    }

    package enum Event: Sendable {
        /// The keeper started; `owner` owns the selection then (nil: nobody).
        case started(owner: Owner?)
        /// A change of the selection's owner: what it means, the new owner, and when it happened (nil: unknown).
        case ownerChanged(OwnerChangeMeaning, owner: Owner?, time: Time?)
        /// The snapshot read of `generation` ended.
        case read(generation: Int, ReadOutcome)
        /// A handover request (SAVE_TARGETS), with the selection's owner when it came.
        case saveRequested(Handover, owner: Owner?)
        /// The validator's verdict on the owner of `generation`.
        case verdict(KeeperVerdict, generation: Int)
        /// The claim asked for last ended: serving this many targets, or failed with a reason.
        case claimEnded(Result<Int, ClaimFailure>)
        /// Another manager took the manager selection.
        case managerReplaced
    }

    /// Why a claim failed, for the log.
    package struct ClaimFailure: Error, Sendable, Equatable {
        package var reason: String

        package init(reason: String) { self.reason = reason }
    }

    package enum Action: Sendable {
        /// Take a snapshot of the owner's offer (of `targets` only, when given; in one MULTIPLE request when
        /// `inOneRequest`) and feed it back as ``Event/read(generation:_:)``.
        case read(generation: Int, targets: [SelectionTarget]?, inOneRequest: Bool)
        /// The read of `generation` is history: stop it.
        case cancelRead(generation: Int)
        /// Ask the validator about this owner's content; feed the verdict back.
        case validate(generation: Int, owner: Owner?, Content)
        /// Claim the selection with this content (rewritten as the rules say); feed the outcome back at once,
        /// before any other event.
        case claim(Claim)
        /// A new owner took the selection from the keeper: what it served leaves once its transfers end.
        case stopServing
        /// Answer a SAVE_TARGETS request.
        case answer(Handover, saved: Bool)
        /// Leave the selection without an owner.
        case clear
        /// Give up the selection the keeper holds.
        case release
        /// Tell the keeper's user.
        case report(KeeperReport<Owner>)
        /// This owner's content was kept and accepted: a copy the keeper's history may record. Said once per
        /// owner, never of content marked sensitive, of nothing, or of a file manager's cut (restoring a cut
        /// later would move the files again).
        case record(owner: Owner?, Content)
        /// The keeper is done.
        case stop
    }

    /// The snapshot of one owner, being read or read.
    private struct Reading {
        package var owner: Owner?
        package var generation: Int
        /// Started for a SAVE_TARGETS request ahead of the owner's change: that change is this owner's.
        package var awaitsChange = false
        /// Whether the validator judges it once read (a save's snapshot is not judged).
        package var isJudged: Bool
        /// Nil while the read runs.
        package var outcome: ReadOutcome?
        /// The owner went away while it was read: restore it once read.
        package var restoresWhenRead = false
        /// When the owner went away (the XFixes event's time), for the restoring claim.
        package var ownerLeftAt: Time?
        /// SAVE_TARGETS requests waiting for this read.
        package var saves: [Handover] = []
        /// The targets read: a save's list when the read was started for it, nil for every target of the offer.
        package var readTargets: [SelectionTarget]?

        package var kept: (Content, KeptFacts)? {
            if case .kept(let content, let facts) = outcome { return (content, facts) }
            return nil
        }
    }

    package let selection: SelectionName
    /// Whether a validator judges new owners.
    package let validates: Bool
    private var generation = 0
    private var current: Reading?
    /// What the keeper serves now, and the generation it was kept of.
    private var served: (content: Content, facts: KeptFacts, generation: Int)?
    /// The last content the validator accepted: what a veto restores.
    private var accepted: (content: Content, facts: KeptFacts)?
    /// The claim asked for and not yet ended.
    private var claiming: (content: Content, facts: KeptFacts, generation: Int, purpose: Purpose)?

    package init(selection: SelectionName, validates: Bool) {
        self.selection = selection
        self.validates = validates
    }

    /// Whether the keeper serves content now.
    package var isServing: Bool { served != nil }

    package mutating func handle(_ event: Event) -> [Action] {
        switch event {
        case .started(let owner):
            // An owner already there when the keeper starts is kept too.
            guard owner != nil else { return [] }
            return startReading(owner: owner, targets: nil, forSave: false)
        case .ownerChanged(let meaning, let owner, let time):
            switch meaning {
            // Our own claim is the restoration or the save itself; a lost claim is reported by its own change.
            case .ours: return []
            // A client that clears the selection leaves nothing to keep: its "owner" is nobody, whose read fails.
            case .newOwner, .cleared: return newOwner(owner)
            case .ownerGone: return ownerGone(owner, at: time)
            }
        case .read(let generation, let outcome):
            return read(generation, outcome)
        case .saveRequested(let request, let owner):
            return saveRequested(request, owner: owner)
        case .verdict(let verdict, let generation):
            return judged(verdict, generation: generation)
        case .claimEnded(let result):
            return claimEnded(result)
        case .managerReplaced:
            // ICCCM 2.8: another manager took over; what this one holds goes.
            return [.report(.replaced(selection))] + (served != nil ? [.release] : []) + [.stop]
        }
    }

    // MARK: - Owners

    private mutating func newOwner(_ owner: Owner?) -> [Action] {
        if let reading = current, reading.awaitsChange, reading.owner == owner {
            // The change a save's snapshot was started ahead of: that snapshot is this owner's.
            current?.awaitsChange = false
            return []
        }
        // The previous offer is history: its snapshot, finished or not, is never served.
        var actions: [Action] = []
        if served != nil {
            served = nil
            actions.append(.stopServing)
        }
        return actions + startReading(owner: owner, targets: nil, forSave: false)
    }

    private mutating func ownerGone(_ owner: Owner?, at time: Time?) -> [Action] {
        // The window or client of an owner went away; the keeper's own claim needs no rescue.
        guard owner == nil, served == nil, claiming == nil else { return [] }
        guard var reading = current else { return [.report(.lostWithOwner(selection))] }
        reading.ownerLeftAt = time
        guard reading.outcome != nil else {
            // Still reading: what it reads before the owner's connection closed is kept (`keptPart`).
            reading.restoresWhenRead = true
            current = reading
            return []
        }
        return restore(reading)
    }

    /// Serves what was kept of an owner that left without a successor, if anything may be.
    private mutating func restore(_ reading: Reading) -> [Action] {
        current = nil
        guard let (content, facts) = reading.kept, facts.refusal == nil else { return [.report(.lostWithOwner(selection))] }
        if facts.isCut { return [.report(.cutNotRestored(selection))] }
        return claim(content, facts, generation: reading.generation, for: .restore, at: reading.ownerLeftAt)
    }

    /// A new generation reads the owner's offer; the one before is history, and saves waiting for it refused.
    private mutating func startReading(owner: Owner?, targets: [SelectionTarget]?, forSave: Bool) -> [Action] {
        var actions: [Action] = []
        if let previous = current {
            if previous.outcome == nil { actions.append(.cancelRead(generation: previous.generation)) }
            for request in previous.saves { actions += refuse(request, "the selection changed while it was read") }
        }
        generation += 1
        current = Reading(owner: owner, generation: generation, awaitsChange: forSave && owner != nil, isJudged: !forSave,
                          readTargets: targets)
        // A handover's owner waits, and implements MULTIPLE: one request instead of one per target.
        return actions + [.read(generation: generation, targets: targets, inOneRequest: forSave)]
    }

    private mutating func read(_ generation: Int, _ outcome: ReadOutcome) -> [Action] {
        // A read of an owner since replaced is history (it was cancelled): nothing is said of it.
        guard var reading = current, reading.generation == generation, reading.outcome == nil else { return [] }
        reading.outcome = outcome
        current = reading
        var actions: [Action]
        switch outcome {
        case .kept(let content, let facts):
            actions = [.report(Self.keptEvent(selection, facts))]
            if validates, reading.isJudged {
                actions.append(.validate(generation: generation, owner: reading.owner, content))
            } else {
                actions += record(content, facts, owner: reading.owner)
            }
        case .failed(let reason):
            actions = [.report(.notKept(selection, reason: reason))]
        }
        let saves = reading.saves
        current?.saves = []
        if !saves.isEmpty { actions += answerSaves(saves, takenOf: generation) }
        // The owner went away while it was read (and no save took the content): restore what was kept.
        if reading.restoresWhenRead, let still = current, still.generation == generation { actions += restore(still) }
        return actions
    }

    /// A copy for the history, unless it may not be kept.
    /// Content kept and accepted goes to the recorder; what a history keeps of it (not a cut, not an ignored
    /// application, …) is the history's one decision (ClipHistory's `CapturePolicy`), not the keeper's.
    private func record(_ content: Content, _ facts: KeptFacts, owner: Owner?) -> [Action] {
        facts.refusal == nil ? [.record(owner: owner, content)] : []
    }

    package static func keptEvent(_ selection: SelectionName, _ facts: KeptFacts) -> KeeperReport<Owner> {
        if facts.isSensitive { return .skippedSensitive(selection) }
        if facts.ownerLeft {
            return .keptPart(selection, flavours: facts.flavours, bytes: facts.bytes, omitted: facts.omitted)
        }
        return .kept(selection, flavours: facts.flavours, bytes: facts.bytes, omitted: facts.omitted)
    }

    // MARK: - Handover (SAVE_TARGETS)

    private mutating func saveRequested(_ request: Handover, owner: Owner?) -> [Action] {
        // Already ours: what the requestor wants kept is kept.
        if served != nil { return [.answer(request, saved: true)] }
        var actions: [Action] = []
        if current == nil || current?.owner != owner {
            // The owner's change has not reached the keeper yet (or it had no owner at the start).
            actions = startReading(owner: owner, targets: request.targets, forSave: true)
        }
        guard let reading = current else { return actions }
        if reading.outcome == nil {
            current?.saves.append(request)
            return actions
        }
        return actions + answerSaves([request], takenOf: reading.generation)
    }

    /// The saves waiting for the snapshot of `generation`, now that it was read.
    private mutating func answerSaves(_ requests: [Handover], takenOf generation: Int) -> [Action] {
        if let served, served.generation == generation { return requests.map { .answer($0, saved: true) } }
        guard let reading = current, reading.generation == generation else {
            return requests.flatMap { refuse($0, "the selection changed while it was read") }
        }
        guard let (content, facts) = reading.kept else {
            return requests.flatMap { refuse($0, "nothing could be read") }
        }
        if let reason = facts.refusal { return requests.flatMap { refuse($0, reason) } }
        current = nil
        // Answered only once claimed: the owner exits on the answer, and everything was read from it. A handover never
        // loses a flavour already kept: the snapshot of this very copy, every flavour read while the owner lived, is
        // served whole — Emacs asks to save only UTF8_STRING of the four text targets it offered, GIMP one image type
        // of fourteen, and xclip -t STRING then failed. Only a read made for the save alone (the owner's change had
        // not arrived) holds just the listed targets, in the list's order.
        return claim(content, facts, generation: generation, for: .save(requests), narrowedTo: reading.readTargets)
    }

    private func refuse(_ request: Handover, _ reason: String) -> [Action] {
        [.answer(request, saved: false), .report(.saveRefused(selection, requestor: request.requestor, reason: reason))]
    }

    // MARK: - Validation

    private mutating func judged(_ verdict: KeeperVerdict, generation judgedGeneration: Int) -> [Action] {
        if let reading = current, reading.generation == judgedGeneration {
            if verdict == .accept {
                guard let kept = reading.kept else { return [] }
                accepted = kept
                return record(kept.0, kept.1, owner: reading.owner)
            }
            current = nil
        } else if let restored = served, restored.generation == judgedGeneration {
            // The owner left before its verdict came, and the keeper serves what it kept of it: the verdict is
            // about that content (a slow hook; without this an accepted copy was never remembered, and the next
            // veto cleared instead of restoring it).
            if verdict == .accept {
                accepted = (restored.content, restored.facts)
                return record(restored.content, restored.facts, owner: nil)
            }
        } else {
            return []
        }
        if verdict == .restorePrevious, let previous = accepted, previous.facts.flavours > 0 {
            return claim(previous.content, previous.facts, generation: generation, for: .restorePrevious)
        }
        return [.clear, .report(.vetoed(selection, restored: false))]
    }

    // MARK: - Claims

    private mutating func claim(
        _ content: Content, _ facts: KeptFacts, generation: Int, for purpose: Purpose, narrowedTo: [SelectionTarget]? = nil,
        at time: Time? = nil
    ) -> [Action] {
        claiming = (content, facts, generation, purpose)
        return [.claim(Claim(content: content, purpose: purpose, narrowedTo: narrowedTo, time: time))]
    }

    private mutating func claimEnded(_ result: Result<Int, ClaimFailure>) -> [Action] {
        guard let claim = claiming else { return [] }
        claiming = nil
        switch (result, claim.purpose) {
        case (.success(let targets), .restore):
            served = (claim.content, claim.facts, claim.generation)
            return [.report(.restored(selection, flavours: targets))]
        case (.success(let targets), .save(let requests)):
            served = (claim.content, claim.facts, claim.generation)
            return requests.map { .answer($0, saved: true) }
                + requests.prefix(1).map { .report(.saved(selection, flavours: targets, requestor: $0.requestor)) }
        case (.success, .restorePrevious):
            served = (claim.content, claim.facts, claim.generation)
            return [.report(.vetoed(selection, restored: true))]
        case (.failure(let failure), .restore):
            // Another client claimed it first: it is the owner now, and its change follows.
            return [.report(.notKept(selection, reason: failure.reason))]
        case (.failure(let failure), .save(let requests)):
            return requests.flatMap { refuse($0, failure.reason) }
        case (.failure(let failure), .restorePrevious):
            return [.report(.notKept(selection, reason: failure.reason)), .clear, .report(.vetoed(selection, restored: false))]
        }
    }
}

// Comparable actions, for the machine's tests.
extension KeeperMachine.ReadOutcome: Equatable where Content: Equatable {}
extension KeeperMachine.Claim: Equatable where Content: Equatable {}
extension KeeperMachine.Action: Equatable where Content: Equatable {}
