import Synchronization

/// A snapshot a keeper or a sync holds, whose spooled files live exactly as long as something refers to it:
/// the current owner's offer, the content a veto would restore, a claim still serving it (ICCCM 2.2 lets
/// transfers finish after a loss). Dropping the last reference removes the files.
final class KeptSnapshot: Sendable {
    private let state: Mutex<SelectionSnapshot>

    init(_ snapshot: SelectionSnapshot) {
        state = Mutex(snapshot)
    }

    /// The snapshot now.
    var snapshot: SelectionSnapshot { state.withLock { $0 } }

    /// Keeps only the flavours of `targets`, in that order (a SAVE_TARGETS list); the others' files go now.
    func narrow(to targets: [SelectionTarget]) {
        state.withLock { $0 = $0.keepingOnly(targets) }
    }

    /// Holds this snapshot until `lease` has ended: a transfer in flight when the selection was lost still
    /// finishes from its files (ICCCM 2.2).
    func holdWhileServing(_ lease: SelectionLease) {
        Task {
            for await _ in lease.events {}
            withExtendedLifetime(self) {}
        }
    }

    deinit {
        state.withLock { $0.removeFiles() }
    }
}
