// ClipBridge — the clipbridge command-line tool.
// `clipbridge drag`: drag files, text or data into any application (XDND), from a small window or the pointer.

import ArgumentParser
import ClipBridge
import ClipBridgeOptions
import FoundationEssentials
import Glibc
import UniformTypes
import X11Selection
import X11TextWindows

struct Drag: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Drag files, text or data into another application (XDND).",
        discussion: """
            Opens a small window listing the items; drag one from it into any application (a browser, a \
            chat, a file manager, an editor). Files are offered as text/uri-list, \
            x-special/gnome-copied-files and their paths as text; text with its whole family \
            (UTF8_STRING, text/plain...); --data as its type first, with the fallbacks converters add.

            --from-pointer starts the drag at once from where the pointer is, without a window: move the \
            pointer to the target and click to drop (Escape cancels). Run it from a key binding.

            Each drop prints one line: "dropped ACTION TARGET-WINDOW", "refused", "cancelled" or \
            "abandoned" (--json: {"outcome", "action", "target", "targetAccepted", "items"}). A drop is \
            judged as GTK 4 judges it: a target that accepted the drag and finished the drop has taken it, \
            with the action it accepted, even when its finish says otherwise (Kate does, for a file it \
            opened); that flag is "targetAccepted". The exit status is 0 when the last drag was dropped, 7 \
            when it was refused or cancelled, 3 when the target stopped answering.

            EXAMPLES:
              clipbridge drag photo.jpg notes.pdf          # a window with two items
              clipbridge drag --all --once *.png           # drag them all at once, exit after the drop
              clipbridge drag --from-pointer report.pdf     # from a key binding: click where it goes
              clipbridge drag --text 'hello'               # drag text
              curl -s URL | clipbridge drag --data -t image/png
            """
    )

    @OptionGroup var displayOptions: DisplayOptions

    @Argument(help: ArgumentHelp("Files to drag.", valueName: "file"))
    var files: [String] = []

    @Option(name: .long, help: ArgumentHelp("Drag this text (repeatable).", valueName: "string"))
    var text: [String] = []

    @Flag(name: .long, help: "Drag data read from --file, or standard input, as -t TYPE.")
    var data = false

    @Option(name: [.customShort("t"), .long], help: ArgumentHelp("With --data: its type.", valueName: "type"))
    var type: TypeName?

    @Option(name: [.customShort("f"), .long], help: ArgumentHelp("With --data: read it from this file.", valueName: "path"))
    var file: String?

    @Flag(name: .long, help: "Every drag takes all the items at once.")
    var all = false

    @Flag(name: .long, help: "Exit after the first successful drop.")
    var once = false

    @Flag(name: .long, help: "Remove each dropped item from the window; exit when none is left.")
    var exitWhenEmpty = false

    @Flag(name: .long, help: "Start dragging at once from the pointer, without a window; a click drops.")
    var fromPointer = false

    @Option(name: .long, parsing: .singleValue,
            help: ArgumentHelp("An action to allow: copy, move or link (repeatable; default: copy).", valueName: "action"))
    var action: [DragActionChoice] = []

    @Flag(name: .long, help: "Print one JSON object per drop.")
    var json = false

    @Flag(name: .long, help: "Ask the window manager to keep the window above the others.")
    var keepAbove = false

    @Option(name: .long, help: ArgumentHelp("Seconds a single drag may last (default: 120).", valueName: "seconds"))
    var timeout = Seconds(120)

    func validate() throws {
        if data && type == nil { throw ValidationError("--data needs -t TYPE.") }
        if !data && (type != nil || file != nil) { throw ValidationError("-t and --file go with --data.") }
        if files.isEmpty && text.isEmpty && !data { throw ValidationError("Name files to drag, or use --text or --data.") }
    }

    func run() async throws {
        MIMEDatabase.restrict()
        let display = displayOptions.display
        try await CommandRun.reportingFailures(display: display) {
            try DisplayChoice.requireX(display, for: "drag")
            let items = try loadItems()
            // The connection's reads (the drop target's requests) wait 5 s; --timeout bounds the whole drag.
            let status = try await CommandRun.withConnection(display: display, timeout: Seconds(5)) { connection, _ in
                fromPointer ? try await dragOnce(items, on: connection) : try await runWindow(items, on: connection)
            }
            if status != .success { throw ExitCode(status.rawValue) }
        }
    }

    // MARK: Items

    /// One thing to drag, and the line that shows it.
    struct Item: Sendable {
        enum Content: Sendable {
            case file(URL)
            case raw(ClipboardItem)
        }
        /// Its place in the command line's list (what thumbnails and drops are matched by).
        var id: Int
        var content: Content
        var label: String
    }

    private func loadItems() throws -> [Item] {
        var items: [Item] = []
        for path in files {
            let url = URL(fileURLWithPath: path).standardizedFileURL
            guard access(url.path, R_OK) == 0 else {
                throw CLIFailure(status: .ioError, message: "\(path): cannot be read")
            }
            let name = url.lastPathComponent
            let kind = UTType(filenameExtension: url.pathExtension)?.preferredMIMEType ?? "file"
            items.append(Item(id: items.count, content: .file(url), label: "\(name)  (\(kind))"))
        }
        for string in text {
            let shown = string.count > 40 ? String(string.prefix(40)) + "..." : string
            items.append(Item(id: items.count, content: .raw(.text(string)), label: "\"\(shown)\"  (text)"))
        }
        if data, let type {
            let payload = try file.map { try Spool.open(path: $0) } ?? Spool.spool(from: STDIN_FILENO)
            let bytes = Data(try payload.readAll())
            var item = ClipboardItem()
            if type.exactTarget.map(TargetMapping.textTargets.contains) ?? type.contentType.conforms(to: .plainText) {
                item.appendText(String(decoding: bytes, as: UTF8.self))
            } else {
                item.append(type.contentType, target: type.exactTarget, source: .data(bytes))
            }
            items.append(Item(id: items.count, content: .raw(item), label: "\(bytes.count) bytes  (\(type.text))"))
        }
        return items
    }

    private var actions: [SelectionTarget] {
        action.isEmpty ? [.xdndActionCopy] : action.map(\.target)
    }

    // MARK: Dragging

    /// One drag of `items` (all of them: files together, or raw items together).
    private func drag(_ items: [Item], on connection: X11Connection) async throws -> XdndDragOutcome {
        let limit = timeout.duration
        let urls = items.compactMap { if case .file(let url) = $0.content { url } else { nil } }
        if urls.count == items.count {
            return try await DragSource.dragFiles(urls, connection: connection, actions: actions, timeout: limit)
        }
        let raw = items.map { item -> ClipboardItem in
            switch item.content {
            case .raw(let clipboardItem): return clipboardItem
            case .file(let url):
                var fileItem = ClipboardItem()
                let type = UTType(filenameExtension: url.pathExtension) ?? .data
                fileItem.append(type, source: .file(url))
                return fileItem
            }
        }
        return try await DragSource.drag(raw, connection: connection, actions: actions, timeout: limit)
    }

    private func dragOnce(_ items: [Item], on connection: X11Connection) async throws -> ExitStatus {
        // Said once the drag holds the pointer, so the user (or a script) knows it is time to move.
        let announcer = Task {
            while !Task.isCancelled {
                if await connection.isDragging {
                    Output.complain("dragging from the pointer: click where it goes (Escape cancels)")
                    return
                }
                try? await Task.sleep(for: .milliseconds(10))
            }
        }
        defer { announcer.cancel() }
        let outcome = try await drag(items, on: connection)
        try report(outcome, items: items.count)
        return Self.status(of: outcome)
    }

    private func runWindow(_ items: [Item], on connection: X11Connection) async throws -> ExitStatus {
        let hasImages = items.contains { DragListing.imageFile($0) != nil }
        let window = try await connection.openTextWindow(
            title: "clipbridge drag", lines: DragListing.lines(for: items, all: all), width: 420, keepAbove: keepAbove,
            iconSize: hasImages ? DragListing.iconSize : 0)
        let listing = DragListing(connection: connection, window: window.window, items: items, all: all)
        let thumbnails = Task.detached { await listing.makeThumbnails() }
        defer { thumbnails.cancel() }
        var last = ExitStatus.success
        for await event in window.events {
            switch event {
            case .dragStarted(let line, _):
                guard let chosen = await listing.items(at: line) else { continue }
                let outcome = try await drag(chosen, on: connection)
                try report(outcome, items: chosen.count)
                last = Self.status(of: outcome)
                guard case .dropped = outcome else { continue }
                let emptied = exitWhenEmpty ? await listing.remove(chosen) : false
                if once || emptied {
                    await connection.closeTextWindow(window.window)
                    return .success
                }
            case .escapePressed, .closeRequested:
                await connection.closeTextWindow(window.window)
                return last
            case .pressed, .released:
                continue
            }
        }
        return last
    }

    static func status(of outcome: XdndDragOutcome) -> ExitStatus {
        switch outcome {
        case .dropped: .success
        case .refused, .cancelled: .notDropped
        case .abandoned: .timedOut
        }
    }

    private func report(_ outcome: XdndDragOutcome, items: Int) throws {
        let (name, action, target, targetAccepted): (String, String?, X11Window?, Bool?) =
            switch outcome {
            case .dropped(let target, let action, let accepted): ("dropped", Self.actionName(action), target, accepted)
            case .refused(let target): ("refused", nil, target, nil)
            case .cancelled: ("cancelled", nil, nil, nil)
            case .abandoned(let target, _): ("abandoned", nil, target, nil)
            }
        if json {
            let line = DragReport(outcome: name, action: action, target: target?.description,
                                  targetAccepted: targetAccepted, items: items)
            try Output.line(String(decoding: try TypeListing.encoder().encode(line), as: UTF8.self))
        } else {
            // A drop whose target said it did not take the data (XdndFinished's flag) says so after the window.
            let flag = targetAccepted == false ? "(the target's finish said not accepted)" : nil
            try Output.line([name, action, target?.description, flag].compactMap { $0 }.joined(separator: " "))
        }
    }

    /// `XdndActionMove` → `move`.
    static func actionName(_ action: SelectionTarget) -> String {
        let name = action.rawValue
        return name.hasPrefix("XdndAction") ? String(name.dropFirst("XdndAction".count)).lowercased() : name
    }
}

/// One drag's line in `--json`.
struct DragReport: Encodable {
    var outcome: String
    var action: String?
    var target: String?
    /// For a drop: the flag of the target's XdndFinished (whether it says it took the data); null otherwise.
    var targetAccepted: Bool?
    var items: Int

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(outcome, forKey: .outcome)
        // Always present, null when there is none.
        try container.encode(action, forKey: .action)
        try container.encode(target, forKey: .target)
        try container.encode(targetAccepted, forKey: .targetAccepted)
        try container.encode(items, forKey: .items)
    }

    private enum CodingKeys: String, CodingKey { case outcome, action, target, targetAccepted, items }
}

/// An XDND action named on the command line.
enum DragActionChoice: String, ExpressibleByArgument, CaseIterable, Sendable {
    case copy, move, link

    var target: SelectionTarget {
        switch self {
        case .copy: .xdndActionCopy
        case .move: .xdndActionMove
        case .link: .xdndActionLink
        }
    }
}
