import FoundationEssentials
import Glibc
import Synchronization

/// A snapshot a keeper or a sync holds, whose spooled files live exactly as long as something refers to it:
/// the current owner's offer, the content a veto would restore, a claim still serving it (ICCCM 2.2 lets
/// transfers finish after a loss). Dropping the last reference removes the files.
package final class KeptSnapshot: Sendable {
    private let state: Mutex<SelectionSnapshot>
    /// Every file the snapshot had: narrowing serves fewer flavours, but a history recording may still be
    /// copying the others, so all go only with the last reference.
    private let files: SpooledFiles
    /// The application that copied, when the keeper looked it up (for a history's rules).
    let ownerClass: WindowClass?

    init(_ snapshot: SelectionSnapshot, ownerClass: WindowClass? = nil) {
        state = Mutex(snapshot)
        files = SpooledFiles(of: snapshot.flavours.map(\.content))
        self.ownerClass = ownerClass
    }

    /// The snapshot now.
    package var snapshot: SelectionSnapshot { state.withLock { $0 } }

    /// Keeps only the flavours of `targets`, in that order (a SAVE_TARGETS list); the others' files go with
    /// the last reference.
    func narrow(to targets: [SelectionTarget]) {
        state.withLock { $0 = $0.narrowed(to: targets) }
    }

    /// Holds this snapshot until `lease` has ended: a transfer in flight when the selection was lost still
    /// finishes from its files (ICCCM 2.2).
    func holdWhileServing(_ lease: SelectionLease) {
        Task {
            for await _ in lease.events {}
            withExtendedLifetime(self) {}
        }
    }
}
