/// The two selections a Wayland compositor shares through data-control: the clipboard and the primary selection
/// (ext data-control, or wlr data-control version 2).
public enum WaylandSelectionName: Int32, Sendable, Hashable, CaseIterable {
    /// The clipboard (X11's CLIPBOARD).
    case clipboard = 0
    /// The primary selection (X11's PRIMARY): what is selected, pasted with the middle button.
    case primary = 1
}
