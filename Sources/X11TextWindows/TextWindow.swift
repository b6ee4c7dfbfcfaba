import X11Selection

/// A plain window of lines of text, made by `X11Connection.openTextWindow(title:lines:width:position:keepAbove:iconSize:)`:
/// enough for a drag to start from and a drop to land on without a toolkit (`clipbridge drag` and `drop`).
public struct TextWindow: Sendable {
    /// The toplevel's XID (give it to `X11Connection.registerDropTarget(on:delegate:)` to take drops).
    public let window: X11Window
    /// What happens in it, until it is closed or destroyed.
    public let events: AsyncStream<TextWindowEvent>
}

/// Something that happened in a ``TextWindow``. `line` is the line under the pointer (0-based), nil between
/// or below the lines.
public enum TextWindowEvent: Sendable, Equatable {
    /// A pointer button was pressed.
    case pressed(line: Int?, button: Int, time: X11Timestamp)
    /// Button 1, pressed on `line`, is still held and the pointer moved past the drag threshold (8 pixels, GTK's
    /// default): start a drag now — the press's implicit grab is this client's, so `X11Connection.drag(_:actions:timeout:)`
    /// takes it over.
    case dragStarted(line: Int?, time: X11Timestamp)
    /// A pointer button was released without a drag.
    case released(line: Int?, button: Int, time: X11Timestamp)
    /// Escape was pressed in the window.
    case escapePressed
    /// The window manager's close button (`WM_DELETE_WINDOW`).
    case closeRequested
}
