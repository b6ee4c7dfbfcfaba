/// An X display's selections as the core's drivers use them (`SelectionBackend`), over one `X11Connection`:
/// owner changes from XFixes, the pointer from QueryPointer, snapshots read as `X11Connection.snapshot` reads them
/// (MULTIPLE batches, spooled flavours), claims that hold their snapshot while they serve.
struct X11SelectionBackend: SelectionBackend {
    typealias Terms = X11Terms
    typealias Kept = KeptSnapshot

    /// The connection it reads and serves on.
    let connection: X11Connection

    init(_ connection: X11Connection) { self.connection = connection }

    func ownerChanges(of selections: [SelectionName]) async throws
        -> AsyncThrowingStream<BackendOwnerChange<X11Terms>, any Error>
    {
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

    func isPointerButtonHeld() async -> Bool? {
        try? await connection.isPointerButtonHeld()
    }

    func snapshot(of selection: SelectionName, limits: SnapshotLimits) async throws -> (KeptSnapshot, KeptFacts) {
        let snapshot = try await connection.snapshot(selection, limits: limits)
        return (KeptSnapshot(snapshot), KeptFacts(snapshot))
    }

    func claim(_ selection: SelectionName, with kept: KeptSnapshot) async throws -> Int {
        // Anything but a claim drops `kept`, and with it the spooled files.
        kept.holdWhileServing(try await connection.claim(selection, offering: kept.snapshot.offer))
        return kept.snapshot.flavours.count
    }
}

extension OwnerChange {
    /// The change as the core's drivers take it: its meaning, the owner's window, and the server time (none for
    /// CurrentTime).
    var backendChange: BackendOwnerChange<X11Terms> {
        BackendOwnerChange(selection: selection, meaning: meaning, owner: owner, time: timestamp == .currentTime ? nil : timestamp)
    }
}
