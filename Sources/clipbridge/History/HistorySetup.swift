// ClipBridge — the clipbridge command-line tool.
// Where the history lives and how the daemon records into it: one place for the daemon and `history`.

import ClipBridgeOptions
import ClipHistory
import FoundationEssentials
import Logging
import X11Selection

enum HistorySetup {
    /// The daemon's settings file's values (the defaults when there is none): where the history is and its key.
    static func settings() throws -> DaemonSettings {
        do {
            guard let path = try DaemonConfigFile.locate(explicit: nil) else { return DaemonSettings() }
            return try DaemonConfigFile.read(path).applied(to: DaemonSettings())
        } catch {
            throw CLIFailure(status: .usage, message: "\(error)")
        }
    }

    /// Opens the history: in `--directory`, else the settings' `history-directory`, else `$XDG_DATA_HOME/clipbridge`
    /// — so `history` reads what the daemon writes — with the settings' key; or fails with a message naming the
    /// directory.
    static func open(explicitDirectory: String?, settings: DaemonSettings, limits: HistoryLimits = HistoryLimits()) throws
        -> HistoryStore
    {
        let directory = explicitDirectory ?? settings.historyDirectory ?? HistoryStore.defaultDirectory()
        let key = try HistoryKeySource.key(settings, directory: directory)
        do {
            return try HistoryStore(directory: directory, limits: limits, key: key)
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
        let store = try open(explicitDirectory: nil, settings: settings, limits: limits)
        let directory = store.directory
        let collected = (try? store.collectGarbage()) ?? 0
        if collected > 0 { log.notice("history: removed \(collected) file(s) a stopped writer left") }
        var selections: Set<SelectionName> = [.clipboard]
        if settings.historyPrimary { selections.insert(.primary) }
        let policy = CapturePolicy(
            selections: selections, ignoredApplications: settings.historyIgnoreApp,
            ignoredText: try settings.historyIgnoreText.map { try CapturePolicy.TextPattern($0) })
        let encrypted = store.isEncrypted ? ", encrypted" : ""
        log.info("history: recording \(selections.map(\.rawValue).sorted().joined(separator: ", ")) into \(directory)\(encrypted)")
        return HistoryRecorder(store: store, policy: policy, logger: log)
    }
}
