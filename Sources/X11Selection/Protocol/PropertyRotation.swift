/// The properties on our window that reads receive their replies in (`CLIPBRIDGE_SEL_<n>`): one per read in
/// flight, so two reads never share one.
///
/// A property is reused only in rotation: it goes back to the end of the pool after a clean end, and is taken
/// again only once ``rotation`` others were handed out since. A stale notify an owner repeats for an earlier read
/// (ICCCM 2.4 says it must not; some do) then names a property no read is waiting on, while the server's atom
/// table stays bounded (atoms are never freed). A read that timed out or was cancelled keeps its property out of
/// the pool for good: the owner may still answer into it later.
struct PropertyRotation: Sendable {
    /// How many released properties stand between a property's release and its next use.
    static let rotation = 8
    /// The most properties kept for reuse.
    static let capacity = 64

    private var released: [X11Atom] = []

    /// A released property due for reuse, or nil: intern a new one.
    mutating func take() -> X11Atom? {
        released.count > Self.rotation ? released.removeFirst() : nil
    }

    /// Gives `property` back after its read ended: `clean` when no late reply can come into it.
    mutating func giveBack(_ property: X11Atom, clean: Bool) {
        if clean && released.count < Self.capacity { released.append(property) }
    }
}
