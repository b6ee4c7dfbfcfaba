import Glibc

/// Which display to open, and opening it on the calling thread, for the single-threaded pieces
/// (``BlockingSelectionReader``, ``PreparedClaim``) and ``X11Connection/open(display:configuration:)``.
enum DisplayOpening {
    /// `display`, else `$DISPLAY` (getenv, not ProcessInfo: the first ProcessInfo use copies the whole
    /// environment into a dictionary, a measurable part of a short-lived command).
    /// - Throws: `.displayUnavailable` when neither names a display: there is no silent fallback to `:0`.
    static func name(_ display: String?) throws(SelectionError) -> String {
        let name = display ?? getenv("DISPLAY").map { String(cString: $0) } ?? ""
        guard !name.isEmpty else {
            throw SelectionError(
                .displayUnavailable, "no X display: DISPLAY is not set and no display name was given")
        }
        return name
    }

    /// Opens the display `display` or `$DISPLAY` names, without Xlib's keyboard-extension set-up (see
    /// `XDisplay.open(_:withoutKeyboardExtension:)`): this is for the single-threaded pieces only.
    /// - Throws: `.displayUnavailable` naming the display value.
    static func open(_ display: String?) throws(SelectionError) -> (name: String, display: XDisplay) {
        let name = try name(display)
        guard let opened = XDisplay.open(name, withoutKeyboardExtension: true) else {
            throw SelectionError(
                .displayUnavailable, "cannot open X display \"\(name)\" (is the X server running and DISPLAY right?)")
        }
        return (name, opened)
    }
}
