// ClipBridge — the clipbridge command-line tool.
// What `clipbridge copy` does, given its options as plain values.

import ClipBridge
import ClipBridgeOptions
import FoundationEssentials
import Glibc
import UniformTypes
import WaylandBridge
import WaylandSelection
import X11Selection

/// One `copy`, separate from its command-line form so that a bare `… | clipbridge copy` runs it without
/// building the ArgumentParser command at all (see `PasteRequest`): this is the process the caller waits
/// for, so it does the minimum (no X connection, no type registry) before starting the server.
struct CopyRequest: Sendable {
    /// --display; nil means $DISPLAY.
    var display: String? = nil
    /// --selection / -p.
    var selection: SelectionName = .clipboard
    /// TEXT: the arguments, joined by spaces.
    var text: [String] = []
    /// -t TYPE.
    var type: TypeName? = nil
    /// --file PATH.
    var file: String? = nil
    /// --add TYPE=PATH, in order.
    var add: [AddedRepresentation] = []
    /// --files PATH….
    var files: [String] = []
    /// --cut.
    var cut = false
    /// --sensitive.
    var sensitive = false
    /// --paste-once.
    var pasteOnce = false
    /// --loops N.
    var loops: Int? = nil
    /// --foreground.
    var foreground = false
    /// --clear.
    var clear = false
    /// --keep-order.
    var keepOrder = false
    /// --osc52: through the terminal even where a display is set.
    var osc52 = false
    /// --osc52-limit BYTES: what the terminal takes, where it is not known.
    var osc52Limit: Int? = nil

    /// Runs the copy: `--clear` and `--foreground` in this process, any other copy detached (``Detach``).
    ///
    /// On the main actor so that a caller on the main thread (`main`) enters it without a hop: everything
    /// up to the detach is synchronous, so the process still has a single thread when ``Detach`` decides
    /// whether it may fork. Does not return after a detach: the caller's side ends the process with status 0
    /// once the server owns the selection, the forked server's side when it stops serving.
    @MainActor
    func run() async throws {
        // No display but a terminal (a shell reached by ssh), or --osc52: the terminal's clipboard, through OSC 52.
        if osc52 || TerminalCopy.applies(display: display) {
            do {
                try TerminalCopy.copy(self, limit: osc52Limit)
            } catch {
                throw CLIFailure(error, display: display, selection: selection).exit()
            }
            return
        }
        let plan: CopyPlan
        let payloads: [SpooledPayload]
        do {
            if clear {
                try await Self.clearSelection(selection, display: display)
                return
            }
            (plan, payloads) = try makePlan()
        } catch {
            throw CLIFailure(error, display: display, selection: selection).exit()
        }
        try await Self.serve(plan: plan, payloads: payloads, foreground: foreground, display: display, selection: selection)
    }

    /// Serves `plan`: detached (``Detach``; does not return then), or from this process with `foreground`.
    /// On the main actor for the same reason as ``run()``: a caller on the main thread keeps the process
    /// single-threaded up to the detach.
    @MainActor
    static func serve(plan: CopyPlan, payloads: [SpooledPayload], foreground: Bool, display: String?,
                      selection: SelectionName) async throws {
        do {
            guard foreground else {
                switch try Detach.start(plan: plan, payloads: payloads, timeout: Seconds(5)) {
                case .caller: _exit(ExitStatus.success.rawValue)
                case .server(let server): await server.serve()
                }
            }
            try await serveInForeground(plan: plan, payloads: payloads, display: display, selection: selection)
        } catch {
            throw CLIFailure(error, display: display, selection: selection).exit()
        }
    }

    /// `--foreground`: serves from this process until the server ends.
    private static func serveInForeground(
        plan: CopyPlan, payloads: [SpooledPayload], display: String?, selection: SelectionName
    ) async throws {
        let server = CopyServer(plan: plan, payloads: payloads)
        var failure: CLIFailure?
        let ending = await server.run { result in
            if case .failure(let error) = result { failure = error }
        }
        if let failure { throw failure }
        switch ending {
        case .signal(let signal):
            Output.complain("\(Signals.name(signal)): released the selection")
        case .connectionEnded:
            // The lease ended without a loss, the loop count or a signal: the display server went away.
            let server: String
            if case .wayland = DisplayChoice.resolve(plan.display) {
                server = "the Wayland compositor \(plan.display ?? "")"
            } else {
                server = "X display \(display ?? CLIFailure.environmentDisplay ?? "(DISPLAY unset)")"
            }
            throw CLIFailure(status: .transferFailed, message: "the connection to \(server) broke (\(selection.rawValue))")
        default:
            break
        }
    }

    /// Reads the payloads and builds the plan.
    func makePlan() throws -> (CopyPlan, [SpooledPayload]) {
        // The server gets the display resolved here, so it talks to the display the caller meant even
        // if its environment were different.
        let display = DisplayChoice.forServer(self.display)
        var plan = CopyPlan(display: display, selection: selection.rawValue,
                            isSensitive: sensitive, loops: pasteOnce ? 1 : loops,
                            representations: [], files: [], isCut: cut)
        if !files.isEmpty {
            let cwd = FileManager.default.currentDirectoryPath
            plan.files = try files.map { path in
                let absolute = URL(fileURLWithPath: path, relativeTo: URL(fileURLWithPath: cwd, isDirectory: true))
                    .standardizedFileURL.path
                guard FileManager.default.fileExists(atPath: absolute) else {
                    throw CLIFailure(status: .ioError, message: "no such file: \(path)")
                }
                return absolute
            }
            return (plan, [])
        }
        var payloads: [SpooledPayload] = []
        func load(_ path: String) throws -> SpooledPayload {
            path == "-" ? try Spool.spool(from: STDIN_FILENO) : try Spool.open(path: path)
        }
        // The main content: TEXT, --file, or standard input when nothing else names content.
        if !text.isEmpty {
            payloads.append(try Spool.spool(bytes: Array(text.joined(separator: " ").utf8)))
        } else if let file {
            payloads.append(try load(file))
        } else if add.isEmpty {
            payloads.append(try Spool.spool(from: STDIN_FILENO))
        }
        if !payloads.isEmpty {
            let name = file.flatMap { $0 == "-" ? nil : $0.split(separator: "/").last.map(String.init) ?? $0 }
            plan.representations += Detection.representations(for: payloads[0], explicitType: type,
                                                               fileName: name, index: 0)
        }
        for added in add {
            payloads.append(try load(added.path))
            let index = payloads.count - 1
            // --add names its type explicitly and is offered under that very name (`text/plain` too, which the
            // text family offers only for Latin-1 text — xclip offers what it is told); a text name also brings
            // the whole text family, added after the whole list.
            plan.representations.append(CopyPlan.Representation(typeName: added.type.text, payload: index))
            if Detection.isTextFamily(added.type),
               !plan.representations.contains(where: { $0.typeName == nil && $0.payload == index }) {
                plan.representations.append(CopyPlan.Representation(typeName: nil, payload: index))
            }
        }
        if !add.isEmpty, !plan.representations.contains(where: { $0.typeName == nil }),
           let textual = payloads.indices.first(where: {
               ContentSniffer(prefix: payloads[$0].prefix, size: payloads[$0].size).isTextLike
           }) {
            plan.representations.append(CopyPlan.Representation(typeName: nil, payload: textual))
        }
        if !add.isEmpty, !keepOrder {
            // Richest first, whatever order the options came in (HTML before plain text, an image before its name).
            plan.representations = OfferOrder.richestFirst(plan.representations) { representation in
                representation.typeName.flatMap(TypeName.resolve).map { type in
                    type.exactTarget.map(TargetMapping.contentType(for:)) ?? type.contentType
                }
            }
        }
        return (plan, payloads)
    }

    /// Takes the selection with an empty offer and releases it at once, so it ends up owned by nobody
    /// whoever owned it before (the previous owner gets SelectionClear and, if it is a clipbridge
    /// server, exits).
    static func clearSelection(_ selection: SelectionName, display: String?) async throws {
        if case .wayland(let compositor) = DisplayChoice.resolve(display) {
            // data-control empties a selection whoever holds it; the source it held is cancelled (a clipbridge
            // server then exits, as on X).
            let connection = try await WaylandConnection.open(display: compositor)
            defer { connection.close() }
            try await connection.clear(try selection.wayland())
            return
        }
        let connection = try await X11Connection.open(display: display)
        do {
            _ = try await connection.claim(selection, offering: SelectionOffer([]))
            await connection.release(selection)
        } catch {
            await connection.shutdown()
            throw error
        }
        await connection.shutdown()
    }
}
