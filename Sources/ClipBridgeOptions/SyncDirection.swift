// ClipBridge — the clipbridge command-line tool's option values.
// Which way `clipbridge daemon --sync` copies a new selection.

import ArgumentParser
import X11Selection

/// Which way `--sync` copies.
public enum SyncDirection: String, CaseIterable, ExpressibleByArgument, Sendable {
    case primaryToClipboard = "primary-to-clipboard"
    case clipboardToPrimary = "clipboard-to-primary"
    case both

    /// (from, to) pairs.
    public var pairs: [(SelectionName, SelectionName)] {
        switch self {
        case .primaryToClipboard: [(.primary, .clipboard)]
        case .clipboardToPrimary: [(.clipboard, .primary)]
        case .both: [(.primary, .clipboard), (.clipboard, .primary)]
        }
    }
}
