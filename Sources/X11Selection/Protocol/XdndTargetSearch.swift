/// Which window under the pointer a drag source talks to, decided from what the windows along the pointer's
/// path say about themselves (the X queries that gather it live in the Xlib layer).
///
/// The path runs from the root's child under the pointer (a window manager's frame, or an unmanaged toplevel)
/// down to the deepest window there. The target is the first window on it with `XdndAware` at version 3 or
/// more — normally the application's toplevel (the window with `WM_STATE`) inside the frame; a frame that is
/// aware itself (some window managers proxy for their clients) is found first, as the spec's search from the
/// root finds it. The search does not look below a window with `WM_STATE` that is not aware: that client does
/// not take drops, and its inner windows are its own business (an X embedding might be aware, but then its
/// toplevel speaks for it).
///
/// `XdndProxy`: when a window's proxy property names window P, and P's own `XdndProxy` names P (the spec's
/// check that the proxy is not stale), messages go to P while still naming the window; otherwise the proxy is
/// ignored.
enum XdndTargetSearch {
    /// What one window on the path says.
    struct Window: Sendable, Equatable {
        var id: X11Window
        /// It has `WM_STATE`: it is a client's toplevel.
        var hasWMState: Bool
        /// Its `XdndAware` version, if it has the property.
        var awareVersion: Int?
        /// The window its `XdndProxy` names, if any.
        var proxy: X11Window?
        /// Whether that proxy window's own `XdndProxy` names itself.
        var proxyIsValid: Bool

        init(id: X11Window, hasWMState: Bool = false, awareVersion: Int? = nil, proxy: X11Window? = nil,
             proxyIsValid: Bool = false) {
            self.id = id
            self.hasWMState = hasWMState
            self.awareVersion = awareVersion
            self.proxy = proxy
            self.proxyIsValid = proxyIsValid
        }
    }

    /// Whether the search stops at `window`: it takes drops, or it is a client's toplevel (whose inner windows
    /// are its own business). The path need not be looked up beyond it.
    static func endsSearch(_ window: Window) -> Bool {
        (window.awareVersion ?? 0) >= XdndMessage.minimumVersion || window.hasWMState
    }

    /// The target along `path`, or nil when no window there takes drops. `ownWindows` (the source's own
    /// windows, such as a drag icon) are looked through.
    static func target(along path: [Window], ignoring ownWindows: Set<X11Window> = []) -> XdndSource.Target? {
        for window in path where !ownWindows.contains(window.id) {
            if let version = window.awareVersion, version >= XdndMessage.minimumVersion {
                let messageWindow = window.proxyIsValid ? (window.proxy ?? window.id) : window.id
                return XdndSource.Target(window: window.id, messageWindow: messageWindow, version: version)
            }
            if window.hasWMState { return nil }
        }
        return nil
    }
}
