/// The connection's drag source (XDND): the drag in progress, or the id of one still starting (claiming,
/// grabbing). A component of ``X11Connection`` (GTK 4's `gdkdrag-x11.c`): it runs on the loop thread, isolated
/// to the connection, and is touched only there. Starting a drag is `X11Connection+Dragging.swift`'s, its
/// events `DragSource+Events.swift`'s.
final class DragSource {
    /// The drag source's deadlines (one `X11Connection.DeadlineKey.dragSource` each).
    enum Deadline: Hashable, Sendable {
        /// A drag's target did not answer in time (`XdndSource.awaitedAnswer`).
        case watchdog(UInt64)
        /// A drag's own time limit.
        case limit(UInt64)
    }

    /// The drag this connection is the source of (one at a time: there is one pointer).
    var session: DragSession?
    /// A drag claiming and grabbing: a second `drag` meanwhile is refused.
    var starting: UInt64?
    /// Names the drags (`DragSession.id`).
    var ids = IDCounter()

    func deadlinePassed(_ deadline: Deadline, on connection: isolated X11Connection) {
        switch deadline {
        case .watchdog(let id):
            watchdogFired(id, on: connection)
        case .limit(let id):
            cancel(id, reason: "the drag's time limit passed", on: connection)
        }
    }

    /// The connection closes: the drag's waiter gets `error`.
    func tearDown(_ error: SelectionError, on connection: isolated X11Connection) {
        starting = nil
        guard let session else { return }
        self.session = nil
        session.continuation?.resume(throwing: error)
        session.continuation = nil
    }
}
