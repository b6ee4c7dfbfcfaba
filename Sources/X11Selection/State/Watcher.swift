/// One `OwnerChanges` sequence registered with the connection.
struct Watcher {
    let selections: Set<X11Atom>
    let continuation: AsyncThrowingStream<OwnerChange, any Error>.Continuation
}

/// A clipboard-manager handover in progress.
struct PendingHandover {
    let claimID: UInt64
    var machine: ManagerHandover
    let continuation: CheckedContinuation<ManagerHandover.Outcome, any Error>
}
