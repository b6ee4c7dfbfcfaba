// ClipBridge — the clipbridge command-line tool.
// `clipbridge drop`: a small window that takes drops (XDND) and prints what arrived.

import ArgumentParser
import ClipBridge
import ClipBridgeOptions
import FoundationEssentials
import Glibc
import Synchronization
import X11Selection
import X11TextWindows

struct Drop: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Open a small window that takes drops (XDND) and print what arrives.",
        discussion: """
            Drop files, links or text on the window. Files print as local paths (decoded from \
            text/uri-list: comments skipped, CRLF or LF, percent-decoding), links from browsers as URLs \
            (text/uri-list, Firefox's UTF-16 text/x-moz-url, _NETSCAPE_URL), text as it is. With \
            --output-dir, an image (preferred over its URL: a picture dragged from a browser) or data of \
            any other type is written to a new file there (mode 0600, named drop-N.EXT from its type) and its \
            path printed; a source that saves files itself (the X Direct Save protocol, XdndDirectSave0: \
            Chromium's images) is given a file there under the name it proposes.

            --accept TYPE (repeatable, in order of preference) takes only those types. A drag offering \
            nothing the window takes is refused before the drop. Each drop prints one line per path, URL \
            or file, or the text; --json prints one object per drop: {"type", "action", "paths", "urls", \
            "text", "file"}.

            Runs until the window is closed, Escape, SIGINT or SIGTERM, --once after one drop, or \
            --exit-after seconds. Exit status 0 after a drop, 7 when the window closed with none.

            EXAMPLES:
              clipbridge drop --once                        # print the paths of the files dropped
              clipbridge drop --output-dir ~/Downloads      # save dragged images and data
              clipbridge drop --json --accept text/uri-list
            """
    )

    @OptionGroup var displayOptions: DisplayOptions

    @Flag(name: .long, help: "Exit after the first drop.")
    var once = false

    @Flag(name: .long, help: "Print one JSON object per drop.")
    var json = false

    @Option(name: .long, parsing: .singleValue,
            help: ArgumentHelp("Take only this type (MIME type or X target; repeatable, best first).", valueName: "type"))
    var accept: [String] = []

    @Option(name: .long, help: ArgumentHelp("Write dropped data of other types to new files here.", valueName: "dir"))
    var outputDir: String?

    @Flag(name: .long, help: "Ask the window manager to keep the window above the others.")
    var keepAbove = false

    @Option(name: .long, help: ArgumentHelp("Seconds to wait for a drop's data (default: 10).", valueName: "seconds"))
    var timeout = Seconds(10)

    @Option(name: .long, help: ArgumentHelp("Close the window after this many seconds.", valueName: "seconds"))
    var exitAfter: Seconds?

    func validate() throws {
        if let outputDir {
            var info = stat()
            guard stat(outputDir, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else {
                throw ValidationError("--output-dir \(outputDir) is not a directory.")
            }
        }
    }

    func run() async throws {
        let display = displayOptions.display
        try await CommandRun.reportingFailures(display: display) {
            try DisplayChoice.requireX(display, for: "drop")
            let dropped = try await CommandRun.withConnection(display: display, timeout: timeout) { connection, stop in
                // A stop request closes the window (what was dropped is reported, the status says whether
                // anything was), one made while the window opens too.
                await stop.replace {}
                let window = try await connection.openTextWindow(
                    title: "clipbridge drop", lines: ["Drop files, links or text here."], width: 320, keepAbove: keepAbove)
                await stop.replace { await connection.closeTextWindow(window.window) }
                let limit = exitAfter.map { seconds in
                    Task {
                        try? await Task.sleep(for: seconds.duration)
                        guard !Task.isCancelled else { return }
                        await connection.closeTextWindow(window.window)
                    }
                }
                defer { limit?.cancel() }
                return try await takeDrops(on: connection, window: window)
            }
            if !dropped { throw ExitCode(ExitStatus.notDropped.rawValue) }
        }
    }

    /// Serves drops until the window goes; whether one was taken.
    private func takeDrops(on connection: X11Connection, window: TextWindow) async throws -> Bool {
        let accepted = accept.map(SelectionTarget.init(rawValue:))
        let takesData = outputDir != nil
        // A direct save (XDS) needs a folder, and is taken unless --accept lists other types only.
        let directSaves: @Sendable ([SelectionTarget]) -> Bool = { types in
            takesData && types.contains(DirectSave.target) && (accepted.isEmpty || accepted.contains(DirectSave.target))
        }
        let readTimeout = timeout.duration
        let counter = Mutex(0)
        // A drop taken, whose XdndFinished is not sent yet: the window closes (--once) only after it was, or the
        // source would wait for a finish that never comes (GTK 4 waits for ever).
        let finishing = FinishingDrop()
        let (taken, takenInput) = AsyncStream<Void>.makeStream()
        let delegate = XdndDropDelegate(
            // Decided once, when the drag enters with its types (they do not change during a drag): a direct
            // save, the target read, or a refusal; every position and the drop follow that plan.
            plan: { types -> DropPlan? in
                let plan = DropPlan(
                    directSave: directSaves(types),
                    target: DroppedContent.preferredTarget(offered: types, accepting: accepted, takesData: takesData))
                return plan.directSave || plan.target != nil ? plan : nil
            },
            proposal: { plan, proposal in
                if plan.directSave { return proposal.action == DirectSave.action ? proposal.action : .xdndActionCopy }
                return proposal.action == .xdndActionMove || proposal.action == .xdndActionLink ? proposal.action : .xdndActionCopy
            },
            drop: { plan, drop in
                let index = counter.withLock { count in
                    count += 1
                    return count
                }
                var saved: Bool?
                if plan.directSave, let outputDir {
                    saved = await directSave(drop, in: outputDir, timeout: readTimeout)
                }
                let printed: Bool
                if let saved {
                    printed = saved
                } else {
                    // The source answered that it does not save after all: the plan's target is read instead.
                    guard let target = plan.target, let read = try? await drop.read(target, timeout: readTimeout)
                    else { return false }
                    printed = (try? report(DroppedContent.decode(read.bytes, as: target, propertyType: read.type), target: target, action: drop.action, index: index)) ?? false
                }
                finishing.taken.withLock { $0 = printed }
                if printed {
                    // A source that vanished during the drop gets no finish, and no `false` follows: count the
                    // drop anyway after a moment.
                    Task {
                        try? await Task.sleep(for: .seconds(2))
                        if finishing.takeOnce() { takenInput.yield() }
                    }
                }
                return printed
            },
            targeted: { over in
                // After a drop, `false` comes once its XdndFinished went out.
                if !over, finishing.takeOnce() { takenInput.yield() }
                Task { await connection.setLines(["Drop files, links or text here."], highlighted: over ? [0] : [], in: window.window) }
            },
            // Where in the window it lands does not matter here: the source may stop sending positions.
            answerHoldsForWholeWindow: true)
        try await connection.registerDropTarget(on: window.window, delegate: delegate)
        let watcher = Task {
            var dropped = false
            for await _ in taken {
                dropped = true
                if once { await connection.closeTextWindow(window.window) }
            }
            return dropped
        }
        for await event in window.events {
            if event == .escapePressed || event == .closeRequested {
                await connection.closeTextWindow(window.window)
            }
        }
        takenInput.finish()
        return await watcher.value
    }

    /// A direct save into `directory`, printed as a file; false when it failed (said on standard error), nil when
    /// the source proposes no usable file name (the drop is then taken the usual way).
    private func directSave(_ drop: XdndDrop, in directory: String, timeout: Duration) async -> Bool? {
        do {
            switch try await drop.directSave(in: URL(fileURLWithPath: directory, isDirectory: true), timeout: timeout) {
            case .saved(let path, _):
                return (try? printFile(path, type: DirectSave.target, action: drop.action)) ?? false
            case .notOffered:
                return nil
            case .failed(let reason):
                Output.complain("direct save failed: \(reason)")
                return false
            }
        } catch {
            Output.complain("direct save failed: \(error)")
            return false
        }
    }

    /// Prints a file a drop was saved to.
    private func printFile(_ path: String, type: SelectionTarget, action: SelectionTarget) throws -> Bool {
        try printDrop(type: type, action: action, file: path)
        return true
    }

    /// One drop's output: its JSON object, or a line per path, URL, text and file.
    private func printDrop(
        type: SelectionTarget, action: SelectionTarget, paths: [String] = [], urls: [String] = [], text: String? = nil,
        file: String? = nil
    ) throws {
        if json {
            let line = DropReport(type: type.rawValue, action: Drag.actionName(action), paths: paths, urls: urls, text: text, file: file)
            try Output.line(String(decoding: try TypeListing.encoder().encode(line), as: UTF8.self))
        } else {
            for line in paths + urls + [text, file].compactMap({ $0 }) { try Output.line(line) }
        }
    }

    /// Prints one drop (writing its data to a file first when it is data); false when nothing could be kept.
    private func report(_ content: DroppedContent, target: SelectionTarget, action: SelectionTarget, index: Int) throws -> Bool {
        var paths: [String] = []
        var urls: [String] = []
        var text: String?
        var file: String?
        switch content {
        case .paths(let list): paths = list
        case .urls(let list): urls = list
        case .text(let string): text = string
        case .data(let bytes, let type):
            guard let outputDir else { return false }
            let name = DroppedContent.fileName(index: index, type: type)
            let path = URL(fileURLWithPath: outputDir).appendingPathComponent(name).path
            // O_EXCL: never over an existing file; 0600: the data is the user's.
            let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
            guard descriptor >= 0 else {
                Output.complain("\(path): cannot be created: \(String(cString: strerror(errno)))")
                return false
            }
            defer { close(descriptor) }
            do {
                try bytes.withUnsafeBytes { try Output.write($0, to: descriptor) }
            } catch {
                Output.complain("\(path): cannot be written: \(error)")
                return false
            }
            file = path
        }
        try printDrop(type: target, action: action, paths: paths, urls: urls, text: text, file: file)
        return true
    }
}

/// Whether a drop was taken and not yet counted: the window closes (`--once`) once its XdndFinished went out.
final class FinishingDrop: Sendable {
    let taken = Mutex(false)

    /// True once per taken drop.
    func takeOnce() -> Bool {
        taken.withLock { taken in
            defer { taken = false }
            return taken
        }
    }
}

/// One drop's line in `--json`.
struct DropReport: Encodable {
    var type: String
    var action: String
    var paths: [String]
    var urls: [String]
    var text: String?
    var file: String?

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(type, forKey: .type)
        try container.encode(action, forKey: .action)
        try container.encode(paths, forKey: .paths)
        try container.encode(urls, forKey: .urls)
        try container.encode(text, forKey: .text)
        try container.encode(file, forKey: .file)
    }

    private enum CodingKeys: String, CodingKey { case type, action, paths, urls, text, file }
}

/// What a drag that entered the drop window will be taken as: saved by its source (X Direct Save), and/or
/// read as `target`.
private struct DropPlan: Sendable {
    var directSave: Bool
    var target: SelectionTarget?
}
