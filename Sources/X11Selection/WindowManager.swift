/// An X display's window manager, as it announces itself (EWMH "_NET_SUPPORTING_WM_CHECK"): its name, and which
/// windows its X client made.
///
/// Under a Wayland compositor the window manager of XWayland is the compositor itself, and it syncs the selections
/// between XWayland and Wayland on its own (wlroots' "wlroots wm", `xwayland/selection/`). A program that also moves
/// selections between the two — ``X11Connection/windowManager()`` for the X side — must tell the compositor's
/// claims from an application's.
public struct WindowManager: Sendable, Equatable {
    /// Its name (`_NET_WM_NAME` of its check window), e.g. "wlroots wm" under sway, river, labwc or Wayfire.
    public var name: String
    /// Its check window.
    public var checkWindow: X11Window
    /// The bits of a window ID that name the client that made it (the complement of the server's resource-ID mask).
    var clientBits: UInt

    /// A window manager (for tests: `resourceIDMask` is the server's, 0x1FFFFF on X.Org and XWayland).
    public init(name: String, checkWindow: X11Window, resourceIDMask: UInt) {
        self.name = name
        self.checkWindow = checkWindow
        clientBits = ~resourceIDMask
    }

    /// Whether `window` was made by the window manager's client: window IDs of one client share its resource-ID
    /// base (X11 protocol, "Connection Setup"), as its check window's does.
    public func madeWindow(_ window: X11Window) -> Bool {
        clientBits != 0 && window.rawValue & clientBits == checkWindow.rawValue & clientBits
    }

    /// Whether it is the XWayland window manager of a wlroots compositor (sway, river, labwc, Wayfire), which syncs
    /// CLIPBOARD and PRIMARY with Wayland itself: a Wayland copy becomes its X claim when an X window has the focus
    /// (and when one gets it), and an X copy made while an X window has the focus becomes its Wayland source.
    public var isWaylandCompositor: Bool { name == "wlroots wm" }
}
