// ClipBridge — what a running `clipbridge daemon` holds, for `clipbridge daemon --status`.

import FoundationEssentials
import Glibc
import Synchronization
import X11Selection

/// The daemon's state, kept in `$XDG_RUNTIME_DIR/clipbridge/daemon-DISPLAY.json` (mode 0600, replaced atomically
/// on every change, removed on exit): one daemon per display, found by the display's name.
struct DaemonStatus: Codable, Sendable, Equatable {
    /// What the daemon knows of one selection.
    struct Held: Codable, Sendable, Equatable {
        enum State: String, Codable, Sendable {
            /// The owner lives; its content is read and kept.
            case kept
            /// The daemon owns the selection and serves what it kept.
            case served
            /// The owner's content is marked sensitive: not kept.
            case sensitive
            /// Nothing is kept.
            case nothing
        }

        var state: State
        var flavours: Int = 0
        var bytes: Int = 0
        /// Targets offered but not kept (limits, refusals, or the owner gone before they were read).
        var omitted: Int? = nil
        /// The owner went away while its offer was read: what was read before is kept.
        var partial: Bool? = nil
    }

    var pid: Int32
    var display: String
    var manager: Bool
    var selections: [String: Held]

    /// The display `display` (`--display`) chooses, as `DisplayChoice` resolves it: an X display (`$DISPLAY` when
    /// none is named; "" when neither is), or `wayland:` and the compositor's name.
    static func displayName(_ display: String?) -> String {
        DisplayChoice.forServer(display) ?? ""
    }

    /// `$XDG_RUNTIME_DIR` (a per-user tmpfs), or the temporary directory.
    static var runtimeDirectory: String {
        getenv("XDG_RUNTIME_DIR").map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 }
            ?? PrivateFiles.temporaryDirectory
    }

    /// The file for `display` (nil: $DISPLAY).
    static func file(for display: String?) -> String {
        let safe = String(displayName(display).map { $0.isLetter || $0.isNumber || $0 == "." ? $0 : "_" })
        return "\(runtimeDirectory)/clipbridge-daemon-\(getuid())-\(safe).json"
    }

    /// The status a running daemon published for `display`; nil when none runs (no file, or its process is
    /// gone or is not a clipbridge).
    static func read(for display: String?) -> DaemonStatus? {
        let path = file(for: display)
        guard let data = FileManager.default.contents(atPath: path),
            let status = try? JSONDecoder().decode(DaemonStatus.self, from: data),
            kill(status.pid, 0) == 0 || errno == EPERM,
            let command = FileManager.default.contents(atPath: "/proc/\(status.pid)/cmdline"),
            String(decoding: command, as: UTF8.self).contains("clipbridge")
        else { return nil }
        return status
    }

    /// Human-readable lines.
    var lines: [String] {
        var lines = ["clipbridge daemon \(pid) on \(display)\(manager ? ", the clipboard manager" : "")"]
        for (name, held) in selections.sorted(by: { $0.key < $1.key }) {
            switch held.state {
            case .nothing, .sensitive:
                lines.append("  \(name): \(held.state.rawValue)")
            case .kept, .served:
                var line = "  \(name): \(held.state.rawValue), \(held.flavours) flavours, \(held.bytes) bytes"
                if held.partial == true { line += ", in part (the owner went away while it was read)" }
                if let omitted = held.omitted, omitted > 0 { line += ", \(omitted) target\(omitted == 1 ? "" : "s") not kept" }
                lines.append(line)
            }
        }
        return lines
    }
}

/// Keeps the published status up to date as the daemon's keepers report.
final class DaemonStatusFile: Sendable {
    private let path: String
    private let status: Mutex<DaemonStatus>

    init(display: String?, manager: Bool, selections: [SelectionName]) {
        path = DaemonStatus.file(for: display)
        var held: [String: DaemonStatus.Held] = [:]
        for selection in selections { held[selection.rawValue] = .init(state: .nothing) }
        status = Mutex(DaemonStatus(
            pid: getpid(), display: DaemonStatus.displayName(display), manager: manager, selections: held))
        write()
    }

    /// Follows one keeper event.
    func update<Requestor>(_ event: KeeperReport<Requestor>) {
        status.withLock { status in
            switch event {
            case .kept(let selection, let flavours, let bytes, let omitted):
                status.selections[selection.rawValue] = .init(
                    state: .kept, flavours: flavours, bytes: bytes, omitted: omitted.count)
            case .keptPart(let selection, let flavours, let bytes, let omitted):
                status.selections[selection.rawValue] = .init(
                    state: .kept, flavours: flavours, bytes: bytes, omitted: omitted.count, partial: true)
            case .skippedSensitive(let selection):
                status.selections[selection.rawValue] = .init(state: .sensitive)
            case .restored(let selection, let flavours), .saved(let selection, let flavours, _):
                var held = status.selections[selection.rawValue] ?? .init(state: .served)
                held.state = .served
                held.flavours = flavours
                status.selections[selection.rawValue] = held
            case .lostWithOwner(let selection), .vetoed(let selection, restored: false), .notKept(let selection, _),
                .cutNotRestored(let selection):
                // Whatever was kept before belongs to an owner that is gone or replaced: a status that still said
                // "kept" after a clear or a withdrawn offer told a stale story.
                status.selections[selection.rawValue] = .init(state: .nothing)
            case .saveRefused, .replaced, .vetoed, .rewritten:
                return
            }
        }
        write()
    }

    /// Writes the file: a private temporary file renamed over it.
    private func write() {
        let snapshot = status.withLock { $0 }
        guard let data = try? JSONEncoder().encode(snapshot) else { return }
        let directory = String(path[..<(path.lastIndex(of: "/") ?? path.endIndex)])
        guard let (descriptor, temporary) = PrivateFiles.makeFile(in: directory, prefix: ".clipbridge-status.")
        else { return }
        let written = data.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
        close(descriptor)
        if written == data.count { rename(temporary, path) } else { unlink(temporary) }
    }

    /// Removes the file.
    func remove() { unlink(path) }
}
