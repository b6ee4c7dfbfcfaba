/// A change of a selection's owner as a selection backend (`SelectionBackend`) reports it: what it means, and the backend's own
/// names for the new owner and the time (nil when it has none).
public struct BackendOwnerChange<Terms: BackendTerms>: Sendable, Equatable {
    /// The selection.
    public var selection: SelectionName
    /// What the change means to the orchestration.
    public var meaning: OwnerChangeMeaning
    /// The new owner; nil when nobody owns the selection now.
    public var owner: Terms.Owner?
    /// When the change happened, on the backend's clock; nil when it does not say.
    public var time: Terms.Time?

    /// Creates a value.
    public init(selection: SelectionName, meaning: OwnerChangeMeaning, owner: Terms.Owner?, time: Terms.Time?) {
        self.selection = selection
        self.meaning = meaning
        self.owner = owner
        self.time = time
    }
}
