/// The newest server time a connection has seen, for the requests it sends: ICCCM 2.1 and 2.4 ask for a real
/// timestamp rather than `CurrentTime`, and the server gives one only in events.
///
/// It moves forward, never back: events are not delivered in time order across kinds (an XFixes notification
/// about another client's older claim can come after our own newer one), and a request stamped with an older time
/// than our own claim is one our owner side refuses (ICCCM 2.2) — a bridge asking TARGETS of itself was refused
/// that way.
struct ServerClock: Sendable, Equatable {
    /// The newest time seen; `CurrentTime` until the first.
    private(set) var latest = X11Timestamp.currentTime

    /// Takes in the time of an event from the server (`CurrentTime` says nothing).
    mutating func note(_ time: X11Timestamp) {
        guard time != .currentTime else { return }
        if latest == .currentTime || latest < time { latest = time }
    }
}
