/// What the bridge did.
public enum BridgeReport: Sendable, Equatable {
    /// A display is connected (at start, or back after it went away).
    case connected(display: String)
    /// A display went away or cannot be reached (reported once per outage); it is retried.
    case disconnected(display: String, reason: String)
    /// A display cannot be used, and is not retried: what failed would fail again (a command missing on the other
    /// machine, a protocol version it does not speak).
    case gaveUp(display: String, reason: String)
    /// `selection`'s owner on `from` is now offered on the displays `to`, with these targets.
    case bridged(SelectionName, from: String, to: [String], targets: [SelectionTarget])
    /// `selection`'s new owner on `from` is not offered elsewhere, and why; the other displays were released.
    case notBridged(SelectionName, from: String, reason: String)
    /// Nobody owns `selection` on `from`, the source: the other displays were released.
    case withdrawn(SelectionName, from: String)
    /// A paste on `display` was relayed in full.
    case served(SelectionName, display: String, target: SelectionTarget, byteCount: Int)
    /// A paste on `display` failed (the source refused or changed, a requestor stopped reading).
    case failed(SelectionName, display: String, target: SelectionTarget, reason: String)
}

/// A failure to connect a side that another attempt would only repeat: the bridge gives the side up
/// (``BridgeReport/gaveUp(display:reason:)``) instead of retrying it.
package protocol UnusableSide: Error {}
