/// A copy a keeper kept and accepted, handed to its recorder (a history) — the same on every backend.
public struct RecordedCopy: Sendable {
    /// The selection.
    public var selection: SelectionName
    /// The application that copied, where the backend can tell (X11: `WM_CLASS` of the owner's client), looked up
    /// while it was read.
    public var ownerClass: WindowClass?
    /// Every flavour kept, in the owner's order.
    public var snapshot: SelectionSnapshot
    /// Holds the snapshot's spooled files while the recording refers to it.
    let files: (any Sendable)?

    package init(selection: SelectionName, ownerClass: WindowClass?, snapshot: SelectionSnapshot, files: (any Sendable)?) {
        self.selection = selection
        self.ownerClass = ownerClass
        self.snapshot = snapshot
        self.files = files
    }
}
