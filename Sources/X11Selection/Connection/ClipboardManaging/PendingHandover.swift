/// A clipboard-manager handover in progress.
struct PendingHandover {
    let claimID: UInt64
    var machine: ManagerHandover
    let continuation: CheckedContinuation<ManagerHandover.Outcome, any Error>
}
