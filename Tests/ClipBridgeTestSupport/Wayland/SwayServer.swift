// ClipBridge test support: a private Wayland compositor — sway, headless, with XWayland — for the X11 ↔ Wayland
// tests (issue 30), started and stopped by the test that owns it.

import Foundation
import Glibc

/// sway 1.7 (Debian's) running headless (`WLR_BACKENDS=headless`, `WLR_RENDERER=pixman`, no input devices) with
/// XWayland enabled, in a runtime directory of its own.
///
/// sway refuses to run as root ("Unable to drop root"), so when the tests run as root (CI) it runs as an
/// unprivileged system user made for it (``userName``, created once with `useradd`), through `runuser`; as any
/// other user it runs as that user. Clients of the test's own user connect to its Wayland socket by path
/// (``waylandDisplay`` is absolute), and to its XWayland display once sway's first client — run from the
/// configuration — has granted them access (`xhost +si:localuser:…`): XWayland admits only its own user.
///
/// XWayland starts when that first client connects; ``xDisplay`` is the display sway gave it (`:N`, found by the
/// client itself, never assumed).
public final class SwayServer: Sendable {
    /// The system user sway runs as when the tests run as root.
    public static let userName = "clipbridge-sway"

    /// The Wayland display: the absolute path of sway's socket (libwayland takes a path in `WAYLAND_DISPLAY`).
    public let waylandDisplay: String
    /// sway's XWayland display, `:N`.
    public let xDisplay: String
    /// The runtime directory (`XDG_RUNTIME_DIR` of sway), removed by ``stop()``.
    public let runtimeDirectory: String
    private let peer: BackgroundPeer

    private init(waylandDisplay: String, xDisplay: String, runtimeDirectory: String, peer: BackgroundPeer) {
        self.waylandDisplay = waylandDisplay
        self.xDisplay = xDisplay
        self.runtimeDirectory = runtimeDirectory
        self.peer = peer
    }

    /// The environment of a Wayland client of this compositor (wl-copy, a GTK app with `GDK_BACKEND=wayland`).
    public var waylandEnvironment: [String: String] {
        ["WAYLAND_DISPLAY": waylandDisplay, "XDG_RUNTIME_DIR": runtimeDirectory]
    }

    /// Starts sway and waits until its Wayland socket is there and its XWayland display admits this user.
    /// - Throws: `CommandError` (`.notFound` when sway is not installed, `.notReady` with sway's log when it does
    ///   not come up within `timeout`).
    public static func start(timeout: Duration = .seconds(30)) async throws -> SwayServer {
        guard executableInPath("sway") else {
            throw CommandError(kind: .notFound, arguments: ["sway"], detail: "sway is not installed (scripts/install-deps.sh)")
        }
        let asRoot = getuid() == 0
        if asRoot { try await makeUser() }
        var template = Array("/tmp/clipbridge-sway.XXXXXX".utf8CString)
        guard template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) != nil else {
            throw CommandError(kind: .notReady, arguments: ["mkdtemp"], detail: String(cString: strerror(errno)))
        }
        let directory = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        // The first client sway runs: let this user into XWayland, then say which display it is.
        let access = asRoot ? "xhost +si:localuser:root >/dev/null 2>&1; " : ""
        let config = """
            xwayland enable
            exec sh -c '\(access)echo "$DISPLAY" > \(directory)/x-display.tmp && mv \(directory)/x-display.tmp \(directory)/x-display'
            """
        try Data(config.utf8).write(to: URL(fileURLWithPath: "\(directory)/config"))
        if asRoot {
            for path in [directory, "\(directory)/config"] {
                guard let user = getpwnam(userName), chown(path, user.pointee.pw_uid, user.pointee.pw_gid) == 0 else {
                    throw CommandError(kind: .notReady, arguments: ["chown", path], detail: String(cString: strerror(errno)))
                }
            }
        }
        let environment = [
            "PATH=/usr/local/bin:/usr/bin:/bin", "WLR_BACKENDS=headless", "WLR_RENDERER=pixman",
            "WLR_LIBINPUT_NO_DEVICES=1", "XDG_RUNTIME_DIR=\(directory)", "HOME=\(directory)",
        ]
        let command = (asRoot ? ["runuser", "-u", userName, "--"] : []) + ["env", "-i"] + environment
            + ["sway", "-c", "\(directory)/config"]
        let peer = try startPeer(command, display: nil)
        let deadline = ContinuousClock.now + timeout
        var socket: String?
        var xDisplay: String?
        while ContinuousClock.now < deadline, socket == nil || xDisplay == nil, !peer.hasExited {
            socket = socket ?? (try? FileManager.default.contentsOfDirectory(atPath: directory))?
                .first { $0.hasPrefix("wayland-") && !$0.hasSuffix(".lock") }
            xDisplay = xDisplay ?? (try? String(contentsOfFile: "\(directory)/x-display", encoding: .utf8))?
                .trimmingCharacters(in: .whitespacesAndNewlines)
            if socket == nil || xDisplay == nil { try await Task.sleep(for: .milliseconds(20)) }
        }
        guard let socket, let xDisplay, xDisplay.hasPrefix(":") else {
            let log = String(decoding: peer.stderrSoFar, as: UTF8.self)
            _ = await peer.stop()
            try? FileManager.default.removeItem(atPath: directory)
            throw CommandError(kind: .notReady, arguments: command, detail: "sway did not come up: \(log.suffix(2000))")
        }
        return SwayServer(waylandDisplay: "\(directory)/\(socket)", xDisplay: xDisplay, runtimeDirectory: directory, peer: peer)
    }

    /// Runs `body` with a started compositor, and stops it when `body` returns or throws.
    public static func with<T>(_ body: (SwayServer) async throws -> T) async throws -> T {
        let sway = try await start()
        do {
            let result = try await body(sway)
            await sway.stop()
            return result
        } catch {
            await sway.stop()
            throw error
        }
    }

    /// Stops sway (its XWayland ends with it: `-terminate`) and removes its runtime directory.
    public func stop() async {
        _ = await peer.stop()
        try? FileManager.default.removeItem(atPath: runtimeDirectory)
    }

    /// What sway has printed so far.
    public var log: String { String(decoding: peer.stderrSoFar, as: UTF8.self) }

    /// Creates the system user sway runs as, unless it exists.
    private static func makeUser() async throws {
        guard getpwnam(userName) == nil else { return }
        let made = try await runPeer(
            ["useradd", "--system", "--no-create-home", "--shell", "/usr/sbin/nologin", userName], display: nil)
        // Another suite may have made it meanwhile.
        guard made.succeeded || getpwnam(userName) != nil else {
            throw CommandError(kind: .notReady, arguments: ["useradd", userName], detail: made.stderrText)
        }
    }
}
