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

    private struct Watcher {
        var selections: Set<SelectionName>
        var continuation: AsyncThrowingStream<BackendOwnerChange<Terms>, any Error>.Continuation
    }

    private struct State {
        var owners: [SelectionName: Int] = [:]
        var offers: [SelectionName: Offer] = [:]
        var watchers: [UInt64: Watcher] = [:]
        var nextWatcher: UInt64 = 0
        var time = 0
        var buttonHeld: Bool? = false
        var claims: [(SelectionName, Offer)] = []
        var snapshots = 0
    }

    private let state = Mutex(State())

    public init() {}

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

    /// Ends every watcher's owner changes, with `error` when given (a connection lost).
    public func tearDown(error: (any Error)? = nil) {
        let watchers = state.withLock { state in
            defer { state.watchers = [:] }
            return Array(state.watchers.values)
        }
        for watcher in watchers { watcher.continuation.finish(throwing: error) }
    }

    // MARK: What a test looks at

    /// Who owns `selection` (``ours`` for this backend's claims).
    public func owner(of selection: SelectionName) -> Int? { state.withLock { $0.owners[selection] } }

    /// What `selection` offers now.
    public func offer(of selection: SelectionName) -> Offer? { state.withLock { $0.offers[selection] } }

    /// Every claim made through the backend, in order.
    public var claims: [(SelectionName, Offer)] { state.withLock { $0.claims } }

    /// How many snapshots were read.
    public var snapshots: Int { state.withLock { $0.snapshots } }

    /// How many sequences watch owner changes.
    public var watchers: Int { state.withLock { $0.watchers.count } }

    // MARK: SelectionBackend

    public func ownerChanges(of selections: [SelectionName]) async throws
        -> AsyncThrowingStream<BackendOwnerChange<Terms>, any Error>
    {
        let (stream, continuation) = AsyncThrowingStream<BackendOwnerChange<Terms>, any Error>.makeStream()
        let id = state.withLock { state -> UInt64 in
            state.nextWatcher += 1
            state.watchers[state.nextWatcher] = Watcher(selections: Set(selections), continuation: continuation)
            return state.nextWatcher
        }
        continuation.onTermination = { [weak self] _ in self?.state.withLock { _ = $0.watchers.removeValue(forKey: id) } }
        return stream
    }

    public func isPointerButtonHeld() async -> Bool? { state.withLock { $0.buttonHeld } }

    package func snapshot(of selection: SelectionName, limits: SnapshotLimits) async throws -> (Offer, KeptFacts) {
        let offer = state.withLock { state -> Offer? in
            state.snapshots += 1
            return state.owners[selection] == nil ? nil : state.offers[selection]
        }
        guard let offer else { throw InMemoryBackendError.noOwner(selection) }
        guard case .keep(let targets) = SnapshotPolicy.plan(for: offer.targets) else {
            return (Offer([]), KeptFacts(flavours: 0, isSensitive: true))
        }
        var kept: [Flavour] = []
        var omitted: [SelectionTarget] = []
        for step in SnapshotPolicy.steps(for: targets, keeps: limits.keepsTarget, maximumFlavours: limits.maximumFlavours) {
            switch step {
            case .read(let target):
                guard let flavour = offer.flavours.first(where: { $0.target == target }),
                    flavour.bytes.count <= limits.maximumFlavourBytes
                else {
                    omitted.append(target)
                    continue
                }
                kept.append(flavour)
            case .omit(let target, _):
                omitted.append(target)
            }
        }
        let isCut = SnapshotPolicy.isCut(kept.map { ($0.target, $0.bytes) })
        return (Offer(kept), KeptFacts(flavours: kept.count, bytes: kept.reduce(0) { $0 + $1.bytes.count }, omitted: omitted,
                                       isCut: isCut))
    }

    public func claim(_ selection: SelectionName, with kept: Offer) async throws -> Int {
        state.withLock { $0.claims.append((selection, kept)) }
        change(selection, owner: Self.ours, offer: kept, meaning: .ours)
        return kept.flavours.count
    }

    private func change(_ selection: SelectionName, owner: Int?, offer: Offer?, meaning: OwnerChangeMeaning) {
        let (watchers, change) = state.withLock { state in
            state.owners[selection] = owner
            state.offers[selection] = offer
            state.time += 1
            let change = BackendOwnerChange<Terms>(selection: selection, meaning: meaning, owner: owner, time: state.time)
            return (state.watchers.values.filter { $0.selections.contains(selection) }, change)
        }
        for watcher in watchers { watcher.continuation.yield(change) }
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
}
