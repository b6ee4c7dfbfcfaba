import X11Selection

/// One ``TextWindow``: its lines, its event stream, and the press a drag may start from.
final class TextWindowState {
    var lines: [String]
    var highlighted: Set<Int> = []
    var icons: [Int: WindowIcon] = [:]
    /// The icon column's width (0: no icons), which also sets the line height.
    let iconSize: Int
    let width: Int
    let metrics: XDisplay.LineMetrics
    let continuation: AsyncStream<TextWindowEvent>.Continuation
    /// Where button 1 went down, and on which line, until it is released or a drag starts.
    var press: (x: Int, y: Int, line: Int?)?

    /// GTK's default `gtk-dnd-drag-threshold`.
    static let dragThreshold = 8

    init(lines: [String], width: Int, iconSize: Int, metrics: XDisplay.LineMetrics,
         continuation: AsyncStream<TextWindowEvent>.Continuation) {
        self.lines = lines
        self.iconSize = iconSize
        self.width = width
        self.metrics = metrics
        self.continuation = continuation
    }

    /// The line at `y` in the window, if any.
    func line(atY y: Int) -> Int? {
        guard y >= 6 else { return nil }
        let index = (y - 6) / metrics.lineHeight
        return index < lines.count ? index : nil
    }

    /// Whether the pointer, now at (`x`, `y`), is far enough from the press for a drag.
    func passedThreshold(x: Int, y: Int) -> Bool {
        guard let press else { return false }
        return abs(x - press.x) > Self.dragThreshold || abs(y - press.y) > Self.dragThreshold
    }
}
