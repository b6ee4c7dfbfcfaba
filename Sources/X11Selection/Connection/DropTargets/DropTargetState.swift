/// One window this connection takes drops for: its protocol state (`XdndTarget`), the application's delegate,
/// and the drag under way's session — its plan, made once at XdndEnter.
final class DropTargetState {
    var machine: XdndTarget
    let delegate: XdndDropDelegate
    /// The drag's types, named, once known.
    var types: [SelectionTarget] = []
    /// The plan for the drag under way, made when it entered; nil: it is refused wherever it goes.
    var session: XdndDropSession?
    /// The last position asked about, on the root window and in the window.
    var lastPosition = (x: 0, y: 0)
    var lastWindowPosition = (x: 0, y: 0)
    /// The source window watched for its destruction.
    var watchedSource: X11Window?

    init(window: X11Window, delegate: XdndDropDelegate) {
        machine = XdndTarget(window: window)
        self.delegate = delegate
    }
}
