// ClipBridge — the clipbridge command-line tool.
// Library errors → one message and one exit status each (architecture.md §4.6, last point).

import ClipBridge
import Glibc
import UniformTypes
import WaylandSelection
import X11Selection

extension CLIFailure {
    /// Maps any error a command can meet to what the user sees.
    ///
    /// - Parameters:
    ///   - error: the error thrown by ClipBridge, X11Selection or the CLI itself.
    ///   - display: the display name the command used (nil = $DISPLAY), for the unreachable-display message.
    ///   - selection: the selection involved, for messages.
    init(_ error: any Error, display: String?, selection: SelectionName? = nil) {
        if let failure = error as? CLIFailure {
            self = failure
            return
        }
        let where_ = selection.map { " (\($0.rawValue))" } ?? ""
        if let error = error as? SelectionError {
            let message = Self.message(error.message, cause: error.underlying)
            switch error.code {
            case .displayUnavailable:
                let shown = display ?? Self.environmentDisplay.map { "DISPLAY=\($0)" } ?? "DISPLAY is not set"
                self.init(status: .displayUnavailable,
                          message: "cannot open the X display (\(display.map { "--display \($0)" } ?? shown)): \(message)")
            case .noOwner:
                self.init(status: .nothingToPaste, message: "nothing is copied\(where_)")
            case .targetUnavailable:
                self.init(status: .nothingToPaste, message: "the owner refused the conversion\(where_): \(message)",
                          details: Self.availableLines(error.availableTargets.map { ($0.rawValue, nil) }))
            case .timedOut:
                self.init(status: .timedOut, message: "timed out\(where_): \(message)")
            case .ownershipRefused, .ownershipLost:
                self.init(status: .ownershipFailed, message: "cannot own the selection\(where_): \(message)")
            case .pointerUnavailable, .dragInProgress:
                self.init(status: .notDropped, message: "cannot start the drag: \(message)")
            case .managerRunning:
                self.init(status: .ownershipFailed,
                          message: "another clipboard manager is running: \(message) (--replace takes over)")
            default:
                self.init(status: .transferFailed, message: "\(message)\(where_)")
            }
            return
        }
        if let error = error as? ClipboardError {
            let message = Self.message(error.message, cause: error.underlying)
            switch error.code {
            case .typeUnavailable:
                self.init(status: .nothingToPaste, message: message,
                          details: Self.availableLines(error.availableTypes.map { ($0.target.rawValue, $0.contentType.identifier) }))
            case .invalidItem:
                self.init(status: .ioError, message: message)
            default:
                self.init(status: .transferFailed, message: message)
            }
            return
        }
        if let error = error as? WaylandError {
            self.init(error, display: display, where: where_)
            return
        }
        self.init(status: .transferFailed, message: String(describing: error))
    }

    /// A Wayland failure: a compositor that cannot be reached or speaks no data-control is a display that cannot be
    /// used (status 4), with what does work there; the connection closed mid-way is a failed transfer (5).
    private init(_ error: WaylandError, display: String?, where where_: String) {
        let compositor = display ?? DisplayChoice.processEnvironment("WAYLAND_DISPLAY").map { "WAYLAND_DISPLAY=\($0)" }
            ?? "WAYLAND_DISPLAY is not set"
        switch error.code {
        case .libraryUnavailable:
            self.init(status: .displayUnavailable,
                      message: "cannot talk to a Wayland compositor: \(error.message) (Debian: apt install libwayland-client0)")
        case .noCompositor:
            self.init(status: .displayUnavailable, message: "cannot reach the Wayland compositor (\(compositor)): \(error.message)")
        case .protocolUnavailable:
            self.init(status: .displayUnavailable, message: "\(error.message)", details: [
                "clipbridge reads and owns a Wayland selection through ext-data-control-v1 or wlr-data-control, which",
                "sway, Hyprland, KDE Plasma (KWin), COSMIC and labwc serve; GNOME's Mutter and Weston serve neither.",
                "There, run it against XWayland's X display instead (--display :N, or DISPLAY).",
            ])
        case .connectionLost:
            // The loop's own words already say the compositor closed it; others (a transfer cut) add what ended.
            let detail = error.message == "the compositor closed the connection" ? "" : ": \(error.message)"
            self.init(status: .transferFailed, message: "the Wayland compositor closed the connection\(where_)\(detail)")
        case .timedOut:
            self.init(status: .timedOut, message: "timed out\(where_): \(error.message)")
        case .typeUnavailable:
            self.init(status: .nothingToPaste, message: "\(error.message)\(where_)")
        default:
            self.init(status: .transferFailed, message: "\(error.message)\(where_)")
        }
    }

    /// A library error's message followed by its underlying cause, if any (without the code the libraries'
    /// own descriptions start with).
    private static func message(_ message: String, cause: (any Error)?) -> String {
        cause.map { "\(message): \($0)" } ?? message
    }

    /// "available types:" followed by one indented line per type.
    static func availableLines(_ types: [(target: String, identifier: String?)]) -> [String] {
        guard !types.isEmpty else { return ["available types: none"] }
        return ["available types:"] + types.map { type in
            "  " + type.target + (type.identifier.map { "  (\($0))" } ?? "")
        }
    }

    /// $DISPLAY as the process sees it.
    static var environmentDisplay: String? {
        guard let value = getenv("DISPLAY") else { return nil }
        return String(cString: value)
    }
}
