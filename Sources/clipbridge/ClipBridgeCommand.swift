// ClipBridge — the clipbridge command-line tool.
// The root command: copy, paste, watch and type on the X11 clipboard, with UTType-aware types.

import ArgumentParser
import Glibc

/// `clipbridge`: the X11 clipboard from the shell, typed with UTType.
@main
struct ClipBridgeCommand: AsyncParsableCommand {
    /// The version `--version` prints.
    static let version = "0.1.0"

    static let configuration = CommandConfiguration(
        commandName: "clipbridge",
        abstract: "Copy, paste and watch the X11 clipboard, with types (MIME, UTI or X target names).",
        discussion: """
            copy returns at once and serves from a detached process; paste streams any size; watch \
            reports owner changes; type explains a type name. Every command takes --display NAME.

            EXAMPLES:
              echo hello | clipbridge copy
              clipbridge paste
              clipbridge copy --file shot.png && clipbridge paste --list-types
              clipbridge paste -t image -o out.png
              clipbridge watch --json
              clipbridge type .php

            SHELL COMPLETION (bash, zsh, fish):
              clipbridge --generate-completion-script bash > ~/.clipbridge.bash

            \(ExitStatus.helpTable)
            """,
        version: version,
        subcommands: [
            Copy.self, Paste.self, Watch.self, TypeCommand.self, Daemon.self, HistoryCommand.self, Bridge.self, Drag.self,
            Drop.self,
            ServeDetached.self,
        ]
    )

    /// Unblocks the signals we handle before anything else runs (an inherited blocked mask would make
    /// `copy --foreground` and `watch` ignore SIGTERM) and opens standard streams the caller closed, then runs the
    /// command line (``Invocation``).
    static func main() async {
        Signals.unblockHandledSignals()
        Descriptors.openClosedStandardStreams()
        Memory.keepFreedChunks()
        do {
            try await Invocation.run(Invocation.fromCommandLine())
        } catch let code as ExitCode {
            // The message is printed already; ArgumentParser's exit(withError:) would build its help
            // generator just to find that out, a visible part of a failing command's time.
            Glibc.exit(code.rawValue)
        } catch {
            exit(withError: error)
        }
    }
}
