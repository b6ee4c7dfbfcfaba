// ClipBridge — the clipbridge command-line tool.
// `clipbridge bridge`: one clipboard across X displays, every type, converted lazily.

import ArgumentParser
import ClipBridgeOptions
import ClipboardLink
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

            ANOTHER MACHINE: name it as ssh:[user@]host[:DISPLAY] — DISPLAY on that machine, an X display or \
            wayland:NAME, by default its own session's — and the bridge runs `clipbridge bridge --stdio DISPLAY` \
            there through your ssh (its config, agent and keys; --ssh-command for another command, \
            --remote-command for a clipbridge not on the far PATH). Type lists cross at once and bytes only when \
            someone pastes, any number of pastes at once on the one connection; file lists (text/uri-list, \
            gnome-copied-files) are not carried, as they name files of the machine they come from. A dropped \
            connection is made again with backoff; at the start, this machine's content wins over the other's.

            EXAMPLES:
              clipbridge bridge :0 :1                          # your desktop and a nested Xephyr :1
              clipbridge bridge "$DISPLAY" ssh:devbox          # this desktop and devbox's own session
              clipbridge bridge :0 ssh:me@devbox::1 --ssh-command "ssh -p 2222"   # devbox's display :1
              clipbridge bridge :0 :5 -s clipboard             # a VNC desktop (Xvnc :5), CLIPBOARD only
              clipbridge bridge "$DISPLAY" localhost:10.0      # a display forwarded by ssh -X
              clipbridge bridge "$DISPLAY" "wayland:$WAYLAND_DISPLAY"  # X apps and Wayland apps in one session
              clipbridge bridge wayland:wayland-0 wayland:wayland-1   # two compositors (a nested one)
            """
    )

    @Argument(help: ArgumentHelp(
        "The displays to bridge, two or more: X displays (:0), Wayland displays (wayland-N, wayland:NAME) and other machines (ssh:[user@]host[:DISPLAY]), in any mix.",
        valueName: "display"))
    var displays: [String] = []

    @Option(name: .long, help: ArgumentHelp(
        "The command that reaches another machine, run by /bin/sh with -T -x, the host and the far command line after it (default: ssh).",
        valueName: "command"))
    var sshCommand = "ssh"

    @Option(name: .long, help: ArgumentHelp(
        "The clipbridge to run on the other machine, as its shell finds it (default: clipbridge).", valueName: "command"))
    var remoteCommand = "clipbridge"

    @Flag(name: .long, help: ArgumentHelp(
        "Be the far end of a link: bridge the display named (default: this session's) with the link on standard input and output.",
        visibility: .hidden))
    var stdio = false

    @Option(name: [.customShort("s"), .long], parsing: .singleValue,
            help: "A selection to keep in sync: clipboard, primary or secondary. Repeatable (default: clipboard and primary; clipboard alone with another machine).")
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
        if stdio {
            guard displays.count <= 1, displays.allSatisfy({ !$0.hasPrefix("ssh:") }) else {
                throw ValidationError("--stdio bridges one display of this machine with the link.")
            }
            return
        }
        for display in displays {
            do { _ = try SSHDestination.parse(display) } catch { throw ValidationError("\(error)") }
        }
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

    /// The selections, in the order given, without duplicates. By default CLIPBOARD and PRIMARY; CLIPBOARD alone when
    /// another machine is linked — every text selected would be announced to it — unless PRIMARY is asked for.
    var selections: [SelectionName] {
        var seen = Set<SelectionName>()
        let linked = displays.contains { $0.hasPrefix("ssh:") }
        let chosen: [SelectionName] = selection.isEmpty ? (linked ? [.clipboard] : [.clipboard, .primary]) : selection.map(\.name)
        return chosen.filter { seen.insert($0).inserted }
    }

    func run() async throws {
        // A reader of our standard error that goes away must not kill us with SIGPIPE.
        Signals.ignore(SIGPIPE)
        Memory.oneArena()
        let log = StandardErrorLogHandler.logger(level: quiet ? .notice : .info)
        let configuration = Connections.configuration(timeout: timeout)
        let (events, sink) = AsyncStream.makeStream(of: SelectionBridge.Event.self)
        let bridged = try bridgedDisplays()
        let bridge = DisplayBridge(
            displays: bridged, selections: selections, includeSensitive: includeSensitive, configuration: configuration,
            software: "clipbridge \(ClipBridgeCommand.version)")
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
                // A display that would fail again: a missing far clipbridge, another link protocol version.
                if lost == nil, case .gaveUp(let display, let reason) = event {
                    lost = "\(display): \(reason)"
                    running.cancel()
                }
                // The far end of a link ends with it: the near end starts another when it connects again.
                if stdio, case .disconnected(Self.stdioLinkName, _) = event { running.cancel() }
            }
        }
        if let lost {
            throw CLIFailure(status: .displayUnavailable, message: "a display cannot be reached: \(lost)").exit()
        }
    }

    /// The far end's name for the link, in its reports.
    static let stdioLinkName = "link"

    /// The displays as the bridge joins them: each argument, or for `--stdio` the link and this session's display.
    func bridgedDisplays() throws -> [DisplayBridge.Display] {
        if stdio {
            let display = try displays.first ?? Self.sessionDisplay()
            return [.link(Self.standardStreamsLink), Self.display(display)]
        }
        return try displays.map { argument in
            guard let destination = try SSHDestination.parse(argument) else { return Self.display(argument) }
            // The far end bridges exactly these selections (its own default is not the link's).
            var options = selections.flatMap { ["-s", $0.rawValue.lowercased()] } + ["--timeout", timeout.description]
            if includeSensitive { options.append("--include-sensitive") }
            if quiet { options.append("--quiet") }
            let remoteLine = destination.remoteCommandLine(remoteCommand: remoteCommand, options: options)
            let name = argument.hasSuffix(":") ? String(argument.dropLast()) : argument
            let sshCommand = sshCommand
            return .link(LinkedMachine(name: name, role: .initiator) {
                try SSHTransport.open(sshCommand: sshCommand, host: destination.host, remoteLine: remoteLine, name: name)
            })
        }
    }

    static func display(_ argument: String) -> DisplayBridge.Display {
        DisplayChoice.waylandName(argument).map { DisplayBridge.Display.wayland($0) } ?? .x11(argument)
    }

    /// `--stdio`'s link: this process's standard input and output, once (the process ends with it).
    static let standardStreamsLink = LinkedMachine(name: stdioLinkName, role: .responder) {
        guard fcntl(STDIN_FILENO, F_GETFD) != -1 else { throw LinkUnusable("the link on standard input has ended") }
        return LinkTransport(input: STDIN_FILENO, output: STDOUT_FILENO, close: {})
    }

    /// This machine's own session's display, for a link that names none.
    static func sessionDisplay() throws -> String {
        func nonEmpty(_ name: String) -> String? { DisplayChoice.processEnvironment(name).flatMap { $0.isEmpty ? nil : $0 } }
        let runtime = nonEmpty("XDG_RUNTIME_DIR") ?? "/run/user/\(getuid())"
        let found = SessionDisplay.Found(
            display: nonEmpty("DISPLAY"), waylandDisplay: nonEmpty("WAYLAND_DISPLAY"),
            waylandSockets: Self.ownSockets(in: runtime) { $0.hasPrefix("wayland-") && !$0.hasSuffix(".lock") },
            xDisplays: Self.ownSockets(in: "/tmp/.X11-unix") { $0.hasPrefix("X") && Int($0.dropFirst()) != nil }
                .map { String($0.dropFirst()) })
        switch SessionDisplay.choose(found) {
        case .success(let display): return display
        case .failure(let unchosen): throw CLIFailure(status: .displayUnavailable, message: unchosen.description).exit()
        }
    }

    /// The names in `folder` that `matching` accepts and that are sockets this user owns.
    static func ownSockets(in folder: String, matching: (String) -> Bool) -> [String] {
        guard let directory = opendir(folder) else { return [] }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            var info = stat()
            guard matching(name), stat(folder + "/" + name, &info) == 0, info.st_mode & S_IFMT == S_IFSOCK,
                info.st_uid == getuid()
            else { continue }
            names.append(name)
        }
        return names
    }

    /// Logs an event: what the bridge did at `info`, what it could not do at `notice`, failures at `warning`.
    static func log(_ event: SelectionBridge.Event, to log: Logger, retrying: Bool) {
        switch event {
        case .connected(let display):
            log.info("connected \(display)")
        case .disconnected(let display, let reason):
            log.warning("disconnected \(display): \(reason)\(retrying ? " (retrying)" : "")")
        case .gaveUp(let display, let reason):
            log.error("cannot use \(display): \(reason)")
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
