/// Whether a SelectionClear ends a claim of ours (ICCCM 2.2: the owner loses the selection when another client
/// claims it; the clear carries the time of that claim).
enum SelectionClearRule {
    enum Verdict: Sendable, Equatable {
        /// The clear is an earlier claim's of ours: ignore it.
        case ignore
        /// The claim is lost.
        case lost
        /// Ambiguous: ask the server who owns the selection; still us means the clear was an earlier claim's.
        case askServer
    }

    /// The verdict on a clear at `time` for our claim made at `claimTime`.
    static func verdict(clearedAt time: X11Timestamp, claimedAt claimTime: X11Timestamp) -> Verdict {
        guard time != .currentTime else { return .lost }
        // A clear older than our claim belongs to an earlier claim of ours (GTK 4 ignores those too:
        // gdkclipboard-x11.c, gdk_x11_clipboard_xevent, SelectionClear).
        if time < claimTime { return .ignore }
        // One of the same time is ambiguous: the clear that ended an earlier claim of ours carries the time of the
        // claim that replaced it, and ours may have been made in the same millisecond (two bridges claiming one
        // copy at once).
        if time == claimTime { return .askServer }
        return .lost
    }

    /// Whether a clear at `time` ends a selection adopted from a ``PreparedClaim`` at `adoptedTime`.
    static func endsAdoption(clearedAt time: X11Timestamp, adoptedAt adoptedTime: X11Timestamp) -> Bool {
        time == .currentTime || time >= adoptedTime
    }
}
