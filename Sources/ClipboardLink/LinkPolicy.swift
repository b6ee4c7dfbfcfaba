import SelectionCore

/// The rules of a clipboard link between two machines, as pure decisions: what crosses, which of two announcements
/// that crossed on the way wins, how credit is given back, and which failures of the far end are worth retrying.
package enum LinkPolicy {
    /// Which end of the link this is: the one that started it (`clipbridge bridge … ssh:host`) or the one started for
    /// it (`clipbridge bridge --stdio`).
    package enum Role: Sendable, Equatable {
        case initiator
        case responder
    }

    /// File lists name files of the machine that made them: on the other machine they would name nothing, or another
    /// file of the same path. They are withheld (not fetched across, in this version of the protocol); so are the
    /// lists' companions that only mean something beside them — KDE's cut flag, the XDG portals' transfer keys.
    package static let machineBoundTypes: Set<SelectionTarget> = [
        "text/uri-list", "x-special/gnome-copied-files", "x-special/mate-copied-files", "x-special/KDE-copied-files",
        "application/x-kde-cutselection", "FILE_NAME", "application/vnd.portal.filetransfer", "application/vnd.portal.files",
        "text/x-moz-url-priv",
    ]

    /// The types of an offer that cross to the other machine, in the owner's order.
    package static func crossing(_ types: [SelectionTarget]) -> [SelectionTarget] {
        types.filter { !machineBoundTypes.contains($0) }
    }

    /// Whether a peer's announcement is taken, when this end's own claim of the same selection is `ourClaim` (its
    /// generation; nil when this end holds none) and the peer had received this end's announcements up to `seen` when
    /// it sent it. A claim of ours made after `seen` crossed the peer's announcement on the way: both ends copied at
    /// once, and each would take the other's content — the clipboards swapped. The initiator's content wins: the
    /// initiator ignores the crossing announcement, the responder takes it (and the initiator's that crossed it).
    package static func acceptsAnnouncement(seen: UInt64, ourClaim: UInt64?, role: Role) -> Bool {
        guard let ourClaim, ourClaim > seen else { return true }
        return role == .responder
    }

    /// How much credit a requester gives back after passing on `passed` bytes not yet credited: all of it once it is
    /// at least a step (``LinkLimits/creditStep``), else nothing yet — a frame per piece would double the frames.
    package static func creditToGive(passed: UInt64) -> UInt32? {
        passed >= UInt64(LinkLimits.creditStep) ? UInt32(clamping: passed) : nil
    }

    /// How many bytes of a piece a server may send now: what the credit allows, at most a data frame's worth, in whole
    /// items of the piece's format (a 32-bit value is never split across frames); 0 when it must wait for credit.
    package static func sendable(remaining: Int, credit: UInt64, format: Int) -> Int {
        let unit = max(format / 8, 1)
        let allowed = min(UInt64(remaining), credit, UInt64(LinkLimits.maximumDataBytes))
        return Int(allowed) / unit * unit
    }

    /// Whether a far end that ended with `status` before the link was up is worth starting again: not when the
    /// command is missing or cannot run (a shell's 127 and 126), which another attempt would only repeat. ssh's own
    /// failures (255: no route, refused, authentication) are retried — the machine may be on its way up.
    package static func retries(afterExitStatus status: Int32) -> Bool {
        status != 126 && status != 127
    }
}
