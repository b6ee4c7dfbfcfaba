/// How a drag started with ``X11Connection/drag(_:actions:timeout:)`` ended.
public enum XdndDragOutcome: Sendable, Equatable {
    /// Dropped on `target` (an application's toplevel), which took the data and performed `action`.
    /// For `XdndActionMove` the source deletes its original now, unless the target converted `DELETE`.
    case dropped(target: X11Window, action: SelectionTarget)
    /// Released over no window that takes drops, over one that refused the drag, or dropped on `target`,
    /// which then said it did not take the data.
    case refused(target: X11Window?)
    /// Cancelled: Escape, the program (task cancellation), or the drag's time limit.
    case cancelled
    /// The target stopped answering or went away during the drop; whether it took the data is unknown.
    case abandoned(target: X11Window, reason: String)
}
