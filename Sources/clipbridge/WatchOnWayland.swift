// ClipBridge — the clipbridge command-line tool.
// `clipbridge watch` on a Wayland compositor: one line per change its data-control protocol announces.

import ClipBridge
import ClipBridgeOptions
import FoundationEssentials
import Synchronization
import WaylandBridge
import WaylandSelection
import X11Selection

extension Watch {
    /// Watches the selections of compositor `name` (nil: `$WAYLAND_DISPLAY`) through data-control: one line per
    /// change, CLIPBOARD and PRIMARY apart, with its types at once — the compositor sends them with the change, so no
    /// line waits for an owner and none is "pending". The reason is `new-owner`, or `cleared` when the selection
    /// empties (its client went away or cleared it: data-control does not tell the two apart); the owner is printed
    /// as `source` (Wayland does not name the client). Ends with the compositor (status 5) or at SIGINT/SIGTERM (0).
    func watchOnWayland(_ name: String?) async throws {
        let connection = try await WaylandConnection.open(display: name, timeout: timeout.duration)
        let sources = try Dictionary(uniqueKeysWithValues: selections.map { selection in
            (selection, try WaylandClipboard(selection, connection: connection, configuration: .command, timeout: timeout.duration))
        })
        let watched = Set(sources.values.map(\.waylandSelection))
        let stopped = Mutex(false)
        try await Signals.stopping(with: {
            stopped.withLock { $0 = true }
            connection.close()
        }) {
            // --exec commands run one at a time, in the order of the reports, off the loop that prints them.
            let (reports, reportInput) = AsyncStream.makeStream(of: ChangeReport.self)
            let commands = Task {
                for await report in reports {
                    if let source = sources[report.selection] { await runCommandIfAsked(for: report, from: source) }
                }
            }
            defer { commands.cancel() }
            func finish() async {
                reportInput.finish()
                await commands.value
            }
            func report(_ selection: WaylandSelectionName, _ types: [String], reason: String) throws {
                let report = Self.report(selection, types, reason: reason)
                try print(report)
                reportInput.yield(report)
            }
            for await event in connection.events {
                switch event {
                case .current(let selection, let types):
                    guard initial, watched.contains(selection) else { continue }
                    try report(selection, types, reason: "current")
                case .offered(let selection, let types, _):
                    guard watched.contains(selection) else { continue }
                    try report(selection, types, reason: types.isEmpty ? "cleared" : "new-owner")
                case .ended(let error):
                    await finish()
                    if stopped.withLock({ $0 }) { return }
                    throw error
                case .sendRequested, .cancelled:
                    continue
                }
                if once { return await finish() }
            }
            await finish()
        }
    }

    /// A change of `selection` offering `types` (MIME types, in the source's order), as printed.
    static func report(_ selection: WaylandSelectionName, _ types: [String], reason: String) -> ChangeReport {
        let offered = types.map(SelectionTarget.init(rawValue:))
        let listed = Clipboard.types(
            for: TargetMapping.contentTargets(in: offered), converters: ClipboardConfiguration.command.converters)
        return ChangeReport(
            selection: SelectionName(selection), reason: reason,
            owner: types.isEmpty ? nil : "source", serverTime: nil, types: listed,
            isSensitive: offered.contains(TargetMapping.passwordManagerHint))
    }
}
