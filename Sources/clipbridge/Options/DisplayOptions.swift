// ClipBridge — the clipbridge command-line tool.
// --display, shared by every subcommand.

import ArgumentParser

/// The X display to talk to, shared by every subcommand.
struct DisplayOptions: ParsableArguments {
    /// The display name; nil means $DISPLAY.
    @Option(name: .long, help: ArgumentHelp("The X display to use (default: $DISPLAY).", valueName: "name"))
    var display: String?
}
