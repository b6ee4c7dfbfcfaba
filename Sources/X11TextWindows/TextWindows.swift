import FoundationEssentials
import X11Selection

/// Plain windows of text lines (``TextWindow``): a component of the connection (`ConnectionComponent`), driven
/// by its loop like everything else, drawn through its Xlib door.
final class TextWindows: ConnectionComponent {
    var windows: [X11Window: TextWindowState] = [:]
    /// WM_PROTOCOLS and WM_DELETE_WINDOW, once interned.
    var protocols: (wmProtocols: X11Atom, deleteWindow: X11Atom)?

    func handle(_ event: X11Event, on connection: isolated X11Connection) -> Bool {
        switch event {
        case .expose(let window, let remaining):
            guard let state = windows[window] else { return false }
            if remaining == 0 { redraw(window, state, on: connection) }
            return true
        case .pointer(let pointer):
            guard let state = windows[pointer.window] else { return false }
            pointerEvent(pointer, state)
            return true
        case .keyPress(let window, let keycode, _):
            guard let state = windows[window], let display = try? connection.requireDisplay() else { return false }
            if keycode != 0 && keycode == display.keycode(forKeysym: 0xFF1B) { state.continuation.yield(.escapePressed) }
            return true
        case .clientMessage(let window, let type, let format, let words):
            // WM_PROTOCOLS' WM_DELETE_WINDOW (ICCCM 4.2.8.1): the window manager's close button.
            guard format == 32, let state = windows[window], let protocols, type == protocols.wmProtocols else { return false }
            if words.first == protocols.deleteWindow.rawValue { state.continuation.yield(.closeRequested) }
            return true
        case .destroyNotify(let window):
            // Destroyed by someone else: its stream ends. Other components still hear of it.
            if let state = windows.removeValue(forKey: window) {
                state.continuation.finish()
                connection.noteOwnWindow(window, present: false)
            }
            return false
        default:
            return false
        }
    }

    func tearDown(_ error: SelectionError, on connection: isolated X11Connection) {
        for state in windows.values { state.continuation.finish() }
        windows.removeAll()
    }

    private func pointerEvent(_ event: X11Event.PointerEvent, _ state: TextWindowState) {
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

    func redraw(_ window: X11Window, _ state: TextWindowState, on connection: isolated X11Connection) {
        guard let display = try? connection.requireDisplay() else { return }
        display.drawLines(
            state.lines, in: window, highlighted: state.highlighted, icons: state.icons, iconSize: state.iconSize,
            metrics: state.metrics, width: state.width)
        display.flush()
    }
}

extension X11Connection {
    private var textWindows: TextWindows { component(TextWindows.self) { TextWindows() } }

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
        let windows = textWindows
        windows.windows[window] = TextWindowState(
            lines: lines, width: width, iconSize: iconSize, metrics: metrics, continuation: continuation)
        windows.protocols = (names[0], names[1])
        noteOwnWindow(window, present: true)
        display.flush()
        return TextWindow(window: window, events: events)
    }

    /// Shows `lines` in a text window, with a frame around the `highlighted` ones and `icons` (by line index;
    /// nil keeps the current ones) before theirs.
    public func setLines(
        _ lines: [String], highlighted: Set<Int> = [], icons: [Int: WindowIcon]? = nil, in window: X11Window
    ) {
        let windows = textWindows
        guard let state = windows.windows[window] else { return }
        state.lines = lines
        state.highlighted = highlighted
        if let icons { state.icons = icons }
        windows.redraw(window, state, on: self)
    }

    /// Destroys a text window; its event stream ends.
    public func closeTextWindow(_ window: X11Window) {
        guard let state = textWindows.windows.removeValue(forKey: window) else { return }
        state.continuation.finish()
        noteOwnWindow(window, present: false)
        guard let display = try? requireDisplay() else { return }
        display.destroyWindow(window)
        display.flush()
    }
}
