// ClipBridge — the clipbridge command-line tool.
// Library errors → one message and one exit status each (architecture.md §4.6, last point).

import ClipBridge
import Glibc
import UniformTypes
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
        self.init(status: .transferFailed, message: String(describing: error))
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
