// ClipBridge — the clipbridge command-line tool.
// `clipbridge watch`: one line per owner change (XFixes), optionally running a command per change.

import ArgumentParser
import ClipBridge
import ClipBridgeOptions
import FoundationEssentials
import Glibc
import Synchronization
import UniformTypes
import X11Selection

struct Watch: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print one line per change of a selection's owner, optionally running a command each time.",
        discussion: """
            Each line has the time, the selection, the reason (new-owner, owner-window-destroyed, \
            owner-client-closed; current for --initial), the owner window, the offered targets and \
            "sensitive" when the owner marked the content so. Content is never read, except to feed \
            --exec. A line is printed within 50 ms of the change: when the owner has not answered \
            TARGETS by then, its types say "(types pending)" and a second line, marked "update", \
            brings them once it answers (none comes if a newer change arrives first).

            JSON (--json), one object per line: {"selection": "CLIPBOARD", "reason": "new-owner", \
            "owner": "0x400001" or null, "timestamp": ISO 8601, "serverTime": X server time or null, \
            "types": [{"target", "type", ...}] or null while pending, "sensitive": bool, "update": bool}.

            --exec CMD [ARGS...] (the rest of the command line) runs CMD once per change, one at a time, \
            with the content on its standard input (the best text, or -t TYPE; empty when nothing is \
            owned) and CLIPBRIDGE_SELECTION, CLIPBRIDGE_REASON, CLIPBRIDGE_TYPES (space-separated \
            targets), CLIPBRIDGE_SENSITIVE (1 or 0), CLIPBRIDGE_TYPE and CLIPBRIDGE_OWNER in its \
            environment. Sensitive content is not given to the command unless --include-sensitive.

            EXAMPLES:
              clipbridge watch
              clipbridge watch --json -s clipboard -s primary
              clipbridge watch --once
              clipbridge watch --exec sh -c 'cat >> ~/clips.log; echo >> ~/clips.log'
            """
    )

    @OptionGroup var displayOptions: DisplayOptions

    @Option(name: [.customShort("s"), .long], parsing: .singleValue,
            help: "A selection to watch: clipboard, primary or secondary. Repeatable (default: clipboard).")
    var selection: [SelectionChoice] = []

    @Flag(name: [.customShort("p"), .long], help: "Watch the primary selection too.")
    var primary = false

    @Flag(name: .long, help: "Print one JSON object per line.")
    var json = false

    @Flag(name: .long, help: "First report the current owner of each watched selection (reason: current).")
    var initial = false

    @Flag(name: .long, help: "Exit after the first reported change.")
    var once = false

    @Option(name: [.customShort("t"), .long],
            help: ArgumentHelp("With --exec: the type given to the command (default: the best text).",
                               valueName: "type"))
    var type: TypeName?

    @Flag(name: .long, help: "With --exec: give sensitive content to the command too.")
    var includeSensitive = false

    @Option(name: .long, help: ArgumentHelp("Seconds to wait for an owner's answer.", valueName: "seconds"))
    var timeout = Seconds(5)

    @Option(name: .long, parsing: .remaining,
            help: ArgumentHelp("Run a command per change (takes the rest of the command line).",
                               valueName: "cmd args"))
    var exec: [String] = []

    func validate() throws {
        if type != nil && exec.isEmpty { throw ValidationError("-t goes with --exec.") }
        if includeSensitive && exec.isEmpty { throw ValidationError("--include-sensitive goes with --exec.") }
    }

    /// The watched selections, in the order given, without duplicates.
    var selections: [SelectionName] {
        var names = (selection.isEmpty && !primary ? [.clipboard] : selection).map(\.name)
        if primary { names.append(.primary) }
        var seen = Set<SelectionName>()
        return names.filter { seen.insert($0).inserted }
    }

    func run() async throws {
        MIMEDatabase.restrict()
        let display = displayOptions.display
        // A command that stops reading its input must not kill us with SIGPIPE.
        Signals.ignore(SIGPIPE)
        try await CommandRun.reportingFailures(display: display) {
            if case .wayland(let name) = DisplayChoice.resolve(display) { return try await watchOnWayland(name) }
            try await CommandRun.withConnection(display: display, timeout: timeout) { connection, _ in
                try await watch(on: connection)
            }
        }
    }

    private func watch(on connection: X11Connection) async throws {
        // Subscribe before looking at the current state, so no change falls between the two.
        let changes = try await connection.ownerChanges(of: selections)
        // --exec commands run one at a time, in the order of the reports, off the loop that prints them.
        let (reports, reportInput) = AsyncStream.makeStream(of: ChangeReport.self)
        let commands = Task {
            for await report in reports {
                await runCommandIfAsked(for: report, from: Clipboard(report.selection, connection: connection, configuration: .command))
            }
        }
        defer { commands.cancel() }
        func finish() async {
            reportInput.finish()
            await commands.value
        }
        if initial {
            for selection in selections {
                let report = try await currentState(of: selection, on: connection)
                try print(report)
                reportInput.yield(report)
                if once { return await finish() }
            }
        }
        var settings = ClipboardConfiguration.command
        settings.readTimeout = timeout.duration
        var typesStillComing: [SelectionName: Task<Void, Never>] = [:]
        for try await change in changes {
            // A newer change makes the older one's types moot: stop waiting for them.
            typesStillComing.removeValue(forKey: change.selection)?.cancel()
            let describing = Task { await Clipboard.describe(change, on: connection, configuration: settings) }
            // --once prints one line, so it waits for the types (bounded by --timeout).
            let wait = once ? timeout.duration + .milliseconds(100) : Self.typesWait
            if let described = await Self.value(of: describing, within: wait) {
                let report = ChangeReport(described)
                try print(report)
                reportInput.yield(report)
            } else {
                // The owner has not answered TARGETS yet: the change is printed now, its types when they come.
                try print(ChangeReport(pending: change))
                typesStillComing[change.selection] = Task {
                    let described = await withTaskCancellationHandler {
                        await describing.value
                    } onCancel: {
                        describing.cancel()
                    }
                    guard !Task.isCancelled else { return }
                    var report = ChangeReport(described)
                    report.isUpdate = true
                    try? print(report)
                    reportInput.yield(report)
                }
            }
            if once {
                typesStillComing[change.selection]?.cancel()
                return await finish()
            }
        }
        await finish()
    }

    /// How long a change's line waits for its owner's TARGETS before it is printed without them.
    static let typesWait = Duration.milliseconds(40)

    /// `task`'s value if it ends within `limit`, else nil (the task goes on).
    static func value(of task: Task<ClipboardChange, Never>, within limit: Duration) async -> ClipboardChange? {
        let race = FirstAnswer()
        return await withCheckedContinuation { continuation in
            race.waiter.withLock { $0 = continuation }
            Task { race.resume(await task.value) }
            Task {
                try? await Task.sleep(for: limit)
                race.resume(nil)
            }
        }
    }

    func print(_ report: ChangeReport) throws {
        if json {
            try Output.line(try report.jsonLine())
        } else {
            try Output.line(report.line)
        }
    }

    /// The current owner of `selection`, as a report with reason "current".
    private func currentState(of selection: SelectionName, on connection: X11Connection) async throws -> ChangeReport {
        let owner = try await connection.owner(of: selection)
        var types: [ClipboardType] = []
        if owner != nil {
            let clipboard = Clipboard(selection, connection: connection, configuration: .command)
            do {
                types = try await clipboard.availableTypes()
            } catch let error as SelectionError where error.code == .noOwner {
                types = []
            }
        }
        return ChangeReport(selection: selection, reason: "current", owner: owner.map(ChangeReport.text), serverTime: nil, types: types,
                            isSensitive: types.contains { $0.target == TargetMapping.passwordManagerHint })
    }

    /// Runs the --exec command for `report`, unless there is none or the content is sensitive; `source` reads the
    /// content of the report's selection.
    func runCommandIfAsked(for report: ChangeReport, from source: some PasteSource) async {
        guard !exec.isEmpty else { return }
        if report.isSensitive && !includeSensitive {
            Output.complain("\(report.selection.rawValue): sensitive content not given to \(exec[0]) "
                            + "(use --include-sensitive)")
            return
        }
        do {
            try await runCommand(for: report, from: source)
        } catch {
            Output.complain("\(report.selection.rawValue): \(exec[0]): " + CLIFailure(error, display: nil).message)
        }
    }

    /// Runs the --exec command with the change's content on its stdin.
    private func runCommand(for report: ChangeReport, from clipboard: some PasteSource) async throws {
        var chosen: ClipboardType?
        if report.owner != nil {
            if let type {
                if let exact = type.exactTarget {
                    chosen = report.types.first { $0.target == exact }
                } else {
                    chosen = try? await clipboard.bestType(for: type.contentType)
                }
            } else {
                chosen = try? await clipboard.bestType(for: .plainText)
                    ?? report.types.first { !$0.isConverted && $0.target != TargetMapping.passwordManagerHint }
            }
        }
        let runner = CommandRunner(arguments: exec, environment: [
            "CLIPBRIDGE_SELECTION": report.selection.rawValue,
            "CLIPBRIDGE_REASON": report.reason,
            "CLIPBRIDGE_TYPES": report.types.filter { !$0.isConverted }.map(\.target.rawValue).joined(separator: " "),
            "CLIPBRIDGE_SENSITIVE": report.isSensitive ? "1" : "0",
            "CLIPBRIDGE_TYPE": chosen?.target.rawValue ?? "",
            "CLIPBRIDGE_OWNER": report.ownerText,
        ])
        let running = try runner.start()
        if let chosen {
            do {
                _ = try await clipboard.read(chosen) { chunk in
                    let accepted = chunk.withUnsafeBytes { running.feed($0) }
                    if !accepted { throw CommandStoppedReading() }
                }
            } catch is CommandStoppedReading {
                // The command did not want all of it; that is its business.
            } catch {
                Output.complain("\(report.selection.rawValue): could not read \(chosen.target.rawValue): "
                                + CLIFailure(error, display: nil).message)
            }
        }
        _ = await running.finish()
    }

    private struct CommandStoppedReading: Error {}
}

/// A caller waiting for the first of two answers (`Watch.value(of:within:)`).
private final class FirstAnswer: Sendable {
    let waiter = Mutex<CheckedContinuation<ClipboardChange?, Never>?>(nil)

    /// Resumes the caller, if nobody did before.
    func resume(_ value: ClipboardChange?) { waiter.withLock { $0.take() }?.resume(returning: value) }
}
