// ClipBridge — the clipbridge command-line tool.
// Which display server a command talks to: an X display or a Wayland compositor.

import Glibc

/// The display server a command talks to, from `--display` and the environment.
///
/// - `--display wayland:NAME`, `wayland:/path/to/socket`, `wayland-N`, or `wayland:` (for `$WAYLAND_DISPLAY`): the
///   compositor, through its data-control protocol.
/// - Any other `--display` (`:0`, `host:1.0`): that X display.
/// - No `--display`: `$DISPLAY` when it is set — also when `$WAYLAND_DISPLAY` is: under XWayland the compositor
///   keeps the X clipboard and its own in step (sway, KWin, Mutter do), and every command, drag and drop included,
///   runs there; else `$WAYLAND_DISPLAY`'s compositor; else X's default, whose failure names `DISPLAY`.
///   `--display wayland:` chooses the compositor when both are set.
enum DisplayChoice: Equatable {
    /// An X display; nil: `$DISPLAY`.
    case x11(String?)
    /// A Wayland compositor: a socket name in `$XDG_RUNTIME_DIR` or an absolute path; nil: `$WAYLAND_DISPLAY`.
    case wayland(String?)

    /// The choice for `option` (`--display`) in an environment read through `environment`.
    static func resolve(_ option: String?, environment: (String) -> String? = DisplayChoice.processEnvironment) -> DisplayChoice {
        if let option {
            if let name = waylandName(option) { return .wayland(name) }
            return .x11(option)
        }
        if let display = environment("DISPLAY"), !display.isEmpty { return .x11(nil) }
        if let wayland = environment("WAYLAND_DISPLAY"), !wayland.isEmpty { return .wayland(nil) }
        return .x11(nil)
    }

    /// The Wayland display `argument` names — `wayland-N`, `wayland:NAME`, `wayland:/path`, or `wayland:` for
    /// `$WAYLAND_DISPLAY` (inner Optional nil) — or nil when it names an X display (X display names have a ':'
    /// after the host, which `wayland-N` has not).
    static func waylandName(_ argument: String) -> String?? {
        if argument.hasPrefix("wayland:") {
            let name = String(argument.dropFirst("wayland:".count))
            return .some(name.isEmpty ? nil : name)
        }
        if argument.hasPrefix("wayland-"), !argument.contains(":") { return .some(argument) }
        return nil
    }

    /// The display `option` (`--display`) chooses, named for a server started now that must reach the same one
    /// whatever its own environment: `$DISPLAY` or `$WAYLAND_DISPLAY` resolved here, a compositor as `wayland:NAME`.
    static func forServer(_ option: String?) -> String? {
        switch resolve(option) {
        case .x11(let name): name ?? processEnvironment("DISPLAY")
        case .wayland(let name): "wayland:" + (name ?? processEnvironment("WAYLAND_DISPLAY") ?? "")
        }
    }

    /// Fails with status 4 and what does work when `display` (`--display`, else the environment) chooses a
    /// compositor for `command` (`drag`, `drop`), which runs on X only: Wayland's data-control protocols have no drag
    /// and drop.
    static func requireX(_ display: String?, for command: String) throws {
        guard case .wayland = resolve(display) else { return }
        throw CLIFailure(status: .displayUnavailable,
                         message: "Wayland's data-control protocols have no drag and drop: `\(command)` works with X windows",
                         details: [
            "Under XWayland, name its X display: --display :N (or set DISPLAY); its windows take part in drag and drop",
            "with the compositor's native windows as XWayland relays them.",
        ])
    }

    /// The process's environment variable `name`.
    static func processEnvironment(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }
}
