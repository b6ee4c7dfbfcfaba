/// The drag this connection is the source of: one at a time, as there is one pointer. Lives on the loop
/// thread; `X11Connection+Dragging` carries out what its `XdndSource` decides.
final class DragSession {
    let id: UInt64
    var machine: XdndSource
    let allowedActions: [SelectionTarget]
    /// The atoms of `allowedActions`, and of every action a target may answer with, named back.
    let actionAtoms: [SelectionTarget: X11Atom]
    let actionNames: [X11Atom: SelectionTarget]
    /// `XdndSelection`, owned for the drag's data since `claimTime`.
    let selectionAtom: X11Atom
    let claimTime: X11Timestamp
    /// No button was held when the drag started (`--from-pointer`): the drag follows the pointer, and the drop
    /// comes with the release of the next click.
    var awaitingPress: Bool
    /// The newest pointer motion not looked at yet: motions are taken one per loop turn, the newest, because
    /// finding the window under the pointer costs round trips.
    var pendingMotion: (x: Int, y: Int, modifiers: DragModifiers, time: X11Timestamp)?
    /// The newest event time seen, for the ungrab.
    var lastTime: X11Timestamp
    /// The target under the pointer when the button was released (a refusal names it).
    var targetAtRelease: X11Window?
    let escapeKeycode: UInt8
    var keyboardGrabbed = false
    let acceptCursor: UInt
    let refuseCursor: UInt
    var showsAccept = false
    /// Target and proxy windows whose destruction is watched (`targetVanished`).
    var watched: Set<X11Window> = []
    var continuation: CheckedContinuation<XdndDragOutcome, any Error>?
    /// The outcome, when it came before anyone waited for it.
    var outcome: XdndDragOutcome?

    init(
        id: UInt64, machine: XdndSource, allowedActions: [SelectionTarget], actionAtoms: [SelectionTarget: X11Atom],
        selectionAtom: X11Atom, claimTime: X11Timestamp, awaitingPress: Bool, escapeKeycode: UInt8,
        acceptCursor: UInt, refuseCursor: UInt
    ) {
        self.id = id
        self.machine = machine
        self.allowedActions = allowedActions
        self.actionAtoms = actionAtoms
        var names: [X11Atom: SelectionTarget] = [:]
        for (name, atom) in actionAtoms { names[atom] = name }
        actionNames = names
        self.selectionAtom = selectionAtom
        self.claimTime = claimTime
        self.awaitingPress = awaitingPress
        lastTime = claimTime
        self.escapeKeycode = escapeKeycode
        self.acceptCursor = acceptCursor
        self.refuseCursor = refuseCursor
    }
}
