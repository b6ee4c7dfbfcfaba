/// The rules of a selection bridge between displays (X11's `SelectionBridge`, the X ↔ Wayland bridge), as pure
/// decisions.
package enum BridgePolicy {
    /// What the other displays are offered for an owner's TARGETS.
    package enum Plan: Sendable, Equatable {
        /// Nothing: the content is marked sensitive and sensitive content is not bridged.
        case skipSensitive
        /// Nothing: another bridge's claim (it carries ``marker``). Two bridges between the same displays would
        /// otherwise take the selection from each other forever, each seeing the other's claim as an app's.
        case skipBridged
        /// These targets, in the owner's order; `isSensitive` when the content is marked so and bridged anyway
        /// (the offer then carries the hint again).
        case offer([SelectionTarget], isSensitive: Bool)
    }

    /// The owner's targets less what cannot cross displays: the meta targets (each engine answers its own),
    /// side-effect targets and resource IDs (ICCCM 2.6.2, 2.6.3: a PIXMAP or WINDOW names a resource of the
    /// source display's server) — the same rule as a clipboard manager's (`SnapshotPolicy`).
    package static func plan(for offered: [SelectionTarget], includeSensitive: Bool) -> Plan {
        if offered.contains(where: markers.contains) { return .skipBridged }
        let isSensitive = offered.contains(SelectionTarget.passwordManagerHint)
        if isSensitive && !includeSensitive { return .skipSensitive }
        guard case .keep(let targets) = SnapshotPolicy.plan(for: offered.filter { $0 != SelectionTarget.passwordManagerHint })
        else { return .skipSensitive }
        return .offer(targets, isSensitive: isSensitive)
    }

    /// The target every bridge claim also offers, so that other bridges leave it alone (see `Plan.skipBridged`).
    package static let marker: SelectionTarget = "_CLIPBRIDGE_BRIDGED"
    /// The same mark as a MIME type, offered beside ``marker``: a Wayland compositor's XWayland sync passes on only
    /// the X targets whose names contain a '/' (wlroots 0.15 `xwayland/selection/incoming.c`, `source_get_targets`),
    /// so a bridge claim that sway copies to Wayland, or back, still says it is one.
    package static let mimeMarker: SelectionTarget = "application/x-clipbridge-bridged"
    /// Either mark.
    package static let markers: [SelectionTarget] = [marker, mimeMarker]

    /// Property types whose values are atoms or resource IDs of the source display: meaningless on another
    /// server, so a reply of such a type is refused rather than passed on as numbers that name something else.
    package static let displayBoundTypes: Set<SelectionTarget> = [
        "ATOM", "ATOM_PAIR", "PIXMAP", "BITMAP", "DRAWABLE", "COLORMAP", "WINDOW",
    ]

    /// The wait before reconnecting to a display that went away, after `failures` failed attempts in a row:
    /// 250 ms doubling to `maximum` (a restarted X server is back within a second or two; a dropped ssh
    /// forwarding may take minutes, and polling it faster would only spin).
    package static func retryDelay(failures: Int, maximum: Duration = .seconds(5)) -> Duration {
        let steps = min(max(failures, 0), 16)
        return min(.milliseconds(250) * (1 << steps), maximum)
    }
}
