// ClipBridge — the clipbridge command-line tool.
// `clipbridge copy`: own a selection and serve typed content, detached by default.

import ArgumentParser
import ClipBridge
import Foundation
import Glibc
import UniformTypes
import X11Selection

/// `--add TYPE=PATH`: one more representation of the copied item.
struct AddedRepresentation: ExpressibleByArgument, Sendable {
    var type: TypeName
    var path: String

    init?(argument: String) {
        guard let equals = argument.firstIndex(of: "="),
              let type = TypeName.resolve(String(argument[..<equals])) else { return nil }
        self.type = type
        self.path = String(argument[argument.index(after: equals)...])
        if path.isEmpty { return nil }
    }
}

struct Copy: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Copy text, standard input or files to a selection, and serve it from the background.",
        discussion: """
            With no TEXT, standard input is copied. The command returns as soon as the selection is \
            owned; a detached server (new session, no terminal, SIGHUP ignored) keeps serving until \
            another client copies, the --loops count is reached, or it receives SIGTERM. Large input \
            goes to a private temporary file, never to memory.

            Types are detected from the file name and the content, and text is never hidden: content \
            that reads as text always also offers the text family (UTF8_STRING, text/plain, STRING, …).

            EXAMPLES:
              clipbridge copy "hello world"
              echo hi | clipbridge copy
              x=$(date | clipbridge copy)              # returns at once
              clipbridge copy --file shot.png          # image/png, detected
              clipbridge copy -t text/html < page.html # text/html plus the text family
              clipbridge copy --add application/json=note.json --add text/plain=note.txt
              clipbridge copy --files a.pdf b.png --cut
              pass show site | clipbridge copy --sensitive --paste-once
              clipbridge copy --clear -p
            """
    )

    @OptionGroup var displayOptions: DisplayOptions
    @OptionGroup var selectionOptions: SelectionOptions

    @Argument(help: "Text to copy (the arguments joined by spaces). Without TEXT, standard input is copied.")
    var text: [String] = []

    @Option(name: [.customShort("t"), .long],
            help: ArgumentHelp("The type of the content: a MIME type, a UTI or an X target name. Disables detection.",
                               valueName: "type"))
    var type: TypeName?

    @Option(name: .long, help: ArgumentHelp("Copy a file's content ('-' for standard input); its type is "
                                            + "detected from its name and content unless -t is given.",
                                            valueName: "path"),
            completion: .file())
    var file: String?

    @Option(name: .long, parsing: .singleValue,
            help: ArgumentHelp("Offer one more representation: TYPE=PATH ('-' for standard input). Repeatable; "
                               + "the order given is the preference order.", valueName: "type=path"))
    var add: [AddedRepresentation] = []

    @Option(name: .long, parsing: .upToNextOption,
            help: ArgumentHelp("Copy files as a file manager does (text/uri-list, x-special/gnome-copied-files, "
                               + "the paths as text).", valueName: "path"),
            completion: .file())
    var files: [String] = []

    @Flag(name: .long, help: "With --files: mark the files cut (a file manager's paste moves them).")
    var cut = false

    @Flag(name: .long, help: ArgumentHelp("Mark the content sensitive (x-kde-passwordManagerHint = secret): "
                                          + "clipboard managers and history tools do not record it."))
    var sensitive = false

    @Flag(name: .long, help: "Serve one paste, then release the selection (same as --loops 1).")
    var pasteOnce = false

    @Option(name: .long, help: ArgumentHelp("Serve N pastes, then release. Only content transfers count, and a "
                                            + "requestor fetching again within 0.5 s counts once.", valueName: "n"))
    var loops: Int?

    @Flag(name: .long, help: ArgumentHelp("Serve from this process until ownership is lost or SIGINT/SIGTERM "
                                          + "arrives, then release cleanly."))
    var foreground = false

    @Flag(name: .long, help: "Clear the selection (whoever owns it) and exit.")
    var clear = false

    /// `copy` with every option at its default (standard input, CLIPBOARD, detached), built without
    /// ArgumentParser's reflection-based parse (used for a bare `clipbridge copy`; see
    /// `ClipBridgeCommand.main`). Each property must be set: an unparsed property wrapper cannot be read.
    static func withDefaults() -> Copy {
        var copy = Copy()
        var display = DisplayOptions()
        display.display = nil
        copy.displayOptions = display
        var selection = SelectionOptions()
        selection.selection = .clipboard
        selection.primary = false
        copy.selectionOptions = selection
        copy.text = []
        copy.type = nil
        copy.file = nil
        copy.add = []
        copy.files = []
        copy.cut = false
        copy.sensitive = false
        copy.pasteOnce = false
        copy.loops = nil
        copy.foreground = false
        copy.clear = false
        return copy
    }

    func validate() throws {
        let sources = (text.isEmpty ? 0 : 1) + (file == nil ? 0 : 1) + (files.isEmpty ? 0 : 1)
        if sources > 1 { throw ValidationError("Give only one of TEXT, --file and --files.") }
        if !files.isEmpty && (!add.isEmpty || type != nil) {
            throw ValidationError("--files cannot be combined with --add or -t.")
        }
        if cut && files.isEmpty { throw ValidationError("--cut needs --files.") }
        if let loops, loops < 1 { throw ValidationError("--loops must be at least 1.") }
        if pasteOnce && loops != nil && loops != 1 { throw ValidationError("--paste-once conflicts with --loops.") }
        if clear && (sources > 0 || !add.isEmpty) { throw ValidationError("--clear takes no content.") }
        let stdinUses = (file == "-" ? 1 : 0) + add.filter { $0.path == "-" }.count
        if stdinUses > 1 { throw ValidationError("Standard input can be used only once.") }
    }

    func run() async throws {
        let display = displayOptions.display
        let selection = selectionOptions.name
        do {
            if clear {
                try await Self.clearSelection(selection, display: display)
                return
            }
            let (plan, payloads) = try makePlan()
            if foreground {
                let server = CopyServer(plan: plan, payloads: payloads)
                var failure: CLIFailure?
                let ending = await server.run { result in
                    if case .failure(let error) = result { failure = error }
                }
                if let failure { throw failure }
                if case .signal(let signal) = ending {
                    Output.complain("\(Signals.name(signal)): released the selection")
                }
                return
            }
            try Self.detach(plan: plan, payloads: payloads)
        } catch {
            throw CLIFailure(error, display: display, selection: selection).exit()
        }
    }

    /// Reads the payloads and builds the plan.
    func makePlan() throws -> (CopyPlan, [SpooledPayload]) {
        // The server gets the display resolved here, so it talks to the display the caller meant even
        // if its environment were different.
        let display = displayOptions.display ?? getenv("DISPLAY").map { String(cString: $0) }
        var plan = CopyPlan(display: display, selection: selectionOptions.name.rawValue,
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
            let name = file.flatMap { $0 == "-" ? nil : ($0 as NSString).lastPathComponent }
            plan.representations += Detection.representations(for: payloads[0], explicitType: type,
                                                               fileName: name, index: 0)
        }
        for added in add {
            payloads.append(try load(added.path))
            let index = payloads.count - 1
            // --add names its type explicitly; the text family is still added after the whole list
            // when the content reads as text and no text representation was given.
            let typeName: String? = Detection.isTextFamily(added.type) ? nil : added.type.text
            plan.representations.append(CopyPlan.Representation(typeName: typeName, payload: index))
        }
        if !add.isEmpty, !plan.representations.contains(where: { $0.typeName == nil }),
           let textual = payloads.indices.first(where: {
               ContentSniffer(prefix: payloads[$0].prefix, size: payloads[$0].size).isTextLike
           }) {
            plan.representations.append(CopyPlan.Representation(typeName: nil, payload: textual))
        }
        return (plan, payloads)
    }

    /// Starts the detached server and waits until it owns the selection (or failed to).
    static func detach(plan: CopyPlan, payloads: [SpooledPayload]) throws {
        let json = String(decoding: try JSONEncoder().encode(plan), as: UTF8.self)
        let child = try Background.spawnDetached(arguments: ["serve-detached", json],
                                                 passing: payloads.map(\.descriptor))
        try Background.awaitReadiness(statusDescriptor: child.status, pid: child.pid, timeoutMilliseconds: 15_000)
    }

    /// Takes the selection with an empty offer and releases it at once, so it ends up owned by nobody
    /// whoever owned it before (the previous owner gets SelectionClear and, if it is a clipbridge
    /// server, exits).
    static func clearSelection(_ selection: SelectionName, display: String?) async throws {
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
