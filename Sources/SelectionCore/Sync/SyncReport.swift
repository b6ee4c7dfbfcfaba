/// What the sync did.
public enum SyncReport: Sendable, Equatable {
    /// The source's content, with this many flavours, now serves the destination.
    case copied(from: SelectionName, to: SelectionName, flavours: Int)
    /// The source's content was not copied, and why (sensitive, unreadable, nothing offered).
    case notCopied(from: SelectionName, to: SelectionName, reason: String)
}
