/// What the validator decides about a change.
public enum KeeperVerdict: Sendable, Equatable {
    /// Let it be.
    case accept
    /// Take the selection back and serve the last accepted content again (cleared if there is none).
    case restorePrevious
    /// Take the selection away: nobody owns it afterwards.
    case clear
}
