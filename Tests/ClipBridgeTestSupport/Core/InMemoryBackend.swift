// ClipBridge test support: selections held in memory, for the orchestration's unit tests.

import FoundationEssentials
import SelectionCore
import Synchronization

/// Selections held in memory and changed by the test as applications change a display's: the backend the core's
/// drivers run over in their unit tests — no display, no sleep (with a ``ManualClock``), each step the test's.
/// Owners are numbers (this backend's own claims are owner ``ours``); times count the changes.
public final class InMemoryBackend: SelectionBackend, Sendable {
    public enum Terms: BackendTerms {
        public typealias Owner = Int
        public typealias Time = Int
        public typealias Handover = InMemoryHandover
    }

    /// One flavour of an offer.
    public struct Flavour: Sendable, Equatable {
        public var target: SelectionTarget
        public var bytes: Data

        public init(_ target: SelectionTarget, _ bytes: Data) {
            self.target = target
            self.bytes = bytes
        }

        public init(_ target: SelectionTarget, _ text: String) { self.init(target, Data(text.utf8)) }
    }

    /// What an owner offers, in its order; what a snapshot keeps.
    public struct Offer: Sendable, Equatable {
        public var flavours: [Flavour]

        public init(_ flavours: [Flavour]) { self.flavours = flavours }

        public var targets: [SelectionTarget] { flavours.map(\.target) }
    }

    /// The owner this backend's own claims have.
    public static let ours = 0

    private let fanOut = OwnerChangeFanOut<BackendOwnerChange<Terms>>()

    private struct State {
        var owners: [SelectionName: Int] = [:]
        var offers: [SelectionName: Offer] = [:]
        var time = 0
        var buttonHeld: Bool? = false
        var claims: [(SelectionName, Offer)] = []
        var snapshots = 0
        /// Pieces of owners' flavours read so far (a transfer's progress).
        var piecesRead = 0
        var answers: [(InMemoryHandover, Bool)] = []
        var holds = 0
        var ownerQueries = 0
        var readsHeld = false
        /// Changes made inside ``together(_:)``, told to the watchers at its end.
        var queued: [BackendOwnerChange<Terms>]?
        var heldReads: [CheckedContinuation<Void, Never>] = []
        /// What this backend's relaying claims offer, by selection (a bridge's claims).
        var relays: [SelectionName: RelayOffer] = [:]
        var outcomes: [RelayOutcome] = []
        var shutDown = false
    }

    private let state = Mutex(State())
    /// How its flavours are named (a bridge translates between namings).
    package let flavourNaming: FlavourNaming
    /// Which server it is (one server named twice is not bridged to itself).
    public let identity: String

    /// The size of the pieces an owner's flavour is read in (as a streamed reply comes).
    public let pieceSize: Int

    package init(naming: FlavourNaming = .x11Targets, identity: String? = nil, pieceSize: Int = 4) {
        flavourNaming = naming
        self.pieceSize = pieceSize
        self.identity = identity ?? "memory:\(UInt(bitPattern: ObjectIdentifier(Self.self).hashValue))-\(Self.counter.add(1, ordering: .relaxed).newValue)"
    }

    private static let counter = Atomic<Int>(0)

    // MARK: What applications do

    /// An application (`owner`, not ``ours``) copies `offer` to `selection`.
    public func copy(_ offer: Offer, to selection: SelectionName, by owner: Int) {
        precondition(owner != Self.ours)
        change(selection, owner: owner, offer: offer, meaning: .newOwner)
    }

    /// The owner of `selection` goes away (its window closed, its process ended) and takes its offer with it.
    public func ownerLeaves(_ selection: SelectionName) {
        change(selection, owner: nil, offer: nil, meaning: .ownerGone)
    }

    /// An application leaves `selection` without an owner on purpose.
    public func clear(_ selection: SelectionName) {
        change(selection, owner: nil, offer: nil, meaning: .cleared)
    }

    /// Whether a pointer button is held (nil: the backend cannot tell, as Wayland's data-control).
    public func setButtonHeld(_ held: Bool?) { state.withLock { $0.buttonHeld = held } }

    /// Makes the changes `body` makes before anyone hears of any of them: to a watcher they come in order, but the
    /// selection already is as the last one left it (an X server processes requests faster than a client reads
    /// events).
    public func together(_ body: () -> Void) {
        state.withLock { $0.queued = [] }
        body()
        let queued = state.withLock { state in
            defer { state.queued = nil }
            return state.queued ?? []
        }
        for change in queued { fanOut.tell(change, about: change.selection) }
    }

    /// Makes every snapshot started from now on wait, after it saw the owner, until ``releaseReads()``: what the
    /// owner does meanwhile (leave, be replaced) happens during the read.
    public func holdReads() { state.withLock { $0.readsHeld = true } }

    /// Lets the waiting snapshots go on, and the next ones run at once.
    public func releaseReads() {
        let waiting = state.withLock { state in
            state.readsHeld = false
            defer { state.heldReads = [] }
            return state.heldReads
        }
        for read in waiting { read.resume() }
    }

    /// How many snapshots wait for ``releaseReads()``.
    public var readsWaiting: Int { state.withLock { $0.heldReads.count } }

    /// Ends every watcher's owner changes, with `error` when given (a connection lost).
    public func tearDown(error: (any Error)? = nil) {
        fanOut.finishAll(throwing: error)
    }

    /// A requestor pastes `type` from this backend's relaying claim of `selection` (a bridge's): the pieces the relay
    /// made, joined, and the last piece's type. Throws what the relay threw.
    public func paste(_ selection: SelectionName, _ type: SelectionTarget) async throws -> (bytes: Data, type: SelectionTarget) {
        guard let offer = state.withLock({ $0.relays[selection] }), state.withLock({ $0.owners[selection] }) == Self.ours else {
            throw InMemoryBackendError.noOwner(selection)
        }
        if let mark = offer.marks.first(where: { $0.type == type }) { return (mark.bytes, mark.type) }
        guard let flavour = offer.flavours.first(where: { $0.type == type }) else { throw InMemoryBackendError.notOffered(type) }
        let pasted = Mutex((bytes: Data(), type: type))
        do {
            try await flavour.produce { chunk in
                pasted.withLock { pasted in
                    pasted.bytes.append(chunk.bytes)
                    pasted.type = chunk.type
                }
            }
        } catch {
            offer.outcome(.failed(type, reason: reportedMessage(of: error)))
            throw error
        }
        let result = pasted.withLock { $0 }
        offer.outcome(.served(type, byteCount: result.bytes.count))
        return result
    }

    // MARK: What a test looks at

    /// What this backend's relaying claim of `selection` offers: its flavours' names, then its marks'.
    public func relayedTypes(of selection: SelectionName) -> [SelectionTarget]? {
        state.withLock { state in
            guard state.owners[selection] == Self.ours, let offer = state.relays[selection] else { return nil }
            return offer.flavours.map(\.type) + offer.marks.map(\.type) + (offer.isSensitive ? [.passwordManagerHint] : [])
        }
    }

    /// Whether the backend was shut down.
    public var isShutDown: Bool { state.withLock { $0.shutDown } }

    /// Who owns `selection` (``ours`` for this backend's claims).
    public func currentOwner(of selection: SelectionName) -> Int? { state.withLock { $0.owners[selection] } }

    /// What `selection` offers now.
    public func offer(of selection: SelectionName) -> Offer? { state.withLock { $0.offers[selection] } }

    /// Every claim made through the backend, in order.
    public var claims: [(SelectionName, Offer)] { state.withLock { $0.claims } }

    /// How many snapshots were read.
    public var snapshots: Int { state.withLock { $0.snapshots } }

    /// How many pieces of owners' flavours were read (``pieceSize`` each): how far a streamed read has come.
    public var piecesRead: Int { state.withLock { $0.piecesRead } }

    /// Every handover answered, in order: the request, and whether it was saved.
    public var answers: [(InMemoryHandover, Bool)] { state.withLock { $0.answers } }

    /// How many times a kept offer was held for a claim that stopped serving.
    public var holds: Int { state.withLock { $0.holds } }

    /// How many sequences watch owner changes.
    public var watchers: Int { fanOut.count }

    // MARK: SelectionBackend

    public func ownerChanges(of selections: [SelectionName]) async throws
        -> AsyncThrowingStream<BackendOwnerChange<Terms>, any Error>
    {
        fanOut.changes(of: selections)
    }

    public func owner(of selection: SelectionName) async -> Int? {
        state.withLock { state in
            state.ownerQueries += 1
            return state.owners[selection]
        }
    }

    /// How many times a driver asked who owns a selection (a keeper asks once as it starts: a test waits for it
    /// before it copies, or the copy may come before the question and be seen twice).
    public var ownerQueries: Int { state.withLock { $0.ownerQueries } }

    public func isPointerButtonHeld() async -> Bool? { state.withLock { $0.buttonHeld } }

    /// The owner's offer as ``SnapshotPolicy`` keeps it. An owner that left while the read was held (``holdReads()``)
    /// leaves its first flavour only, read whole before it went (`ownerLeft`); a newer owner's offer is never mixed
    /// in.
    package func snapshot(of selection: SelectionName, _ request: SnapshotRequest) async throws -> (Offer, KeptFacts) {
        let (owner, offer, held) = state.withLock { state in
            state.snapshots += 1
            return (state.owners[selection], state.offers[selection], state.readsHeld)
        }
        guard let owner, owner != Self.ours, let offer else { throw InMemoryBackendError.noOwner(selection) }
        if held { await withCheckedContinuation { continuation in state.withLock { $0.heldReads.append(continuation) } } }
        let ownerLeft = state.withLock { $0.owners[selection] } == nil
        var reads = 0
        let (flavours, facts) = await SnapshotReading.read(offered: offer.targets, request) { target, spool in
            // An owner gone during the read left what was read whole before it went: the first flavour.
            if ownerLeft && reads > 0 { throw SnapshotReading.Stop.ownerLeft }
            reads += 1
            guard let flavour = offer.flavours.first(where: { $0.target == target }) else { throw InMemoryBackendError.noOwner(selection) }
            try spool.append(flavour.bytes)
        }
        return (Offer(try flavours.map { Flavour($0.target, try $0.content.wholeBytes()) }), facts)
    }

    public func narrow(_ kept: Offer, to targets: [SelectionTarget]) -> Offer {
        Offer(targets.compactMap { target in kept.flavours.first { $0.target == target } })
    }

    public func offer(of kept: Offer) -> Offer { kept }

    public func flavourCount(of offer: Offer) -> Int { offer.flavours.count }

    /// Claims as an X server does: a claim older than the selection's last change is refused.
    public func claim(_ selection: SelectionName, offering offer: Offer, at time: Int?) async throws -> Int {
        let refused = state.withLock { state -> Bool in
            if let time, time < state.time { return true }
            state.claims.append((selection, offer))
            return false
        }
        if refused { throw InMemoryBackendError.claimTooOld(selection) }
        change(selection, owner: Self.ours, offer: offer, meaning: .ours)
        return state.withLock { $0.claims.count }
    }

    public func hold(_ kept: Offer, while claim: Int) { state.withLock { $0.holds += 1 } }

    public func release(_ selection: SelectionName) async {
        guard state.withLock({ $0.owners[selection] }) == Self.ours else { return }
        change(selection, owner: nil, offer: nil, meaning: .cleared)
    }

    public func clear(_ selection: SelectionName) async {
        change(selection, owner: nil, offer: nil, meaning: .cleared)
    }

    public func answer(_ request: InMemoryHandover, saved: Bool) async {
        state.withLock { $0.answers.append((request, saved)) }
    }

    // MARK: What a bridge uses

    package var naming: FlavourNaming { flavourNaming }

    public func serverIdentity() async -> String { identity }

    public func shares(_ selection: SelectionName) -> Bool { true }

    public func offeredTypes(of selection: SelectionName, timeout: Duration?) async throws -> [SelectionTarget] {
        try state.withLock { state in
            guard let owner = state.owners[selection], owner != Self.ours, let offer = state.offers[selection] else {
                throw InMemoryBackendError.noOwner(selection)
            }
            return offer.targets
        }
    }

    public func ownsSelection(_ selection: SelectionName) async -> Bool { state.withLock { $0.owners[selection] } == Self.ours }

    package func read(_ selection: SelectionName, type: SelectionTarget, timeout: Duration?, into sink: FlavourSink) async throws {
        let flavour = try state.withLock { state in
            guard let owner = state.owners[selection], owner != Self.ours, let offer = state.offers[selection] else {
                throw InMemoryBackendError.noOwner(selection)
            }
            guard let flavour = offer.flavours.first(where: { $0.target == type }) else { throw InMemoryBackendError.notOffered(type) }
            return flavour
        }
        // In pieces, as a streamed reply comes.
        var offset = 0
        repeat {
            let piece = flavour.bytes.dropFirst(offset).prefix(pieceSize)
            state.withLock { $0.piecesRead += 1 }
            try await sink(FlavourChunk(Data(piece), type: type))
            offset += pieceSize
        } while offset < flavour.bytes.count
    }

    public func types(of kept: Offer) -> [SelectionTarget] { kept.targets }

    package func read(_ type: SelectionTarget, of kept: Offer, into sink: FlavourSink) async throws {
        guard let flavour = kept.flavours.first(where: { $0.target == type }) else { throw InMemoryBackendError.notOffered(type) }
        try await sink(FlavourChunk(flavour.bytes, type: type))
    }

    package func claim(_ selection: SelectionName, relaying offer: RelayOffer) async throws {
        state.withLock { state in
            state.relays[selection] = offer
            state.claims.append((selection, Offer(offer.flavours.map { Flavour($0.type, Data()) })))
        }
        change(selection, owner: Self.ours, offer: Offer(offer.flavours.map { Flavour($0.type, Data()) }), meaning: .ours)
    }

    public func shutdown() async {
        state.withLock { $0.shutDown = true }
        tearDown()
    }

    private func change(_ selection: SelectionName, owner: Int?, offer: Offer?, meaning: OwnerChangeMeaning) {
        let (change, now) = state.withLock { state -> (BackendOwnerChange<Terms>, Bool) in
            state.owners[selection] = owner
            state.offers[selection] = offer
            state.time += 1
            let change = BackendOwnerChange<Terms>(selection: selection, meaning: meaning, owner: owner, time: state.time)
            guard state.queued != nil else { return (change, true) }
            state.queued?.append(change)
            return (change, false)
        }
        if now { fanOut.tell(change, about: selection) }
    }
}

/// A handover request in the in-memory backend.
public struct InMemoryHandover: HandoverRequest {
    public var id: UInt64
    public var requestor: Int
    public var targets: [SelectionTarget]?

    public init(id: UInt64, requestor: Int, targets: [SelectionTarget]?) {
        self.id = id
        self.requestor = requestor
        self.targets = targets
    }
}

/// Why the in-memory backend refused.
public enum InMemoryBackendError: Error, Equatable {
    /// Nobody owns the selection.
    case noOwner(SelectionName)
    /// A claim at a time older than the selection's last change (an X server ignores it).
    case claimTooOld(SelectionName)
    /// The owner does not offer that type.
    case notOffered(SelectionTarget)
}
