// ClipBridge — the clipbridge command-line tool's option values.
// clipboard, primary or secondary, as the command line and the daemon's settings file name them.

import ArgumentParser
import X11Selection

/// One of the three ICCCM selections, as typed on the command line or written in the settings file.
public enum SelectionChoice: String, CaseIterable, ExpressibleByArgument, Sendable {
    case clipboard, primary, secondary

    /// Any case is accepted (`CLIPBOARD`, as xclip's users write it).
    public init?(argument: String) {
        self.init(rawValue: argument.lowercased())
    }

    /// The selection atom.
    public var name: SelectionName {
        switch self {
        case .clipboard: .clipboard
        case .primary: .primary
        case .secondary: .secondary
        }
    }
}
