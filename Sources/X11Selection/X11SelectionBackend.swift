/// An X display's selections as the core's drivers use them (`SelectionBackend`), over one `X11Connection`:
/// owner changes from XFixes, the pointer from QueryPointer, snapshots read as `X11Connection.snapshot` reads them
/// (MULTIPLE batches, spooled flavours), claims that hold their snapshot while they serve.
struct X11SelectionBackend: SelectionBackend {
    typealias Terms = X11Terms
    typealias Kept = KeptSnapshot
    typealias Offer = SelectionOffer
    typealias Claim = SelectionLease

    /// The connection it reads and serves on.
    let connection: X11Connection

    init(_ connection: X11Connection) { self.connection = connection }

    func ownerChanges(of selections: [SelectionName]) async throws -> AsyncThrowingStream<BackendOwnerChange<X11Terms>, any Error> {
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

    func owner(of selection: SelectionName) async -> X11Window? {
        (try? await connection.owner(of: selection)) ?? nil
    }

    func isPointerButtonHeld() async -> Bool? {
        try? await connection.isPointerButtonHeld()
    }

    func snapshot(of selection: SelectionName, _ request: SnapshotRequest) async throws -> (KeptSnapshot, KeptFacts) {
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

    func narrow(_ kept: KeptSnapshot, to targets: [SelectionTarget]) -> KeptSnapshot {
        kept.narrow(to: targets)
        return kept
    }

    func offer(of kept: KeptSnapshot) -> SelectionOffer { kept.snapshot.offer }

    func flavourCount(of offer: SelectionOffer) -> Int { offer.representations.count }

    func claim(_ selection: SelectionName, offering offer: SelectionOffer, at time: X11Timestamp?) async throws -> SelectionLease {
        try await connection.claim(selection, offering: offer, at: time)
    }

    func hold(_ kept: KeptSnapshot, while claim: SelectionLease) {
        // Anything but a claim drops `kept`, and with it the spooled files.
        kept.holdWhileServing(claim)
    }

    func release(_ selection: SelectionName) async {
        await connection.release(selection)
    }

    func clear(_ selection: SelectionName) async {
        // A claim of nothing, given up at once, leaves the selection without an owner.
        if (try? await connection.claim(selection, offering: SelectionOffer([]))) != nil {
            await connection.release(selection)
        }
    }

    func answer(_ request: SaveTargetsRequest, saved: Bool) async {
        await connection.answer(request, saved: saved)
    }
}

extension OwnerChange {
    /// The change as the core's drivers take it: its meaning, the owner's window, and the server time (none for
    /// CurrentTime).
    var backendChange: BackendOwnerChange<X11Terms> {
        BackendOwnerChange(selection: selection, meaning: meaning, owner: owner, time: timestamp == .currentTime ? nil : timestamp)
    }
}
