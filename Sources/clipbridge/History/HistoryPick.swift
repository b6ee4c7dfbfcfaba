// ClipBridge — the clipbridge command-line tool.
// `clipbridge history pick`: choose an entry with rofi, dmenu or fzf (or any command), then restore it.

import ArgumentParser
import ClipBridgeOptions
import ClipHistory
import FoundationEssentials
import Glibc
import X11Selection

extension HistoryCommand {
    struct Pick: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Choose an entry with rofi, dmenu or fzf (or --picker CMD), then restore it.",
            discussion: """
                The entries go to the picker's standard input, one `ID<TAB>TIME<TAB>SUMMARY` line each, newest \
                first; the line it prints is the choice. Without --picker: fzf on a terminal, else rofi (with \
                image thumbnails as icons), else dmenu, whichever is installed. --print prints the chosen id \
                instead of restoring it.

                EXAMPLES:
                  clipbridge history pick                           # bind it to a key in your window manager
                  clipbridge history pick --picker 'rofi -dmenu -i'
                  clipbridge history pick --print | xargs clipbridge history show
                """)

        @OptionGroup var history: HistoryOptions
        @OptionGroup var displayOptions: DisplayOptions
        @Option(name: .long, help: ArgumentHelp(
            "A shell command that reads the entries' lines and prints the chosen one.", valueName: "command"))
        var picker: String?
        @Option(name: [.customShort("n"), .long], help: ArgumentHelp("Offer at most this many entries (default 1000).", valueName: "count"))
        var limit = 1000
        @Flag(name: .long, help: "Print the chosen entry's id instead of restoring it.") var print = false
        @Flag(name: .long, help: "Serve the restored entry from this process.") var foreground = false

        @MainActor
        func run() async throws {
            let store = try history.open()
            let entries = try store.entries(limit: max(1, limit))
            guard !entries.isEmpty else { throw CLIFailure(status: .nothingToPaste, message: "the history is empty").exit() }
            let (command, kind) = try picker.map { ($0, PickerKind(command: $0)) } ?? PickerKind.detect()
            var input = ""
            for entry in entries {
                input += HistoryLine.text(entry)
                if kind == .rofi, let icon = Thumbnails.icon(for: entry, in: store) { input += "\0icon\u{1f}\(icon)" }
                input += "\n"
            }
            let chosen = try ShellCommand.firstLine(command, input: input, what: "the picker")
            guard let id = chosen.split(separator: "\t").first.flatMap({ Int64(String($0).filter { $0 != " " }) }),
                entries.contains(where: { $0.id == id })
            else {
                // Escape in the picker: nothing chosen, nothing done.
                throw CLIFailure(status: .nothingToPaste, message: "nothing was chosen").exit()
            }
            if print {
                try Output.line("\(id)")
                return
            }
            try await HistoryCommand.restore(id, from: store, selection: .clipboard, display: displayOptions.display,
                                              foreground: foreground)
        }
    }
}

/// Which picker runs, and how it is told to show the entries.
enum PickerKind: Equatable {
    case fzf, rofi, dmenu, custom

    /// The kind of a command given with --picker, by its program's name (rofi gets its icons).
    init(command: String) {
        let program = command.split(separator: " ").first.map { $0.split(separator: "/").last ?? $0 } ?? ""
        switch program {
        case "fzf": self = .fzf
        case "rofi": self = .rofi
        case "dmenu": self = .dmenu
        default: self = .custom
        }
    }

    /// The command of the first picker installed that suits where we run: fzf on a terminal, else rofi, else dmenu.
    static func detect() throws -> (String, PickerKind) {
        let onTerminal = isatty(STDIN_FILENO) == 1 && isatty(STDERR_FILENO) == 1
        if onTerminal, isInstalled("fzf") {
            // The id and time stay in the line (the choice is parsed from it) but only the summary is shown.
            return ("fzf --delimiter '\t' --with-nth 3.. --no-sort --prompt 'clipboard> '", .fzf)
        }
        if getenv("DISPLAY") != nil || getenv("WAYLAND_DISPLAY") != nil {
            if isInstalled("rofi") { return ("rofi -dmenu -i -p clipboard -show-icons -display-columns 3 -display-column-separator '\t'", .rofi) }
            if isInstalled("dmenu") { return ("dmenu -i -l 20 -p clipboard", .dmenu) }
        }
        if isInstalled("fzf") { return ("fzf --delimiter '\t' --with-nth 3.. --no-sort --prompt 'clipboard> '", .fzf) }
        throw CLIFailure(status: .usage, message: "no picker found: install fzf, rofi or dmenu, or give --picker CMD").exit()
    }

    /// Whether `name` is an executable in PATH.
    static func isInstalled(_ name: String) -> Bool {
        let path = getenv("PATH").map { String(cString: $0) } ?? "/usr/bin:/bin"
        return path.split(separator: ":").contains { access("\($0)/\(name)", X_OK) == 0 }
    }
}

/// Image entries' thumbnails for rofi's icons: the image's own file (a blob) or, for a small inline image, a copy
/// in `$XDG_CACHE_HOME/clipbridge/thumbnails`. An encrypted history's images are opened into files in memory that
/// rofi reads through this process's `/proc/PID/fd` (they close when pick exits), never written to the cache.
enum Thumbnails {
    static func icon(for entry: HistoryEntry, in store: HistoryStore) -> String? {
        guard entry.summary.hasPrefix("[image "),
            let flavour = try? store.flavours(of: entry.id).first(where: { $0.target.rawValue.hasPrefix("image/") })
        else { return nil }
        if store.isEncrypted {
            guard let descriptor = try? store.openPayload(flavour) else { return nil }
            return "/proc/\(getpid())/fd/\(descriptor)"
        }
        switch try? store.content(of: flavour) {
        case nil, .opened:  // content(of:) names a blob's file; it opens nothing
            return nil
        case .file(let url):
            return url.path
        case .bytes(let data):
            let cache = (getenv("XDG_CACHE_HOME").map { String(cString: $0) }
                ?? ((getenv("HOME").map { String(cString: $0) } ?? "/tmp") + "/.cache")) + "/clipbridge/thumbnails"
            let path = "\(cache)/entry-\(entry.id).\(flavour.target.rawValue.split(separator: "/").last ?? "img")"
            if access(path, R_OK) == 0 { return path }
            guard (try? FileManager.default.createDirectory(atPath: cache, withIntermediateDirectories: true,
                                                             attributes: [.posixPermissions: 0o700])) != nil,
                FileManager.default.createFile(atPath: path, contents: data, attributes: [.posixPermissions: 0o600])
            else { return nil }
            return path
        }
    }
}
