/// A client's request that the clipboard manager save CLIPBOARD before the client exits (SAVE_TARGETS on
/// `CLIPBOARD_MANAGER`, freedesktop clipboard-manager spec), delivered on a manager's lease as
/// `SelectionLeaseEvent.saveTargetsRequested`.
///
/// The manager reads the targets from CLIPBOARD's owner (the requestor, usually), claims CLIPBOARD with what it
/// read, and only then answers with `X11Connection.answer(_:saved:)`: the client exits on the answer and may not
/// finish INCR transfers after it.
public struct SaveTargetsRequest: HandoverRequest {
    /// Identifies the request to `answer(_:saved:)`.
    let id: UInt64
    /// The client window that asked.
    public let requestor: X11Window
    /// The targets to save, in the client's order; nil: every target CLIPBOARD's owner offers.
    public let targets: [SelectionTarget]?
    /// The request's server time (CurrentTime from some clients).
    public let time: X11Timestamp
}
