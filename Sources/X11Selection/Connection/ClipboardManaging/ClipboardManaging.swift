/// The connection's clipboard-manager roles: handing CLIPBOARD over to a manager (the handover in progress),
/// and being a manager (SAVE_TARGETS requests not answered yet, tasks waiting for a replaced manager's window to
/// go). A component of ``X11Connection``: it runs on the loop thread, isolated to the connection, and is touched
/// only there. The rules are `ManagerHandover`'s and `ManagerSelection`'s (Protocol/).
final class ClipboardManaging {
    /// The clipboard-manager deadlines (one `X11Connection.DeadlineKey.managing` each).
    enum Deadline: Hashable, Sendable {
        /// The handover's bound (`handOverToClipboardManager(timeout:)`).
        case handover
        /// Stop waiting for a replaced manager's window to go (`claimManager`).
        case windowGone(UInt64)
    }

    /// The handover of our CLIPBOARD to a manager, in progress.
    var handover: PendingHandover?
    /// SAVE_TARGETS requests to a manager claim of ours, not answered yet (`answer(_:saved:)`).
    var pendingSaves: [UInt64: ReplyRoute] = [:]
    /// Tasks waiting for a watched window to be destroyed (a replaced manager's, ICCCM 2.8).
    var goneWaiters: [(id: UInt64, window: X11Window, continuation: CheckedContinuation<Bool, Never>)] = []
    /// Names the SAVE_TARGETS requests and the waiters for a window to go.
    var ids = IDCounter()

    func deadlinePassed(_ deadline: Deadline, on connection: isolated X11Connection) {
        switch deadline {
        case .handover:
            handoverDeadlinePassed(on: connection)
        case .windowGone(let id):
            resumeGoneWaiters(deadline: id, on: connection)
        }
    }

    /// The connection closes: the handover fails with `error`, waiters for a window learn it did not go.
    func tearDown(_ error: SelectionError, on connection: isolated X11Connection) {
        let waiters = goneWaiters
        goneWaiters.removeAll()
        for waiter in waiters {
            waiter.continuation.resume(returning: false)
        }
        pendingSaves.removeAll()
        if let pending = handover {
            handover = nil
            pending.continuation.resume(throwing: error)
        }
    }
}
