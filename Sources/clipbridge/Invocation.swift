// ClipBridge — the clipbridge command-line tool.
// What this process was started to do: the one place its arguments are dispatched.

import ArgumentParser
import Glibc

/// A command line, recognised.
///
/// Every command goes through here and runs as a plain value (`CopyRequest`, `PasteRequest`, or a parsed
/// command). Three forms are recognised in argv itself, without ArgumentParser, whose reflection-based
/// parse is a large part of a short command's start-up:
/// - `serve-detached PLAN`: the server `copy` re-executes (``Detach``); on the path of such a `copy`;
/// - a bare `clipbridge paste` and `… | clipbridge copy`, the forms scripts run most. Even building
///   `CommandLine.arguments` (the runtime's first generic metadata of its kind) took 0.13 ms of a paste, so
///   the words are compared in argv;
/// - `clipbridge --version`, which scripts and package checks run to see the tool is there: ArgumentParser would
///   build its whole command tree for it (`String(describing:)` of every command type, each a protocol
///   conformance lookup over the binary's 4,000 conformance records: 0.6 ms of its 4.5 ms).
/// Anything else is parsed by ArgumentParser, and `copy` and `paste` are then run from their parsed values
/// exactly as the bare forms are.
enum Invocation {
    /// `serve-detached PLAN`.
    case serveDetached(plan: String)
    /// `copy`; its detach must start before the process has a second thread (see `CopyRequest.run`).
    case copy(CopyRequest)
    /// `paste`; `isBare` when it came with no options, which first tries ``QuickPaste``.
    case paste(PasteRequest, isBare: Bool)
    /// `--version` alone.
    case version
    /// Any other command, parsed.
    case parsed(ParsableCommand)

    /// The invocation this process's arguments describe.
    /// - Throws: ArgumentParser's errors for a command line it rejects (help and version requests included).
    static func fromCommandLine() throws -> Invocation {
        let argc = CommandLine.argc
        if argc == 3, CommandLine.argument(1, is: ServeDetached.commandName) {
            return .serveDetached(plan: CommandLine.arguments[2])
        }
        if argc == 2, CommandLine.argument(1, is: "paste") { return .paste(PasteRequest(), isBare: true) }
        if argc == 2, CommandLine.argument(1, is: "copy") { return .copy(CopyRequest()) }
        if argc == 2, CommandLine.argument(1, is: "--version") { return .version }
        switch try ClipBridgeCommand.parseAsRoot() {
        case let copy as Copy: return .copy(copy.request)
        case let paste as Paste: return .paste(paste.request, isBare: false)
        case let command: return .parsed(command)
        }
    }

    /// Runs `invocation`.
    ///
    /// On the main actor, as `main` is: `copy` is entered without a hop to another thread (see
    /// `CopyRequest.run`). (`sending`, so a parsed command, not `Sendable`, may go on to run elsewhere.)
    @MainActor
    static func run(_ invocation: sending Invocation) async throws {
        switch invocation {
        case .serveDetached(let plan):
            try await ServeDetached.serve(plan: plan)
        case .copy(let request):
            try await request.run()
        case .paste(let request, let isBare):
            // QuickPaste reads X or the compositor directly, on this thread; it returns only when the full path must do it.
            if isBare { try QuickPaste.run() }
            try await request.run()
        case .version:
            try Output.line(ClipBridgeCommand.version)
        case .parsed(var command):
            if var asyncCommand = command as? AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
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
