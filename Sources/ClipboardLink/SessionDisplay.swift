/// The display a `clipbridge bridge --stdio` joins when the link names none: the far machine's own session, found as
/// a login over ssh finds nothing in its environment (no DISPLAY, no WAYLAND_DISPLAY unless forwarded or set).
package enum SessionDisplay {
    /// What was found where.
    package struct Found: Sendable, Equatable {
        /// `$DISPLAY` and `$WAYLAND_DISPLAY`, when set and not empty.
        package var display: String?
        package var waylandDisplay: String?
        /// The Wayland sockets in the user's runtime folder (`wayland-1`), and the X servers' sockets the user owns
        /// (`/tmp/.X11-unix/X0` as `0`).
        package var waylandSockets: [String]
        package var xDisplays: [String]

        package init(display: String?, waylandDisplay: String?, waylandSockets: [String], xDisplays: [String]) {
            self.display = display
            self.waylandDisplay = waylandDisplay
            self.waylandSockets = waylandSockets
            self.xDisplays = xDisplays
        }
    }

    /// The display to join (`:0`, `wayland:wayland-1`), or why none can be chosen. The environment wins (DISPLAY
    /// first, as every other command chooses); then the only compositor of the user's; then the only X server the user
    /// runs. Two or more of a kind are not guessed between.
    package static func choose(_ found: Found) -> Result<String, Unchosen> {
        if let display = found.display { return .success(display) }
        if let wayland = found.waylandDisplay { return .success("wayland:" + wayland) }
        let sockets = found.waylandSockets.sorted()
        if sockets.count == 1 { return .success("wayland:" + sockets[0]) }
        let displays = found.xDisplays.sorted { (Int($0) ?? .max) < (Int($1) ?? .max) }
        if sockets.isEmpty, displays.count == 1 { return .success(":" + displays[0]) }
        let candidates = sockets.map { "wayland:" + $0 } + displays.map { ":" + $0 }
        return .failure(Unchosen(candidates: candidates))
    }

    /// No display, or more than one, was found.
    package struct Unchosen: Error, Sendable, Equatable, CustomStringConvertible {
        package var candidates: [String]

        package var description: String {
            candidates.isEmpty
                ? "no display of this user's was found here (DISPLAY and WAYLAND_DISPLAY are not set, no compositor's or X server's socket is this user's): name one, as ssh:HOST:DISPLAY"
                : "more than one display is this user's here (\(candidates.joined(separator: ", "))): name one, as ssh:HOST:DISPLAY"
        }
    }
}
