/// The connection's drop targets (XDND): the windows it takes drops for, each with its protocol state and the
/// drag under way's plan. A component of ``X11Connection`` (GTK 4's `gdkdrop-x11.c`): it runs on the loop
/// thread, isolated to the connection, and is touched only there. The wire steps are
/// `DropTargets+Events.swift`'s; registering is `X11Connection+DropTargets.swift`'s.
final class DropTargets {
    /// The drop targets' deadlines (one `X11Connection.DeadlineKey.dropTargets` each).
    enum Deadline: Hashable, Sendable {
        /// The source of a drag over one of our drop targets went silent (`idlePassed`).
        case idle(X11Window)
    }

    /// Windows this connection takes drops for.
    var targets: [X11Window: DropTargetState] = [:]

    func deadlinePassed(_ deadline: Deadline, on connection: isolated X11Connection) {
        switch deadline {
        case .idle(let window):
            idlePassed(window, on: connection)
        }
    }

    /// The connection closes: every target is forgotten (a drop under way finds none when it is taken).
    func tearDown(_ error: SelectionError, on connection: isolated X11Connection) {
        targets.removeAll()
    }
}
