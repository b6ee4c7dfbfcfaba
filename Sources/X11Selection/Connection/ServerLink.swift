/// An `X11Connection`'s link to its X server: the display (`XDisplay`, the door to Xlib) while the link is open,
/// the window this connection owns selections and reads with there, which server it reaches, and — once the
/// link ended — why.
///
/// It ends in two steps (`X11Connection.tearDown`): `close(_:)` records why, so requests fail from then on while
/// the display still works for the components' teardown (the owner gives our selections up, the window is
/// destroyed); then `closeDisplay()` closes the display. The window and the server's identity stay known.
struct ServerLink {
    /// The display: nil before the link opened and once it is closed.
    private(set) var display: XDisplay?
    /// The window this connection uses as owner and requestor (none until the link opened).
    private(set) var window = X11Window(rawValue: 0)
    /// The server the link reaches, however its name was spelled: the key of `ProcessWindows`.
    private(set) var serverIdentity = ""
    /// Set once the connection is closed (`.shutDown`), broke (`.connectionLost`) or could not open
    /// (`.displayUnavailable`).
    private(set) var closedError: SelectionError?

    /// The link is open on `display`, with this connection's `window` on it.
    mutating func open(_ display: XDisplay, window: X11Window, displayName: String) {
        self.display = display
        self.window = window
        // Keyed by the server's socket address, not the display name: ":1" and ":1.0" are one server.
        serverIdentity = display.serverAddress ?? displayName
    }

    /// Records why the link ended (the first time only: false once it had ended already). The display stays
    /// until `closeDisplay()`.
    @discardableResult
    mutating func close(_ error: SelectionError) -> Bool {
        guard closedError == nil else { return false }
        closedError = error
        return true
    }

    /// Closes the display: the last step of the link's end.
    mutating func closeDisplay() {
        display?.close()
        display = nil
    }

    /// The display, or the error the link ended with.
    func requireDisplay() throws(SelectionError) -> XDisplay {
        if let closedError { throw closedError }
        guard let display else { throw SelectionError(.shutDown, "the connection is not open") }
        return display
    }
}
