// ClipBridge — the clipbridge command-line tool.
// --selection clipboard|primary|secondary and -p, for copy and paste.

import ArgumentParser
import ClipBridgeOptions
import X11Selection

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
