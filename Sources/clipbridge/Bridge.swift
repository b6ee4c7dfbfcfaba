// ClipBridge — the clipbridge command-line tool.
// `clipbridge bridge`: one clipboard across X displays, every type, converted lazily.

import ArgumentParser
import ClipBridgeOptions
import FoundationEssentials
import Glibc
import Logging
import WaylandBridge
import X11Selection

struct Bridge: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Keep the clipboard in sync across displays: X displays and Wayland compositors, in any mix.",
        discussion: """
            When an application on one display copies, the bridge takes the selection on the others, \
            offering the same types in the same order. Nothing is copied ahead: a paste on another display \
            is converted on the source display at that moment and streamed across (INCR on both sides), so \
            a large copy costs nothing until someone pastes it. The bridge's own claims never echo back; \
            when the source application's content goes, the other displays are released; content marked \
            sensitive (x-kde-passwordManagerHint) crosses only with --include-sensitive.

            A display that cannot be reached (its X server stopped, an ssh forwarding dropped) is retried \
            with backoff while the others go on; it is given the current content when it comes back. With \
            --exit-on-disconnect the bridge exits with status 4 instead. Runs in the foreground until \
            SIGINT or SIGTERM, one line per event on standard error (--quiet: problems only).

            To keep content after the copying application exits, run `clipbridge daemon` on that display: \
            the bridge relays the daemon's copy once it takes over.

            WAYLAND: name a Wayland display — `wayland-1` (a socket in XDG_RUNTIME_DIR), `wayland:NAME` or \
            `wayland:/path/to/socket`, or `wayland:` for WAYLAND_DISPLAY — beside an X display (XWayland's, or a \
            separate X server) or another compositor, to keep their clipboards and primary selections in sync \
            both ways. The compositor must offer a data-control protocol — ext_data_control_v1 \
            (wlroots 0.19+, KWin 6) or wlr-data-control (sway, Hyprland, river, labwc, Wayfire); not GNOME's \
            Mutter. Text crosses as each side names it (UTF8_STRING, STRING, TEXT ↔ text/plain;charset=utf-8), \
            every other type by name; a compositor that restarts is reconnected like a display.

            EXAMPLES:
              clipbridge bridge :0 :1                          # your desktop and a nested Xephyr :1
              clipbridge bridge :0 :5 -s clipboard             # a VNC desktop (Xvnc :5), CLIPBOARD only
              clipbridge bridge "$DISPLAY" localhost:10.0      # a display forwarded by ssh -X
              clipbridge bridge "$DISPLAY" "wayland:$WAYLAND_DISPLAY"  # X apps and Wayland apps in one session
              clipbridge bridge wayland:wayland-0 wayland:wayland-1   # two compositors (a nested one)
            """
    )

    @Argument(help: ArgumentHelp(
        "The displays to bridge, two or more: X displays (:0) and Wayland displays (wayland-N, wayland:NAME), in any mix.",
        valueName: "display"))
    var displays: [String] = []

    @Option(name: [.customShort("s"), .long], parsing: .singleValue,
            help: "A selection to keep in sync: clipboard, primary or secondary. Repeatable (default: clipboard and primary).")
    var selection: [SelectionChoice] = []

    @Flag(name: .long, help: "Bridge content marked sensitive (password managers' copies) too.")
    var includeSensitive = false

    @Flag(name: .long, help: "Exit with status 4 when a display cannot be reached, instead of retrying it.")
    var exitOnDisconnect = false

    @Option(name: .long, help: ArgumentHelp("Seconds to wait for each of an owner's answers (default: 5).", valueName: "seconds"))
    var timeout = Seconds(5)

    @Flag(name: [.customShort("q"), .long], help: "Print only problems, not every event.")
    var quiet = false

    func validate() throws {
        guard displays.count >= 2 else { throw ValidationError("Name at least two displays to bridge.") }
        var seen = Set<String>()
        for display in displays where !seen.insert(display).inserted {
            throw ValidationError("The display '\(display)' is named twice.")
        }
        let wayland = displays.filter { DisplayChoice.waylandName($0) != nil }
        if !wayland.isEmpty, selections.contains(.secondary) {
            throw ValidationError("Wayland has no secondary selection: bridge clipboard and primary.")
        }
    }

    /// The selections, in the order given, without duplicates.
    var selections: [SelectionName] {
        var seen = Set<SelectionName>()
        return (selection.isEmpty ? [.clipboard, .primary] : selection.map(\.name)).filter { seen.insert($0).inserted }
    }

    func run() async throws {
        // A reader of our standard error that goes away must not kill us with SIGPIPE.
        Signals.ignore(SIGPIPE)
        Memory.oneArena()
        let log = StandardErrorLogHandler.logger(level: quiet ? .notice : .info)
        let configuration = Connections.configuration(timeout: timeout)
        let (events, sink) = AsyncStream.makeStream(of: SelectionBridge.Event.self)
        let bridged: [DisplayBridge.Display] = displays.map { argument in
            DisplayChoice.waylandName(argument).map { DisplayBridge.Display.wayland($0) } ?? .x11(argument)
        }
        let bridge = DisplayBridge(
            displays: bridged, selections: selections, includeSensitive: includeSensitive, configuration: configuration)
        let run = bridge.run
        let running = Task {
            await run { sink.yield($0) }
            sink.finish()
        }
        var lost: String?
        await Signals.stopping(with: { running.cancel() }) {
            for await event in events {
                // A compositor's connection names the data-control protocol it speaks.
                if case .connected(let display) = event, let index = bridged.firstIndex(where: { $0.name == display }),
                    let spoken = bridge.dataControlProtocol(of: index)
                {
                    log.info("connected \(display) through \(spoken)")
                } else {
                    Self.log(event, to: log, retrying: !exitOnDisconnect)
                }
                if exitOnDisconnect, lost == nil, case .disconnected(let display, let reason) = event {
                    lost = "\(display): \(reason)"
                    running.cancel()
                }
            }
        }
        if let lost {
            throw CLIFailure(status: .displayUnavailable, message: "a display cannot be reached: \(lost)").exit()
        }
    }

    /// Logs an event: what the bridge did at `info`, what it could not do at `notice`, failures at `warning`.
    static func log(_ event: SelectionBridge.Event, to log: Logger, retrying: Bool) {
        switch event {
        case .connected(let display):
            log.info("connected \(display)")
        case .disconnected(let display, let reason):
            log.warning("disconnected \(display): \(reason)\(retrying ? " (retrying)" : "")")
        case .bridged(let selection, let from, let to, let targets):
            log.info("bridged \(selection) from \(from) to \(to.joined(separator: " ")): \(targets.map(\.rawValue).joined(separator: " "))")
        case .notBridged(let selection, let from, let reason):
            log.notice("not bridged \(selection) from \(from): \(reason)")
        case .withdrawn(let selection, let from):
            log.info("withdrawn \(selection): its owner on \(from) is gone")
        case .served(let selection, let display, let target, let byteCount):
            log.info("served \(selection):\(target) on \(display): \(byteCount) bytes")
        case .failed(let selection, let display, let target, let reason):
            log.warning("failed \(selection):\(target) on \(display): \(reason)")
        }
    }
}
