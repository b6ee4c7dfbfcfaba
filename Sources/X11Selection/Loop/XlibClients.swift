internal import CX11
import Glibc

/// What the server says of other clients' windows: their children and which client made them. Part of the Xlib
/// layer (`XDisplay`), through XCB (a vanished window is an error reply, not a call to Xlib's error handler).
extension XDisplay {
    /// The server's resource-ID mask (connection setup): the bits of an ID a client chooses; the others are
    /// the same for every resource of one client (X11 protocol, "Connection Setup": resource-id-base/mask).
    var resourceIDMask: UInt {
        guard !isDead, let setup = xcb_get_setup(XGetXCBConnection(display)) else { return 0 }
        return UInt(setup.pointee.resource_id_mask)
    }

    /// The children of `window`, bottom to top; empty when it is gone.
    func children(of window: X11Window) -> [X11Window] {
        guard !isDead else { return [] }
        let connection = XGetXCBConnection(display)
        let cookie = xcb_query_tree(connection, xcb_window_t(truncatingIfNeeded: window.rawValue))
        var error: UnsafeMutablePointer<xcb_generic_error_t>?
        let reply = xcb_query_tree_reply(connection, cookie, &error)
        if let error { free(error) }
        guard let reply else { return [] }
        defer { free(reply) }
        let count = Int(xcb_query_tree_children_length(reply))
        guard count > 0, let children = xcb_query_tree_children(reply) else { return [] }
        return (0..<count).map { X11Window(rawValue: UInt(children[$0])) }
    }
}
