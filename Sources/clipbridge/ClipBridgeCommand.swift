// ClipBridge — the clipbridge command-line tool.
// The root command: copy, paste, watch and type on the X11 clipboard, with UTType-aware types.

import ArgumentParser
import Glibc

/// `clipbridge`: the X11 clipboard from the shell, typed with UTType.
@main
struct ClipBridgeCommand: AsyncParsableCommand {
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
        version: "0.1.0",
        subcommands: [Copy.self, Paste.self, Watch.self, TypeCommand.self, ServeDetached.self]
    )

    /// Unblocks the signals we handle before anything else runs (an inherited blocked mask would make
    /// `copy --foreground` and `watch` ignore SIGTERM), then parses and runs as ArgumentParser does.
    static func main() async {
        Signals.unblockHandledSignals()
        Memory.keepFreedChunks()
        do {
            // The detached server is started by `copy` with exactly one argument: parse it directly.
            // ArgumentParser's reflection-based parse is a large part of a process's start-up, and
            // this start-up is on the path of every `clipbridge copy`.
            let argc = CommandLine.argc
            if argc == 3, CommandLine.argument(1, is: ServeDetached.commandName) {
                try await ServeDetached.serve(plan: CommandLine.arguments[2])
                return
            }
            // Plain `clipbridge paste` and `… | clipbridge copy`, the forms scripts run most, likewise;
            // recognised in argv itself: building `CommandLine.arguments` (an array of strings, the
            // runtime's first generic metadata of its kind) took 0.13 ms from `main` to the paste, 0.09 without.
            if argc == 2, CommandLine.argument(1, is: "paste") {
                try QuickPaste.run()  // returns only when the full path must do it
                try await PasteRequest().run()
                return
            }
            if argc == 2, CommandLine.argument(1, is: "copy") {
                // Before any await: the fork needs a process with one thread.
                if let child = try CopyRequest().startForked() { await child.serve() }
                try await CopyRequest().run()
                return
            }
            var command = try parseAsRoot()
            if let copy = command as? Copy, let child = try copy.request.startForked() {
                await child.serve()
            }
            if var asyncCommand = command as? AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch let code as ExitCode {
            // The message is printed already; ArgumentParser's exit(withError:) would build its help
            // generator just to find that out, a visible part of a failing command's time.
            Glibc.exit(code.rawValue)
        } catch {
            exit(withError: error)
        }
    }
}

extension CommandLine {
    /// Whether argument `index` (which must be below `argc`) is `word`, compared in argv itself.
    static func argument(_ index: Int, is word: String) -> Bool {
        guard let argument = unsafeArgv[index] else { return false }
        return strcmp(argument, word) == 0
    }
}
