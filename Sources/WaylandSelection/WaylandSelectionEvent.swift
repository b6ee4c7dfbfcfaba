/// What a compositor told a ``WaylandConnection``.
public enum WaylandSelectionEvent: Sendable {
    /// `selection` has a new offer with these MIME types, in its owner's order (none: the selection is empty).
    /// `isOwn` when it is a source of this connection coming back (the compositor tells every client, the setter
    /// too).
    case offered(WaylandSelectionName, types: [String], isOwn: Bool)
    /// `selection` as it was when the connection was made, with these MIME types (none: empty) — what a
    /// data-control device announces at once; not a change. The first two events: the clipboard, then the primary
    /// selection.
    case current(WaylandSelectionName, types: [String])
    /// A requestor asks one of our sources for data: write it to the request, then finish it.
    case sendRequested(WaylandSendRequest)
    /// Our `source` no longer holds `selection`: another client set it.
    case cancelled(WaylandSelectionName, source: WaylandSourceID)
    /// The connection ended (the compositor went away, or it was closed); no event follows.
    case ended(WaylandError)
}

/// One of our sources, as ``WaylandConnection/offer(_:as:)`` made it.
public struct WaylandSourceID: Hashable, Sendable {
    /// The connection's own number for it.
    public var rawValue: UInt64
    /// The source with this number.
    public init(rawValue: UInt64) { self.rawValue = rawValue }
}
