/// How a drag started with ``X11Connection/drag(_:actions:timeout:)`` ended.
public enum XdndDragOutcome: Sendable, Equatable {
    /// Dropped on `target` (an application's toplevel), which accepted the drag with `action` and finished the
    /// drop. For `XdndActionMove` the source deletes its original now, unless the target converted `DELETE`.
    ///
    /// `targetAccepted` is the flag of the target's XdndFinished. A finish after an accepting status is a drop
    /// whatever that flag says, as GTK 4's drag source judges it (`gdk_x11_drag_handle_finished` in
    /// gdk/x11/gdkdrag-x11.c ends the drag as done and passes the flag only to the failure animation): Qt 5
    /// targets send 0 for a drop their widget handled without calling `accept()` — Kate opening a dropped file.
    case dropped(target: X11Window, action: SelectionTarget, targetAccepted: Bool = true)
    /// Released over no window that takes drops, or over one that refused the drag.
    case refused(target: X11Window?)
    /// Cancelled: Escape, the program (task cancellation), or the drag's time limit.
    case cancelled
    /// The target stopped answering or went away during the drop; whether it took the data is unknown.
    case abandoned(target: X11Window, reason: String)
}
