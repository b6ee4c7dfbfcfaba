/// XDND's actions, as the atom names sources ask for and targets answer with.
extension SelectionTarget {
    /// Copy the data: the source keeps it.
    public static let xdndActionCopy: SelectionTarget = "XdndActionCopy"
    /// Move the data: the target takes it, then converts `DELETE` (or the source deletes it once finished).
    public static let xdndActionMove: SelectionTarget = "XdndActionMove"
    /// Link to the data (a file manager's symbolic link).
    public static let xdndActionLink: SelectionTarget = "XdndActionLink"
    /// Let the target ask the user, from the source's `XdndActionList` and `XdndActionDescription`.
    public static let xdndActionAsk: SelectionTarget = "XdndActionAsk"
    /// An action only the two applications understand.
    public static let xdndActionPrivate: SelectionTarget = "XdndActionPrivate"
}
