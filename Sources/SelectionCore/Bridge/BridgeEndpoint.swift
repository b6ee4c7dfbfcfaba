import FoundationEssentials

/// One connected side of a bridge, as ``BridgeDriver`` uses it: a ``SelectionBackend`` of any kind behind the few
/// operations a bridge needs, so that one driver joins X displays, Wayland compositors, or one of each.
package struct BridgeEndpoint: Sendable {
    /// An owner change as the backend told it.
    package struct Change: Sendable {
        package var selection: SelectionName
        package var meaning: OwnerChangeMeaning
        /// The backend's name for the new owner (X11: its window), for a ``BridgeCoupling`` to look at.
        package var owner: (any Sendable)?

        package init(selection: SelectionName, meaning: OwnerChangeMeaning, owner: (any Sendable)?) {
            self.selection = selection
            self.meaning = meaning
            self.owner = owner
        }
    }

    /// An owner's offer as read for the bridge: its flavours, and how to read each.
    package struct SourceOffer: Sendable {
        /// The flavours, named as the source backend names them.
        package var types: [SelectionTarget]
        /// Reads one of them.
        package var read: @Sendable (_ type: SelectionTarget, _ sink: FlavourSink) async throws -> Void

        package init(types: [SelectionTarget], read: @escaping @Sendable (_ type: SelectionTarget, _ sink: FlavourSink) async throws -> Void) {
            self.types = types
            self.read = read
        }
    }

    /// The backend itself, for a ``BridgeCoupling`` that knows its kind.
    package let backend: any Sendable
    package let naming: FlavourNaming
    package let serverIdentity: @Sendable () async -> String
    package let shares: @Sendable (SelectionName) -> Bool
    package let ownerChanges: @Sendable ([SelectionName]) async throws -> AsyncThrowingStream<Change, any Error>
    package let isOwned: @Sendable (SelectionName) async -> Bool
    package let ownsSelection: @Sendable (SelectionName) async -> Bool
    /// The owner's offer, read live at each paste.
    package let liveOffer: @Sendable (SelectionName, Duration?) async throws -> SourceOffer
    /// The owner's offer read whole now (``SnapshotPolicy`` applied) and served from what was read.
    package let keptOffer: @Sendable (SelectionName, Duration?) async throws -> (SourceOffer, KeptFacts)
    package let claim: @Sendable (SelectionName, RelayOffer) async throws -> Void
    package let release: @Sendable (SelectionName) async -> Void
    /// Told once after the side connected, when the bridge has offered it everything it had then (a link to another
    /// machine tells the far end, whose own content then only fills what this end had not).
    package let settle: @Sendable () async -> Void
    package let shutdown: @Sendable () async -> Void

    /// A side made of its operations (a side that is not a ``SelectionBackend``: a link to another machine).
    package init(
        backend: any Sendable, naming: FlavourNaming, serverIdentity: @escaping @Sendable () async -> String,
        shares: @escaping @Sendable (SelectionName) -> Bool,
        ownerChanges: @escaping @Sendable ([SelectionName]) async throws -> AsyncThrowingStream<Change, any Error>,
        isOwned: @escaping @Sendable (SelectionName) async -> Bool,
        ownsSelection: @escaping @Sendable (SelectionName) async -> Bool,
        liveOffer: @escaping @Sendable (SelectionName, Duration?) async throws -> SourceOffer,
        keptOffer: @escaping @Sendable (SelectionName, Duration?) async throws -> (SourceOffer, KeptFacts),
        claim: @escaping @Sendable (SelectionName, RelayOffer) async throws -> Void,
        release: @escaping @Sendable (SelectionName) async -> Void,
        settle: @escaping @Sendable () async -> Void = {},
        shutdown: @escaping @Sendable () async -> Void
    ) {
        self.backend = backend
        self.naming = naming
        self.serverIdentity = serverIdentity
        self.shares = shares
        self.ownerChanges = ownerChanges
        self.isOwned = isOwned
        self.ownsSelection = ownsSelection
        self.liveOffer = liveOffer
        self.keptOffer = keptOffer
        self.claim = claim
        self.release = release
        self.settle = settle
        self.shutdown = shutdown
    }

    /// `backend` as a bridge's side.
    package init<Backend: SelectionBackend>(_ backend: Backend) {
        self.backend = backend
        naming = backend.naming
        serverIdentity = { await backend.serverIdentity() }
        shares = { backend.shares($0) }
        ownerChanges = { selections in
            let changes = try await backend.ownerChanges(of: selections)
            return AsyncThrowingStream { continuation in
                let task = Task {
                    do {
                        for try await change in changes {
                            continuation.yield(Change(selection: change.selection, meaning: change.meaning, owner: change.owner))
                        }
                        continuation.finish()
                    } catch {
                        continuation.finish(throwing: error)
                    }
                }
                continuation.onTermination = { _ in task.cancel() }
            }
        }
        isOwned = { await backend.owner(of: $0) != nil }
        ownsSelection = { await backend.ownsSelection($0) }
        liveOffer = { selection, timeout in
            let types = try await backend.offeredTypes(of: selection, timeout: timeout)
            return SourceOffer(types: types) { type, sink in
                try await backend.read(selection, type: type, timeout: timeout, into: sink)
            }
        }
        keptOffer = { selection, timeout in
            let (kept, facts) = try await backend.snapshot(of: selection, SnapshotRequest(limits: SnapshotLimits(), timeout: timeout))
            // The kept content lives as long as something can still read it.
            return (SourceOffer(types: backend.types(of: kept)) { type, sink in try await backend.read(type, of: kept, into: sink) }, facts)
        }
        claim = { try await backend.claim($0, relaying: $1) }
        release = { await backend.release($0) }
        settle = {}
        shutdown = { await backend.shutdown() }
    }
}
