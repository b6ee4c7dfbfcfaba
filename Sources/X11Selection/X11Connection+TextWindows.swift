import FoundationEssentials

/// Plain windows of text lines (`TextWindow`), driven by the connection's loop like everything else.
extension X11Connection {
    /// Opens and maps a window showing `lines`, `width` pixels wide and as tall as its lines (at least three).
    ///
    /// - Parameters:
    ///   - title: The window's title (`_NET_WM_NAME`, and `WM_NAME` in Latin-1).
    ///   - lines: The lines shown, from the top.
    ///   - width: The window's width in pixels.
    ///   - position: Its top-left corner on the root window; nil lets the window manager place it.
    ///   - keepAbove: Ask the window manager to keep it above other windows.
    ///   - iconSize: The width and height of the icons lines may have (``setLines(_:highlighted:icons:in:)``), 0
    ///     for none; lines are at least this tall.
    /// - Throws: `.connectionLost` / `.shutDown` when the connection is closed.
    public func openTextWindow(
        title: String, lines: [String], width: Int = 360, position: (x: Int, y: Int)? = nil, keepAbove: Bool = false,
        iconSize: Int = 0
    ) throws -> TextWindow {
        let display = try requireDisplay()
        let names = try atoms(for: [
            "WM_PROTOCOLS", "WM_DELETE_WINDOW", "_NET_WM_NAME", "UTF8_STRING", "_NET_WM_STATE", "_NET_WM_STATE_ABOVE",
        ])
        let iconSize = max(0, min(iconSize, 256))
        var metrics = display.lineMetrics()
        metrics.lineHeight = max(metrics.lineHeight, iconSize > 0 ? iconSize + 4 : 0)
        let height = 12 + max(3, lines.count) * metrics.lineHeight
        let window = display.createTextWindow(
            position: position, width: width, height: height, title: title, keepAbove: keepAbove,
            atoms: (names[0], names[1], names[2], names[3], names[4], names[5]))
        let (events, continuation) = AsyncStream<TextWindowEvent>.makeStream(bufferingPolicy: .bufferingNewest(256))
        textWindows[window] = TextWindowState(
            lines: lines, width: width, iconSize: iconSize, metrics: metrics, continuation: continuation)
        textWindowProtocols = (names[0], names[1])
        display.flush()
        return TextWindow(window: window, events: events)
    }

    /// Shows `lines` in a text window, with a frame around the `highlighted` ones and `icons` (by line index;
    /// nil keeps the current ones) before theirs.
    public func setLines(
        _ lines: [String], highlighted: Set<Int> = [], icons: [Int: WindowIcon]? = nil, in window: X11Window
    ) {
        guard let state = textWindows[window] else { return }
        state.lines = lines
        state.highlighted = highlighted
        if let icons { state.icons = icons }
        redraw(window, state)
    }

    /// Destroys a text window; its event stream ends.
    public func closeTextWindow(_ window: X11Window) {
        guard let state = textWindows.removeValue(forKey: window) else { return }
        state.continuation.finish()
        xdisplay?.destroyWindow(window)
        xdisplay?.flush()
    }

    /// Where `window` is on the root window and its size; nil when it is gone.
    public func geometry(of window: X11Window) throws -> (x: Int, y: Int, width: Int, height: Int)? {
        try requireDisplay().geometry(of: window)
    }

    // MARK: Events

    func textWindowExposed(_ window: X11Window) {
        guard let state = textWindows[window] else { return }
        redraw(window, state)
    }

    func textWindowPointer(_ event: X11Event.PointerEvent) {
        guard let state = textWindows[event.window] else { return }
        let line = state.line(atY: event.y)
        switch event.kind {
        case .press(let button):
            if button == 1 { state.press = (event.x, event.y, line) }
            state.continuation.yield(.pressed(line: line, button: button, time: event.time))
        case .motion:
            guard let press = state.press, state.passedThreshold(x: event.x, y: event.y) else { return }
            state.press = nil
            state.continuation.yield(.dragStarted(line: press.line, time: event.time))
        case .release(let button):
            if button == 1 { state.press = nil }
            state.continuation.yield(.released(line: line, button: button, time: event.time))
        }
    }

    func textWindowKeyPress(_ window: X11Window, keycode: UInt8) {
        guard let state = textWindows[window], let display = xdisplay else { return }
        if keycode != 0 && keycode == display.keycode(forKeysym: 0xFF1B) { state.continuation.yield(.escapePressed) }
    }

    /// WM_PROTOCOLS' WM_DELETE_WINDOW for a text window; false for any other message.
    func textWindowMessage(_ window: X11Window, type: X11Atom, words: [UInt]) -> Bool {
        guard let state = textWindows[window], let protocols = textWindowProtocols, type == protocols.wmProtocols
        else { return false }
        if words.first == protocols.deleteWindow.rawValue { state.continuation.yield(.closeRequested) }
        return true
    }

    /// A text window was destroyed by someone else: its stream ends.
    func textWindowDestroyed(_ window: X11Window) {
        textWindows.removeValue(forKey: window)?.continuation.finish()
    }

    private func redraw(_ window: X11Window, _ state: TextWindowState) {
        guard let display = xdisplay else { return }
        display.drawLines(
            state.lines, in: window, highlighted: state.highlighted, icons: state.icons, iconSize: state.iconSize,
            metrics: state.metrics, width: state.width)
        display.flush()
    }
}
