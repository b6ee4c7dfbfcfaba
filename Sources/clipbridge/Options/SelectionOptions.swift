// ClipBridge — the clipbridge command-line tool.
// --selection clipboard|primary|secondary and -p, for copy and paste.

import ArgumentParser
import X11Selection

/// One of the three ICCCM selections, as typed on the command line.
enum SelectionChoice: String, CaseIterable, ExpressibleByArgument, Sendable {
    case clipboard, primary, secondary

    init?(argument: String) {
        self.init(rawValue: argument.lowercased())
    }

    /// The selection atom.
    var name: SelectionName {
        switch self {
        case .clipboard: .clipboard
        case .primary: .primary
        case .secondary: .secondary
        }
    }
}

/// `--selection NAME` / `-p`: which selection `copy` and `paste` use.
struct SelectionOptions: ParsableArguments {
    @Option(name: [.customShort("s"), .long], help: "The selection: clipboard, primary or secondary.")
    var selection: SelectionChoice = .clipboard

    @Flag(name: [.customShort("p"), .long], help: "Use the primary selection (same as --selection primary).")
    var primary = false

    func validate() throws {
        if primary && selection != .clipboard && selection != .primary {
            throw ValidationError("-p/--primary conflicts with --selection \(selection.rawValue).")
        }
    }

    /// The selection the options name.
    var name: SelectionName { primary ? .primary : selection.name }
}
