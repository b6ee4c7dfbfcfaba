import FoundationEssentials

/// An X display's selections as the core's drivers use them (`SelectionBackend`), over one `X11Connection`:
/// owner changes from XFixes, the pointer from QueryPointer, snapshots read as `X11Connection.snapshot` reads them
/// (MULTIPLE batches, spooled flavours), claims that hold their snapshot while they serve; for a bridge, TARGETS,
/// streamed reads (INCR) and claims whose targets are relayed from another display when a requestor asks.
package struct X11SelectionBackend: SelectionBackend {
    package typealias Terms = X11Terms
    package typealias Kept = KeptSnapshot
    package typealias Offer = SelectionOffer
    package typealias Claim = SelectionLease

    /// The connection it reads and serves on.
    package let connection: X11Connection

    package init(_ connection: X11Connection) { self.connection = connection }

    /// Connects `display`.
    package static func open(_ display: String, configuration: Configuration) async throws -> X11SelectionBackend {
        X11SelectionBackend(try await X11Connection.open(display: display, configuration: configuration))
    }

    package func ownerChanges(of selections: [SelectionName]) async throws -> AsyncThrowingStream<BackendOwnerChange<X11Terms>, any Error> {
        let changes = try await connection.ownerChanges(of: selections)
        return AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    for try await change in changes { continuation.yield(change.backendChange) }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    package func owner(of selection: SelectionName) async -> X11Window? {
        (try? await connection.owner(of: selection)) ?? nil
    }

    package func isPointerButtonHeld() async -> Bool? {
        try? await connection.isPointerButtonHeld()
    }

    package func snapshot(of selection: SelectionName, _ request: SnapshotRequest) async throws -> (KeptSnapshot, KeptFacts) {
        // Who copied, asked first, while the owner is surely there (a history's rules name applications): a few
        // round trips.
        var ownerClass: WindowClass?
        if request.describesOwner, let owner = await owner(of: selection) {
            ownerClass = try? await connection.applicationClass(of: owner)
        }
        let snapshot = try await connection.snapshot(
            selection, targets: request.targets, limits: request.limits, timeout: request.timeout,
            inOneRequest: request.handover)
        return (KeptSnapshot(snapshot, ownerClass: ownerClass), KeptFacts(snapshot))
    }

    package func narrow(_ kept: KeptSnapshot, to targets: [SelectionTarget]) -> KeptSnapshot {
        kept.narrow(to: targets)
        return kept
    }

    package func offer(of kept: KeptSnapshot) -> SelectionOffer { kept.snapshot.offer }

    package func flavourCount(of offer: SelectionOffer) -> Int { offer.representations.count }

    package func claim(_ selection: SelectionName, offering offer: SelectionOffer, at time: X11Timestamp?) async throws -> SelectionLease {
        try await connection.claim(selection, offering: offer, at: time)
    }

    package func hold(_ kept: KeptSnapshot, while claim: SelectionLease) {
        // Anything but a claim drops `kept`, and with it the spooled files.
        kept.holdWhileServing(claim)
    }

    package func release(_ selection: SelectionName) async {
        await connection.release(selection)
    }

    package func clear(_ selection: SelectionName) async {
        // A claim of nothing, given up at once, leaves the selection without an owner.
        if (try? await connection.claim(selection, offering: SelectionOffer([]))) != nil {
            await connection.release(selection)
        }
    }

    package func answer(_ request: SaveTargetsRequest, saved: Bool) async {
        await connection.answer(request, saved: saved)
    }

    // MARK: What a bridge uses

    package var naming: FlavourNaming { .x11Targets }

    package func serverIdentity() async -> String { await connection.serverIdentity }

    package func shares(_ selection: SelectionName) -> Bool { true }

    package func offeredTypes(of selection: SelectionName, timeout: Duration?) async throws -> [SelectionTarget] {
        try await connection.targets(of: selection, timeout: timeout)
    }

    package func ownsSelection(_ selection: SelectionName) async -> Bool {
        await owner(of: selection) == connection.utilityWindow
    }

    package func read(_ selection: SelectionName, type: SelectionTarget, timeout: Duration?, into sink: FlavourSink) async throws {
        let summary = try await connection.readChunks(selection, target: type, timeout: timeout) { reply in
            try await sink(FlavourChunk(reply.bytes, type: reply.type, format: reply.format))
        }
        // An empty reply has no chunk: its type still goes over.
        if summary.payload == 0 { try await sink(FlavourChunk(Data(), type: summary.type, format: summary.format)) }
    }

    package func types(of kept: KeptSnapshot) -> [SelectionTarget] { kept.snapshot.flavours.map(\.target) }

    package func read(_ type: SelectionTarget, of kept: KeptSnapshot, into sink: FlavourSink) async throws {
        guard let flavour = kept.snapshot.flavours.first(where: { $0.target == type }) else {
            throw SelectionError(.targetUnavailable, "\(type) was not kept")
        }
        try await flavour.content.read(as: flavour.type, format: flavour.format, into: sink)
    }

    package func claim(_ selection: SelectionName, relaying offer: RelayOffer) async throws {
        let representations = offer.flavours.map { flavour in
            SelectionOffer.Representation(target: flavour.type, source: .relay { relay in
                try await flavour.produce { chunk in try await relay.send(chunk.bytes, type: chunk.type, format: chunk.format) }
            })
        } + offer.marks.map { SelectionOffer.Representation(target: $0.type, source: .bytes($0.bytes)) }
        let lease = try await connection.claim(selection, offering: SelectionOffer(representations, isSensitive: offer.isSensitive))
        // Ends by itself once the lease does (ownership lost and the pastes in flight over, so their outcome is still
        // told), at the latest when the connection shuts down.
        let outcome = offer.outcome
        Task {
            for await event in lease.events {
                switch event {
                case .served(let target, _, let byteCount): outcome(.served(target, byteCount: byteCount))
                case .failed(let target, _, let reason): outcome(.failed(target, reason: reason))
                case .lost, .saveTargetsRequested: break
                }
            }
        }
    }

    package func shutdown() async { await connection.shutdown() }
}

extension SelectionError: ReportedError {
    package var reportedMessage: String { message }
}

extension OwnerChange {
    /// The change as the core's drivers take it: its meaning, the owner's window, and the server time (none for
    /// CurrentTime).
    var backendChange: BackendOwnerChange<X11Terms> {
        BackendOwnerChange(selection: selection, meaning: meaning, owner: owner, time: timestamp == .currentTime ? nil : timestamp)
    }
}
