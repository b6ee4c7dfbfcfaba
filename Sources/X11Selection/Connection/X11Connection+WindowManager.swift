import FoundationEssentials

/// What the display's window manager says of itself and of the focus (EWMH root properties).
extension X11Connection {
    /// The display's window manager, from the root's `_NET_SUPPORTING_WM_CHECK` window and its `_NET_WM_NAME`
    /// (EWMH "Root Window Properties"); nil when none announces itself (or its check window is gone).
    ///
    /// - Throws: `.connectionLost` / `.shutDown` when the connection is closed.
    public func windowManager() throws -> WindowManager? {
        let display = try requireDisplay()
        let (check, name, utf8) = (try atom(for: "_NET_SUPPORTING_WM_CHECK"), try atom(for: "_NET_WM_NAME"), try atom(for: "UTF8_STRING"))
        guard let value = display.getProperty(display.root, check, delete: false), value.format == 32, value.bytes.count >= 4
        else { return nil }
        let window = X11Window(rawValue: UInt(Format32.values(value.bytes).first ?? 0))
        guard window.rawValue != 0, let named = display.getProperty(window, name, delete: false), named.exists,
            named.format == 8, named.type == utf8 || named.type == .string
        else { return nil }
        let text = String(decoding: named.bytes.prefix(1024), as: UTF8.self)
        return WindowManager(name: text, checkWindow: window, resourceIDMask: display.resourceIDMask)
    }

    /// The window the window manager says has the focus (the root's `_NET_ACTIVE_WINDOW`); nil when it says none, or
    /// says nothing.
    ///
    /// - Throws: `.connectionLost` / `.shutDown` when the connection is closed.
    public func activeWindow() throws -> X11Window? {
        let display = try requireDisplay()
        guard let value = display.getProperty(display.root, try atom(for: "_NET_ACTIVE_WINDOW"), delete: false),
            value.format == 32, let first = Format32.values(value.bytes).first, first != 0
        else { return nil }
        return X11Window(rawValue: UInt(first))
    }
}
