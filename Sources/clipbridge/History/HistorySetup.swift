// ClipBridge — the clipbridge command-line tool.
// Where the history lives and how the daemon records into it: one place for the daemon and `history`.

import ClipBridgeOptions
import ClipHistory
import FoundationEssentials
import Logging
import X11Selection

enum HistorySetup {
    /// The history's directory: `--directory`, else the daemon's settings file's `history-directory`, else
    /// `$XDG_DATA_HOME/clipbridge` — so `history` reads what the daemon writes.
    static func directory(explicit: String?) throws -> String {
        if let explicit { return explicit }
        do {
            if let path = try DaemonConfigFile.locate(explicit: nil),
                let configured = try DaemonConfigFile.read(path).applied(to: DaemonSettings()).historyDirectory
            {
                return configured
            }
        } catch {
            throw CLIFailure(status: .usage, message: "\(error)")
        }
        return HistoryStore.defaultDirectory()
    }

    /// Opens the history, or fails with a message naming the directory.
    static func open(directory: String, limits: HistoryLimits = HistoryLimits()) throws -> HistoryStore {
        do {
            return try HistoryStore(directory: directory, limits: limits)
        } catch {
            throw CLIFailure(status: .ioError, message: "cannot open the history in \(directory): \(error)")
        }
    }

    /// The daemon's recorder, from its settings: the store opened (its leftovers collected) and the rules.
    static func recorder(_ settings: DaemonSettings, maxCopyBytes: Int, log: Logger) throws -> HistoryRecorder {
        var limits = HistoryLimits()
        limits.maximumEntries = settings.historyEntries
        limits.maximumBytes = settings.historySize << 20
        limits.maximumEntryBytes = maxCopyBytes
        let directory = settings.historyDirectory ?? HistoryStore.defaultDirectory()
        let store = try open(directory: directory, limits: limits)
        let collected = (try? store.collectGarbage()) ?? 0
        if collected > 0 { log.notice("history: removed \(collected) file(s) a stopped writer left") }
        var selections: Set<SelectionName> = [.clipboard]
        if settings.historyPrimary { selections.insert(.primary) }
        let policy = CapturePolicy(
            selections: selections, ignoredApplications: settings.historyIgnoreApp,
            ignoredText: try settings.historyIgnoreText.map { try CapturePolicy.TextPattern($0) })
        log.info("history: recording \(selections.map(\.rawValue).sorted().joined(separator: ", ")) into \(directory)")
        return HistoryRecorder(store: store, policy: policy, logger: log)
    }
}
