/// The clipboard-manager roles' events, isolated to the connection: the handover's steps (the manager's
/// answer, its transfers from our claim, the deadline; `ManagerHandover` decides) and a replaced manager's
/// window going.
extension ClipboardManaging {
    /// The manager answered SAVE_TARGETS (a SelectionNotify to our window; property None: refused).
    func handoverNotified(accepted: Bool, on connection: isolated X11Connection) {
        guard var pending = handover else { return }
        let outcome = pending.machine.managerNotified(accepted: accepted)
        handover = pending
        if let outcome { finishHandover(outcome, on: connection) }
    }

    /// A transfer from the handed-over claim started (the manager reads by INCR or a relay).
    func handoverTransferStarted(claimID: UInt64, on connection: isolated X11Connection) {
        guard var pending = handover, pending.claimID == claimID else { return }
        pending.machine.transferStarted()
        handover = pending
    }

    /// A transfer from the handed-over claim ended, served or not.
    func handoverTransferEnded(claimID: UInt64, served: Bool, on connection: isolated X11Connection) {
        guard var pending = handover, pending.claimID == claimID else { return }
        let outcome = pending.machine.transferEnded(served: served)
        handover = pending
        if let outcome { finishHandover(outcome, on: connection) }
    }

    /// The handover's bound passed.
    func handoverDeadlinePassed(on connection: isolated X11Connection) {
        guard var pending = handover else { return }
        let outcome = pending.machine.deadlinePassed()
        handover = pending
        finishHandover(outcome, on: connection)
    }

    private func finishHandover(_ outcome: ManagerHandover.Outcome, on connection: isolated X11Connection) {
        guard let pending = handover else { return }
        handover = nil
        connection.deadlines.cancel(.managing(.handover))
        connection.xdisplay?.deleteProperty(connection.window, connection.wellKnown.saveTargetsProperty)
        pending.continuation.resume(returning: outcome)
    }

    /// Resumes the waiters for `vanished` (true), or for the deadline `id` (false).
    func resumeGoneWaiters(
        window vanished: X11Window? = nil, deadline id: UInt64? = nil, on connection: isolated X11Connection
    ) {
        let resumed = goneWaiters.filter { $0.window == vanished || $0.id == id }
        goneWaiters.removeAll { $0.window == vanished || $0.id == id }
        for waiter in resumed {
            if waiter.id != id { connection.deadlines.cancel(.managing(.windowGone(waiter.id))) }
            waiter.continuation.resume(returning: waiter.id != id)
        }
    }
}
