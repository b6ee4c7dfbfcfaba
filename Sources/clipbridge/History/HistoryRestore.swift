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

    /// Serves entry `id` on `selection` — detached as `copy` does unless `foreground` — and moves it to the top
    /// first (a detached serve ends this process; a foreground one returns only once replaced).
    ///
    /// The entry is prepared as the library's restore prepares it (``ClipboardHistory/snapshot(for:selection:)``):
    /// each blob held open, so the history pruning it meanwhile changes nothing; an encrypted history's payloads
    /// are decrypted into files in memory.
    @MainActor
    static func restore(
        _ id: Int64, from store: HistoryStore, selection: SelectionName, display: String?, foreground: Bool
    ) async throws {
        let snapshot: SelectionSnapshot
        var payloads: [SpooledPayload] = []
        var raw: [CopyPlan.RawFlavour] = []
        do {
            snapshot = try ClipboardHistory(store: store).snapshot(for: id, selection: selection)
            for flavour in snapshot.flavours {
                switch flavour.content {
                case .opened(let file): payloads.append(try Spool.payload(of: file, size: flavour.byteCount))
                case .bytes(let bytes): payloads.append(try Spool.spool(bytes: Array(bytes), inMemory: true))
                case .file(let url): payloads.append(try Spool.open(path: url.path))
                }
                raw.append(.init(target: flavour.target.rawValue, type: flavour.type.rawValue, format: flavour.format,
                                 payload: payloads.count - 1))
            }
        } catch let error as HistoryError where error.isNoSuchEntry {
            throw CLIFailure(status: .nothingToPaste, message: error.description).exit()
        } catch {
            for payload in payloads { close(payload.descriptor) }
            throw CLIFailure(status: .ioError, message: "entry \(id): \(error)").exit()
        }
        try store.moveToTop(id)
        let display = DisplayChoice.forServer(display)
        let plan = CopyPlan(display: display, selection: selection.rawValue, isSensitive: false, loops: nil,
                            representations: [], files: [], isCut: false, flavours: raw)
        try await CopyRequest.serve(plan: plan, payloads: payloads, foreground: foreground, display: display,
                                    selection: selection)
    }
}
