// ClipBridge — the clipbridge command-line tool.
// The one table of exit statuses (wl-clipboard's `complain_about_*` idea: one message and one status
// per user-facing failure), shared by --help, the README and the tests.

import ArgumentParser

/// Every exit status `clipbridge` uses. Scripts can rely on these numbers: xsel's habit of exiting 0 on
/// failure (kfish/xsel#13, #33) is exactly what users asked us not to repeat (users-and-pains §B.2-7).
enum ExitStatus: Int32, CaseIterable, Sendable {
    /// Everything worked.
    case success = 0
    /// Nothing to paste: nobody owns the selection, or the owner does not offer the asked type
    /// (the available types are printed on stderr).
    case nothingToPaste = 1
    /// Ownership of the selection could not be taken (or was refused by the server).
    case ownershipFailed = 2
    /// The owner (or the X server) did not answer within the deadline (`--timeout`).
    case timedOut = 3
    /// The X display could not be opened; the message names the DISPLAY value that was tried.
    case displayUnavailable = 4
    /// A transfer failed: the connection was lost, the owner sent an invalid reply or vanished mid-transfer.
    case transferFailed = 5
    /// Reading input or writing output failed (a file that cannot be read, a full disk, …).
    case ioError = 6
    /// Nothing was dropped: the drag was refused or cancelled, or the drop window closed before a drop; or
    /// another client holds the pointer, so a drag cannot start.
    case notDropped = 7
    /// Bad usage: an unknown option or an invalid value (ArgumentParser's own status).
    case usage = 64

    /// One line per status, for the --help discussion and the README.
    var summary: String {
        switch self {
        case .success: "success"
        case .nothingToPaste: "nothing is copied, or the asked type is not offered"
        case .ownershipFailed: "the selection could not be owned"
        case .timedOut: "timed out waiting for the owner or the X server"
        case .displayUnavailable: "the X display cannot be opened (DISPLAY, --display)"
        case .transferFailed: "the transfer failed (connection lost, bad reply, owner gone)"
        case .ioError: "an input file could not be read, or the output written"
        case .notDropped: "nothing was dropped (refused, cancelled, window closed, pointer held elsewhere)"
        case .usage: "invalid command-line usage"
        }
    }

    /// The exit-status table as printed at the end of `clipbridge --help`.
    static var helpTable: String {
        "EXIT STATUS:\n" + allCases.map { "  \(String($0.rawValue).padding(3))  \($0.summary)" }.joined(separator: "\n")
    }
}

/// A failure the CLI reports to the user: one message, one exit status.
struct CLIFailure: Error, CustomStringConvertible, Sendable {
    /// The exit status the process ends with.
    var status: ExitStatus
    /// What went wrong, in words a script author can act on.
    var message: String
    /// Extra lines printed after the message (for example the types the owner offers).
    var details: [String] = []

    var description: String { ([message] + details).joined(separator: "\n") }
}

extension String {
    /// Right-pads to `width` characters (for small text tables).
    func padding(_ width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }
}
