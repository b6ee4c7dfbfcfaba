// ClipBridge — the clipbridge command-line tool.
// `clipbridge daemon`: keeps the clipboard's content alive after the application that copied it exits.

import ArgumentParser
import FoundationEssentials
import ClipBridge
import ClipBridgeOptions
import ClipHistory
import Glibc
import Logging
import X11Selection

/// The daemon's settings, whose descriptors make its options.
private typealias S = DaemonSettings

struct Daemon: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Keep the clipboard's content, every flavour, after the application that copied it exits.",
        discussion: """
            Runs in the foreground until SIGINT or SIGTERM. It is the display's clipboard manager \
            (CLIPBOARD_MANAGER, freedesktop clipboard-manager spec): an application that hands its content \
            over when it exits (GTK, Qt, LibreOffice, Firefox: SAVE_TARGETS) is answered once every flavour \
            it listed was read, and the daemon then serves them. On every copy it also reads and keeps every \
            flavour the owner offers (rich text, images, files, app-private types — in memory, or past 1 MiB \
            in private files), so that when an owner exits without handing over (xclip, terminals), the \
            daemon takes the selection and serves what it kept, in the owner's order. It never takes the \
            selection while the owner lives, and keeps nothing of content marked sensitive \
            (x-kde-passwordManagerHint). With another clipboard manager running it refuses to start, unless \
            --replace; replaced by another one, it stops.

            One line per event on standard error: kept, sensitive (not kept), not kept, saved, save refused, \
            restored, lost, replaced.

            EXAMPLES:
              clipbridge daemon
              clipbridge daemon -s clipboard -s primary --max-size 64
              clipbridge daemon --sync primary-to-clipboard
              clipbridge daemon --validate 'grep -qv "^bc1" || exit 1'
            """
    )

    @OptionGroup var displayOptions: DisplayOptions

    // The settings' options: names, help and parsing from their descriptors (DaemonSettings), so that a value
    // is checked the same whether it comes from here or from the file.
    @Option(name: S.selection.optionName, parsing: .singleValue, help: S.selection.argumentHelp, transform: S.selection.argument)
    var selection: [SelectionChoice] = []

    @Option(name: S.maxFlavourSize.optionName, help: S.maxFlavourSize.argumentHelp, transform: S.maxFlavourSize.argument)
    var maxFlavourSize: Int?

    @Option(name: S.maxSize.optionName, help: S.maxSize.argumentHelp, transform: S.maxSize.argument)
    var maxSize: Int?

    @Option(name: S.maxFlavours.optionName, help: S.maxFlavours.argumentHelp, transform: S.maxFlavours.argument)
    var maxFlavours: Int?

    @Option(name: S.keepType.optionName, parsing: .singleValue, help: S.keepType.argumentHelp, transform: S.keepType.argument)
    var keepType: [TypePattern] = []

    @Option(name: S.timeout.optionName, help: S.timeout.argumentHelp, transform: S.timeout.argument)
    var timeout: Seconds?

    @Option(name: S.sync.optionName, help: S.sync.argumentHelp, transform: S.sync.argument)
    var sync: SyncDirection?

    @Option(name: S.validate.optionName, help: S.validate.argumentHelp, transform: S.validate.argument)
    var validateCommand: String?

    @Option(name: S.validateTimeout.optionName, help: S.validateTimeout.argumentHelp, transform: S.validateTimeout.argument)
    var validateTimeout: Seconds?

    @Option(name: S.rule.optionName, parsing: .singleValue, help: S.rule.argumentHelp, transform: S.rule.argument)
    var rule: [ContentRule] = []

    @Option(name: S.stripParameter.optionName, parsing: .singleValue, help: S.stripParameter.argumentHelp,
            transform: S.stripParameter.argument)
    var stripParameter: [String] = []

    @Option(name: S.logLevel.optionName, help: S.logLevel.argumentHelp, transform: S.logLevel.argument)
    var logLevel: Logger.Level?

    @Flag(name: S.replace.optionName, help: S.replace.argumentHelp)
    var replace = false

    @Flag(name: S.noManager.optionName, help: S.noManager.argumentHelp)
    var noManager = false

    @Flag(name: S.noHistory.optionName, help: S.noHistory.argumentHelp)
    var noHistory = false

    @Flag(name: S.historyPrimary.optionName, help: S.historyPrimary.argumentHelp)
    var historyPrimary = false

    @Option(name: S.historyEntries.optionName, help: S.historyEntries.argumentHelp, transform: S.historyEntries.argument)
    var historyEntries: Int?

    @Option(name: S.historySize.optionName, help: S.historySize.argumentHelp, transform: S.historySize.argument)
    var historySize: Int?

    @Option(name: S.historyIgnoreApp.optionName, parsing: .singleValue, help: S.historyIgnoreApp.argumentHelp,
            transform: S.historyIgnoreApp.argument)
    var historyIgnoreApp: [String] = []

    @Option(name: S.historyIgnoreText.optionName, parsing: .singleValue, help: S.historyIgnoreText.argumentHelp,
            transform: S.historyIgnoreText.argument)
    var historyIgnoreText: [String] = []

    @Option(name: S.historyDirectory.optionName, help: S.historyDirectory.argumentHelp, transform: S.historyDirectory.argument)
    var historyDirectory: String?

    @Flag(name: S.historyEncrypt.optionName, help: S.historyEncrypt.argumentHelp)
    var historyEncrypt = false

    @Option(name: S.historyKeyCommand.optionName, help: S.historyKeyCommand.argumentHelp, transform: S.historyKeyCommand.argument)
    var historyKeyCommand: String?

    /// Each setting's option, for the merge over the file (one per entry of `DaemonSettings.all`).
    static var options: [DaemonOption] {
        [
            .list(\.selection, S.selection), .value(\.maxFlavourSize, S.maxFlavourSize), .value(\.maxSize, S.maxSize),
            .value(\.maxFlavours, S.maxFlavours), .list(\.keepType, S.keepType), .value(\.timeout, S.timeout),
            .value(\.sync, S.sync), .value(\.validateCommand, S.validate), .value(\.validateTimeout, S.validateTimeout),
            .list(\.rule, S.rule), .list(\.stripParameter, S.stripParameter), .value(\.logLevel, S.logLevel),
            .flag(\.replace, S.replace), .flag(\.noManager, S.noManager), .flag(\.noHistory, S.noHistory),
            .flag(\.historyPrimary, S.historyPrimary), .value(\.historyEntries, S.historyEntries),
            .value(\.historySize, S.historySize), .list(\.historyIgnoreApp, S.historyIgnoreApp),
            .list(\.historyIgnoreText, S.historyIgnoreText), .value(\.historyDirectory, S.historyDirectory),
            .flag(\.historyEncrypt, S.historyEncrypt), .value(\.historyKeyCommand, S.historyKeyCommand),
        ]
    }

    @Option(name: .long, help: ArgumentHelp(
        "The settings file, YAML (default: $XDG_CONFIG_HOME/clipbridge/daemon.yaml, daemon.yml or daemon.json, when it exists).",
        valueName: "path"))
    var config: String?

    @Flag(name: .long, help: "Print the settings the daemon would run with (file and options), then exit.")
    var checkConfig = false

    @Flag(name: .long, help: "Say whether a daemon runs on the display and what it holds, then exit (1: none runs).")
    var status = false

    /// The defaults, then the settings file, then the options given here.
    func settings() throws(ConfigError) -> DaemonSettings {
        var settings = DaemonSettings()
        if let path = try DaemonConfigFile.locate(explicit: config) {
            settings = try DaemonConfigFile.read(path).applied(to: settings)
        }
        var commandLine = SettingsLayer()
        for option in Self.options { option.add(self, &commandLine) }
        return commandLine.applied(to: settings)
    }

    func run() async throws {
        let display = displayOptions.display
        if status {
            guard let running = DaemonStatus.read(for: display) else {
                throw CLIFailure(status: .nothingToPaste, message: "no clipbridge daemon runs on display '\(DaemonStatus.displayName(display))'").exit()
            }
            for line in running.lines { print(line) }
            return
        }
        let settings: DaemonSettings
        do {
            settings = try self.settings()
        } catch {
            throw CLIFailure(status: .usage, message: error.description).exit()
        }
        if checkConfig {
            for line in settings.yamlLines { print(line) }
            return
        }
        let log = StandardErrorLogHandler.logger(level: settings.logLevel)
        // A long-running manager: its snapshot reads, its history writer and its connection's thread would each
        // keep an arena of their peak (5 copies of 50 MiB recorded: 49 MiB RSS with glibc's arenas, 33 MiB with one).
        Memory.oneArena()
        // A server: a validation hook that stops reading its input, or a requestor that goes away, is an error to
        // handle, not a death (as `bridge` and `watch` do).
        Signals.ignore(SIGPIPE)
        // A stop request shuts the connection down: every keeper ends, and so does the daemon, with status 0.
        try await CommandRun.reportingFailures(display: display, stoppedIsSuccess: true) {
            let spool = try SpoolDirectory.create()
            defer { spool.remove() }
            var limits = SnapshotLimits()
            limits.maximumFlavourBytes = settings.maxFlavourSize << 20
            limits.maximumTotalBytes = settings.maxSize << 20
            limits.maximumFlavours = settings.maxFlavours
            limits.spoolDirectory = spool.url
            limits.keepsTarget = TypePattern.filter(settings.keepType)
            var configuration = Connections.configuration(timeout: settings.timeout)
            configuration.logger = StandardErrorLogHandler.logger("X11Selection", level: settings.logLevel)
            let recorder = settings.noHistory ? nil : Self.recorder(settings, limits: limits, log: log)
            if case .wayland(let compositor) = DisplayChoice.resolve(display) {
                try await keepOnWayland(compositor, settings: settings, limits: limits, recorder: recorder, log: log)
                return
            }
            try await CommandRun.withConnection(display: display, configuration: configuration) { connection, _ in
                try await keep(on: connection, settings: settings, limits: limits, recorder: recorder, log: log)
            }
        }
    }

    /// The history's recorder; nil when the history cannot be opened (its key not to be had: a keyring not yet
    /// unlocked, a failing key command). That costs the history, not the clipboard: the daemon keeps the
    /// selections, and says why.
    private static func recorder(_ settings: DaemonSettings, limits: SnapshotLimits, log: Logger) -> HistoryRecorder? {
        do {
            return try HistorySetup.recorder(settings, maxCopyBytes: limits.maximumTotalBytes, log: log)
        } catch {
            log.error("history: not recorded: \(error); the selections are kept as usual")
            return nil
        }
    }

    /// Keeps the selections until a keeper returns (replaced as the manager) or the connection ends.
    private func keep(
        on connection: X11Connection, settings: DaemonSettings, limits: SnapshotLimits, recorder: HistoryRecorder?, log: Logger
    ) async throws {
        let display = displayOptions.display
        let names = settings.selections
        let validator = settings.validate.map { command -> SelectionKeeper.Validator in
            let hook = ValidationHook(command: command, timeout: settings.validateTimeout.duration)
            return { change in
                let (verdict, problem) = await hook.judge(change)
                if let problem { log.warning("validate \(change.selection.rawValue): \(problem); accepted") }
                return verdict
            }
        }
        let rewriter = settings.rule.isEmpty ? nil : ContentRewriter(
            rules: Set(settings.rule), extraTrackingParameters: settings.stripParameter, converters: .command).rewriter
        // The manager selection goes with CLIPBOARD, the one selection SAVE_TARGETS saves.
        let managerLease = names.contains(.clipboard) && !settings.noManager
            ? try await connection.claimManager(replacing: settings.replace, timeout: .seconds(3)) : nil
        let statusFile = DaemonStatusFile(display: display, manager: managerLease != nil, selections: names)
        defer { statusFile.remove() }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (from, to) in settings.sync?.pairs ?? [] {
                let syncer = SelectionSync(connection: connection, from: from, to: to, limits: limits)
                group.addTask { try await syncer.run { Self.log($0, to: log) } }
            }
            for name in names {
                // Each read's deadline is the connection's (--timeout, see Connections.configuration).
                let records = recorder.map { recorder in { @Sendable (recording: RecordedCopy) in recorder.record(recording) } }
                let keeper = SelectionKeeper(
                    connection: connection, selection: name, limits: limits, validator: validator, rewriter: rewriter,
                    recorder: recorder?.policy.records(name) == true ? records : nil)
                let lease = name == .clipboard ? managerLease : nil
                group.addTask {
                    try await keeper.run(managing: lease) { event in
                        statusFile.update(event)
                        Self.log(event, to: log)
                    }
                }
            }
            let rules = settings.rule.isEmpty ? "" : "; rules: " + settings.rule.map(\.rawValue).joined(separator: ", ")
            log.info(
                "keeping \(names.map(\.rawValue).joined(separator: ", "))\(managerLease == nil ? "" : "; clipboard manager")\(rules)")
            // A keeper returns when the daemon was replaced as the manager (or the connection ended): all stop.
            try await group.next()
            group.cancelAll()
        }
    }

    /// Logs a sync event.
    static func log(_ event: SelectionSync.Event, to log: Logger) {
        switch event {
        case .copied: log.info("\(line(for: event))")
        case .notCopied: log.notice("\(line(for: event))")
        }
    }

    /// Logs a keeper event at its level: what the daemon did at `info`, content it could not keep at
    /// `notice`, refusals and vetoes at `warning`.
    static func log<Requestor>(_ event: KeeperReport<Requestor>, to log: Logger) {
        let message = Logger.Message(stringLiteral: line(for: event))
        switch event {
        case .kept, .skippedSensitive, .restored, .saved, .rewritten: log.info(message)
        case .keptPart, .notKept, .lostWithOwner, .cutNotRestored, .replaced: log.notice(message)
        case .saveRefused, .vetoed: log.warning(message)
        }
    }

    /// The line a sync event is reported with.
    static func line(for event: SelectionSync.Event) -> String {
        switch event {
        case .copied(let from, let to, let flavours):
            return "synced \(from.rawValue) → \(to.rawValue): \(flavours) flavours"
        case .notCopied(let from, let to, let reason):
            return "not synced \(from.rawValue) → \(to.rawValue): \(reason)"
        }
    }

    /// "; not kept: A B C", the first 20 of `omitted` named (an owner may list thousands), or "".
    private static func notKept(_ omitted: [SelectionTarget]) -> String {
        guard !omitted.isEmpty else { return "" }
        let named = omitted.prefix(20).map(\.rawValue).joined(separator: " ")
        return "; not kept: " + named + (omitted.count > 20 ? " and \(omitted.count - 20) more" : "")
    }

    /// The line an event is reported with.
    static func line<Requestor>(for event: KeeperReport<Requestor>) -> String {
        switch event {
        case .kept(let selection, let flavours, let bytes, let omitted):
            return "kept \(selection.rawValue): \(flavours) flavours, \(bytes) bytes" + notKept(omitted)
        case .keptPart(let selection, let flavours, let bytes, let omitted):
            return "kept \(selection.rawValue) in part (the owner went away while it was read): \(flavours) flavours, "
                + "\(bytes) bytes" + notKept(omitted)
        case .skippedSensitive(let selection):
            return "sensitive \(selection.rawValue): not kept"
        case .notKept(let selection, let reason):
            return "not kept \(selection.rawValue): \(reason)"
        case .restored(let selection, let flavours):
            return "restored \(selection.rawValue): \(flavours) flavours"
        case .lostWithOwner(let selection):
            return "lost \(selection.rawValue): nothing kept to restore"
        case .cutNotRestored(let selection):
            return "not restored \(selection.rawValue): a file manager's cut is served by its owner only (a paste moves the files)"
        case .saved(let selection, let flavours, let requestor):
            return "saved \(selection.rawValue): \(flavours) flavours handed over by \(requestor)"
        case .saveRefused(let selection, let requestor, let reason):
            return "save refused \(selection.rawValue): \(requestor): \(reason)"
        case .replaced:
            return "replaced: another clipboard manager took over; stopping"
        case .vetoed(let selection, let restored):
            return "vetoed \(selection.rawValue): \(restored ? "previous content restored" : "cleared")"
        case .rewritten(let selection, let changes):
            return "rewrote \(selection.rawValue): \(changes.joined(separator: "; "))"
        }
    }
}

/// The daemon's private directory for spooled flavours: `clipbridge-daemon.` and six random characters, mode
/// 0700, in `$XDG_RUNTIME_DIR` (a per-user tmpfs) or the temporary directory.
struct SpoolDirectory {
    let url: URL

    static func create() throws -> SpoolDirectory {
        let parent = DaemonStatus.runtimeDirectory
        guard let path = PrivateFiles.makeDirectory(in: parent, prefix: "clipbridge-daemon.") else {
            throw CLIFailure(status: .ioError, message: "cannot create a directory in \(parent): \(String(cString: strerror(errno)))")
        }
        return SpoolDirectory(url: URL(fileURLWithPath: path, isDirectory: true))
    }

    /// Removes the directory and what is left in it.
    func remove() {
        try? FileManager.default.removeItem(at: url)
    }
}
