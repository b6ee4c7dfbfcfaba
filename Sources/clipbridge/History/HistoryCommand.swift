// ClipBridge — the clipbridge command-line tool.
// `clipbridge history`: the clipboard history the daemon records, in the convention of cliphist and clipmenu.

import ArgumentParser
import ClipBridge
import ClipBridgeOptions
import ClipHistory
import FoundationEssentials
import Glibc
import UniformTypes
import X11Selection

/// Options every history subcommand takes.
struct HistoryOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(
        "The history's directory (default: the daemon's history-directory, else $XDG_DATA_HOME/clipbridge).",
        valueName: "path"))
    var directory: String?

    /// The history, or the failure printed and turned into the command's exit status.
    func open() throws -> HistoryStore {
        do {
            return try HistorySetup.open(explicitDirectory: directory, settings: HistorySetup.settings())
        } catch let failure as CLIFailure {
            throw failure.exit()
        }
    }
}

struct HistoryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history",
        abstract: "List, search, show, restore and manage the clipboard history the daemon records.",
        discussion: """
            clipbridge daemon records every copy — every flavour, byte-exact, in the owner's order — into an \
            SQLite database in $XDG_DATA_HOME/clipbridge (private to you). Copies marked sensitive by password \
            managers (x-kde-passwordManagerHint) are never written. These commands work whether or not the \
            daemon runs.

            EXAMPLES:
              clipbridge history                       # newest first: id, time, summary
              clipbridge history search invoice
              clipbridge history show 42 > note.txt
              clipbridge history show 42 -t image/png > shot.png
              clipbridge history restore 42
              clipbridge history pick                  # rofi, dmenu or fzf, then restore the choice
            """,
        subcommands: [
            List.self, Search.self, Show.self, Restore.self, Pick.self, Delete.self, Pin.self, Unpin.self, Clear.self, Pause.self,
            Resume.self, Check.self,
        ],
        defaultSubcommand: List.self
    )
}

/// The options a listing takes.
struct ListingOptions: ParsableArguments {
    @Flag(name: .long, help: "One JSON object per line: id, time, selection, application, pinned, bytes, summary, targets.")
    var json = false

    @Option(name: [.customShort("t"), .long], help: ArgumentHelp(
        "Only entries with a flavour of this type: text, image, text/html, UTF8_STRING, image/*.", valueName: "type"),
        transform: { text in
            guard let pattern = TypePattern(argument: text) else { throw ValidationError("unknown type '\(text)'") }
            return pattern
        })
    var type: TypePattern?

    @Option(name: [.customShort("n"), .long], help: ArgumentHelp("At most this many entries.", valueName: "count"))
    var limit: Int?

    func validate() throws {
        if let limit, limit < 1 { throw ValidationError("--limit must be at least 1") }
    }

    var filter: ((HistoryEntry) -> Bool)? {
        guard let type else { return nil }
        let keeps = TypePattern.filter([type])
        return { entry in entry.targets.contains { keeps?($0) ?? true } }
    }

    /// Writes the lines in one go (10,000 entries are 10,000 lines: one write each cost more than the query).
    func print(_ entries: [HistoryEntry]) throws {
        var text = ""
        for entry in entries {
            text += json ? try HistoryLine.json(entry) : HistoryLine.text(entry)
            text += "\n"
        }
        try Output.write(text, to: STDOUT_FILENO)
    }
}

extension HistoryCommand {
    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List the entries, newest first: id, time and summary, tab-separated.")

        @OptionGroup var history: HistoryOptions
        @OptionGroup var listing: ListingOptions

        func run() throws {
            let store = try history.open()
            try listing.print(try store.entries(limit: listing.limit ?? .max, matching: listing.filter))
        }
    }

    struct Search: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List the entries whose text holds every word given (as word beginnings), newest first.")

        @OptionGroup var history: HistoryOptions
        @OptionGroup var listing: ListingOptions
        @Argument(help: "The words.") var words: [String]

        func run() throws {
            let store = try history.open()
            let found = try store.search(words.joined(separator: " "), limit: listing.limit ?? .max, matching: listing.filter)
            guard !found.isEmpty else { throw CLIFailure(status: .nothingToPaste, message: "no entry matches").exit() }
            try listing.print(found)
        }
    }

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Write an entry's content: its text, as paste writes it, or the flavour of -t TYPE (converted when the entry has none).",
            discussion: "--list-types lists the entry's flavours in the owner's order: target, property type, format, bytes.")

        @OptionGroup var history: HistoryOptions
        @Argument(help: "The entry's id (the first column of history).") var id: Int64
        @Option(name: [.customShort("t"), .long], help: ArgumentHelp(
            "The flavour to write: a target name, MIME type or UTI (default: the text).", valueName: "type"))
        var type: String?
        @Flag(name: .long, help: "List the entry's flavours instead.") var listTypes = false

        func run() throws {
            let store = try history.open()
            let flavours = try store.flavours(of: id)
            guard !flavours.isEmpty else { throw CLIFailure(status: .nothingToPaste, message: "no history entry \(id)").exit() }
            if listTypes {
                for flavour in flavours {
                    try Output.line("\(flavour.target.rawValue)\t\(flavour.type.rawValue)\t\(flavour.format)\t\(flavour.byteCount)")
                }
                return
            }
            let written: Data
            var asText = type == nil
            if let (flavour, text) = HistoryFlavourChoice.choose(type, in: flavours) {
                asText = text
                let bytes = try store.bytes(of: flavour)
                written = text ? TargetMapping.canonicalText(bytes, target: flavour.target, propertyType: flavour.type) ?? bytes : bytes
            } else if let (flavour, chain) = HistoryFlavourChoice.conversion(to: type, in: flavours) {
                // Converted as a paste converts (the command's converters: text from HTML, images between formats).
                var bytes = try store.bytes(of: flavour)
                if TargetMapping.contentType(for: flavour.target).conforms(to: .plainText) {
                    bytes = TargetMapping.canonicalText(bytes, target: flavour.target, propertyType: flavour.type) ?? bytes
                }
                do {
                    written = try chain.apply(bytes)
                } catch {
                    throw CLIFailure(status: .transferFailed, message: "entry \(id): \(chain): \(error)").exit()
                }
            } else {
                throw CLIFailure(
                    status: .nothingToPaste,
                    message: type.map { "entry \(id) has no flavour of type \($0), nor one that converts to it" }
                        ?? "entry \(id) has no text, nor a flavour that converts to text",
                    details: flavours.map { "  \($0.target.rawValue)" }
                ).exit()
            }
            try written.withUnsafeBytes { try Output.write($0, to: STDOUT_FILENO) }
            if asText { try Output.endLineOnTerminal(after: written.last) }
        }
    }

    struct Delete: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Delete entries (their files go with them).")
        @OptionGroup var history: HistoryOptions
        @Argument(help: "The entries' ids.") var ids: [Int64]

        func run() throws {
            let deleted = try history.open().delete(ids)
            if deleted < Set(ids).count {
                throw CLIFailure(status: .nothingToPaste, message: "\(Set(ids).count - deleted) of the entries did not exist").exit()
            }
        }
    }

    struct Pin: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Pin entries: the history's limits never evict them.")
        @OptionGroup var history: HistoryOptions
        @Argument(help: "The entries' ids.") var ids: [Int64]

        func run() throws { try HistoryCommand.setPinned(ids, true, in: history) }
    }

    struct Unpin: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Unpin entries.")
        @OptionGroup var history: HistoryOptions
        @Argument(help: "The entries' ids.") var ids: [Int64]

        func run() throws { try HistoryCommand.setPinned(ids, false, in: history) }
    }

    struct Clear: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Delete every entry but the pinned ones (--all: those too).")
        @OptionGroup var history: HistoryOptions
        @Flag(name: .long, help: "Delete pinned entries too.") var all = false

        func run() throws {
            let deleted = try history.open().clear(keepingPinned: !all)
            Output.complain("deleted \(deleted) entr\(deleted == 1 ? "y" : "ies")")
        }
    }

    struct Pause: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Record nothing until resume (or for a while: --for SECONDS): a private mode.")
        @OptionGroup var history: HistoryOptions
        @Option(name: .customLong("for"), help: ArgumentHelp("Resume by itself after this many seconds.", valueName: "seconds"))
        var duration: Seconds?

        func run() throws {
            let until = duration.map { Date(timeIntervalSinceNow: Double($0.milliseconds) / 1000) } ?? .distantFuture
            try history.open().pause(until: until)
        }
    }

    struct Resume: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Record again after pause.")
        @OptionGroup var history: HistoryOptions

        func run() throws { try history.open().resume() }
    }

    struct Check: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Check the history: the database's integrity and every payload file (exit 0: sound).")
        @OptionGroup var history: HistoryOptions

        func run() throws {
            let store = try history.open()
            let problems = try store.verify()
            for problem in problems { Output.complain(problem) }
            guard problems.isEmpty else { throw CLIFailure(status: .ioError, message: "the history has problems").exit() }
            let (entries, bytes) = try store.totals()
            try Output.line("ok: \(entries) entries, \(bytes) bytes")
        }
    }

    static func setPinned(_ ids: [Int64], _ pinned: Bool, in history: HistoryOptions) throws {
        let store = try history.open()
        let missing = try ids.filter { try !store.setPinned($0, pinned) }
        if !missing.isEmpty {
            throw CLIFailure(status: .nothingToPaste, message: "no history entry \(missing.map(String.init).joined(separator: ", "))").exit()
        }
    }
}
