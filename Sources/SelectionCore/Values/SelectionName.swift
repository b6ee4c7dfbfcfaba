/// The name of an X selection: `CLIPBOARD`, `PRIMARY`, `SECONDARY` or any other atom name (ICCCM 2.6.1).
public struct SelectionName: RawRepresentable, Hashable, Sendable, ExpressibleByStringLiteral,
    CustomStringConvertible
{
    /// The atom name of the selection.
    public var rawValue: String

    /// Creates a selection name from its atom name.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Creates a selection name from a string literal (the atom name).
    public init(stringLiteral value: String) { self.rawValue = value }

    /// `CLIPBOARD`: explicit copy and paste.
    public static let clipboard: SelectionName = "CLIPBOARD"
    /// `PRIMARY`: the current text selection, pasted with the middle button.
    public static let primary: SelectionName = "PRIMARY"
    /// `SECONDARY`: rarely used second selection.
    public static let secondary: SelectionName = "SECONDARY"
    /// `CLIPBOARD_MANAGER`: owned by a running clipboard manager (freedesktop clipboard-manager spec).
    public static let clipboardManager: SelectionName = "CLIPBOARD_MANAGER"

    /// The atom name.
    public var description: String { rawValue }
}
