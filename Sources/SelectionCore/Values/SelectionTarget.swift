/// A selection target: what a requestor asks the owner to convert the selection to — an X name such as
/// `UTF8_STRING` or a MIME type such as `text/html` (ICCCM 2.6.2); on Wayland, a MIME type the source offers.
public struct SelectionTarget: RawRepresentable, Hashable, Sendable, ExpressibleByStringLiteral,
    CustomStringConvertible
{
    /// The atom name of the target.
    public var rawValue: String

    /// Creates a target from its atom name.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Creates a target from a string literal (the atom name).
    public init(stringLiteral value: String) { self.rawValue = value }

    /// `TARGETS`: the list of targets the owner can convert to (type ATOM).
    public static let targets: SelectionTarget = "TARGETS"
    /// `MULTIPLE`: several conversions in one request (ICCCM 2.6.2, type ATOM_PAIR).
    public static let multiple: SelectionTarget = "MULTIPLE"
    /// `TIMESTAMP`: the time the owner acquired the selection (type INTEGER).
    public static let timestamp: SelectionTarget = "TIMESTAMP"
    /// `SAVE_TARGETS`: clipboard-manager handover (freedesktop clipboard-manager spec).
    public static let saveTargets: SelectionTarget = "SAVE_TARGETS"
    /// `DELETE`: asks the owner to delete the selection's value (ICCCM 2.6.3.1).
    public static let delete: SelectionTarget = "DELETE"
    /// `TARGET_SIZES`: (target, size) pairs (freedesktop clipboard-manager spec).
    public static let targetSizes: SelectionTarget = "TARGET_SIZES"
    /// `INCR`: the property type announcing an incremental transfer (ICCCM 2.7.2); never a target.
    public static let incr: SelectionTarget = "INCR"
    /// `UTF8_STRING`: UTF-8 text.
    public static let utf8String: SelectionTarget = "UTF8_STRING"
    /// `STRING`: ISO-8859-1 text (ICCCM 2.7.1).
    public static let string: SelectionTarget = "STRING"
    /// `TEXT`: text in an encoding the owner chooses (STRING or COMPOUND_TEXT here).
    public static let text: SelectionTarget = "TEXT"
    /// `COMPOUND_TEXT`: ISO 2022-based multi-charset text (X Consortium Compound Text Encoding).
    public static let compoundText: SelectionTarget = "COMPOUND_TEXT"
    /// `ATOM`: type of atom lists.
    public static let atom: SelectionTarget = "ATOM"
    /// `ATOM_PAIR`: type of MULTIPLE's parameter list.
    public static let atomPair: SelectionTarget = "ATOM_PAIR"
    /// `INTEGER`: type of TIMESTAMP and TARGET_SIZES data.
    public static let integer: SelectionTarget = "INTEGER"
    /// `NULL`: type of the zero-length reply to side-effect targets (ICCCM 2.6.3).
    public static let null: SelectionTarget = "NULL"
    /// `text/plain;charset=utf-8`: UTF-8 text under its MIME name.
    public static let utf8PlainText: SelectionTarget = "text/plain;charset=utf-8"
    /// `text/plain`: text without a declared charset; served as ISO-8859-1 like STRING.
    public static let plainText: SelectionTarget = "text/plain"

    /// `x-kde-passwordManagerHint`: offered (holding `secret`) by content that asks not to be kept — the convention
    /// KDE's and GNOME's password managers use; keepers, histories and bridges leave such content alone.
    public static let passwordManagerHint: SelectionTarget = "x-kde-passwordManagerHint"

    /// The targets the engine answers itself; they are never content.
    public static let metaTargets: [SelectionTarget] = [
        .targets, .multiple, .timestamp, .saveTargets, .delete, .targetSizes,
    ]

    /// True for TARGETS, MULTIPLE, TIMESTAMP, SAVE_TARGETS, DELETE and TARGET_SIZES.
    public var isMetaTarget: Bool { Self.metaTargets.contains(self) }

    /// The atom name.
    public var description: String { rawValue }
}
