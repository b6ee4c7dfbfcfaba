// ClipBridge — the clipbridge command-line tool.
// `clipbridge history restore ID`: the entry on the clipboard again, every flavour byte-exact, in its order.

import ArgumentParser
import ClipBridgeOptions
import ClipHistory
import FoundationEssentials
import Glibc
import X11Selection

extension HistoryCommand {
    struct Restore: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Put an entry on the clipboard again: every flavour byte-exact, in the owner's order.",
            discussion: """
                Served from a detached process, as copy does (--foreground: from this one), until another \
                application copies. The entry moves to the top of the history.
                """)

        @OptionGroup var history: HistoryOptions
        @OptionGroup var displayOptions: DisplayOptions
        @Argument(help: "The entry's id.") var id: Int64
        @Option(name: .long, help: ArgumentHelp("The selection: clipboard, primary or secondary.", valueName: "selection"))
        var selection: SelectionChoice = .clipboard
        @Flag(name: .long, help: "Serve from this process, until another application copies.") var foreground = false

        @MainActor
        func run() async throws {
            let store = try history.open()
            try await HistoryCommand.restore(
                id, from: store, selection: selection.name, display: displayOptions.display, foreground: foreground)
        }
    }

    /// Serves entry `id` on `selection` — detached as `copy` does unless `foreground` — and moves it to the top.
    @MainActor
    static func restore(
        _ id: Int64, from store: HistoryStore, selection: SelectionName, display: String?, foreground: Bool
    ) async throws {
        let flavours = try store.flavours(of: id)
        guard !flavours.isEmpty else { throw CLIFailure(status: .nothingToPaste, message: "no history entry \(id)").exit() }
        // Each payload opened now: a blob the history deletes meanwhile is still served whole. An encrypted
        // history's payloads are opened into files in memory (HistoryStore.openPayload).
        var payloads: [SpooledPayload] = []
        var raw: [CopyPlan.RawFlavour] = []
        do {
            for flavour in flavours {
                payloads.append(SpooledPayload(descriptor: try store.openPayload(flavour), size: flavour.byteCount, prefix: []))
                raw.append(.init(target: flavour.target.rawValue, type: flavour.type.rawValue, format: flavour.format,
                                 payload: payloads.count - 1))
            }
        } catch {
            for payload in payloads { close(payload.descriptor) }
            throw CLIFailure(status: .ioError, message: "entry \(id): \(error)").exit()
        }
        try store.moveToTop(id)
        let display = display ?? getenv("DISPLAY").map { String(cString: $0) }
        let plan = CopyPlan(display: display, selection: selection.rawValue, isSensitive: false, loops: nil,
                            representations: [], files: [], isCut: false, flavours: raw)
        try await CopyRequest.serve(plan: plan, payloads: payloads, foreground: foreground, display: display,
                                    selection: selection)
    }
}
