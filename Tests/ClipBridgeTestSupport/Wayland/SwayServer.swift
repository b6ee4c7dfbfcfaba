// ClipBridge test support: a private Wayland compositor — sway, headless, with XWayland — for the X11 ↔ Wayland
// tests (issue 30), started and stopped by the test that owns it.

import Foundation
import Glibc
import Testing

/// sway running headless (`WLR_BACKENDS=headless`, `WLR_RENDERER=pixman`, no input devices), with XWayland enabled
/// or not, in a runtime directory of its own: Debian 12's sway 1.7, or sway 1.12 from Debian forky (``Build``).
///
/// sway refuses to run as root ("Unable to drop root"), so when the tests run as root (CI) it runs as an
/// unprivileged system user made for it (``userName``, created once with `useradd`), through `runuser`; as any
/// other user it runs as that user. Clients of the test's own user connect to its Wayland socket by path
/// (``waylandDisplay`` is absolute), and to its XWayland display once sway's first client — run from the
/// configuration — has granted them access (`xhost +si:localuser:…`): XWayland admits only its own user.
///
/// XWayland starts when that first client connects; ``xDisplay`` is the display sway gave it (`:N`, found by the
/// client itself, never assumed). wlroots numbers XWayland only within :0–:32 ("No display available in the first
/// 33", xwayland/sockets.c), which the parallel run's Xvfb servers can fill: suites that need XWayland run alone
/// (scripts/test.sh), and the lock files of X servers that died are removed first — as root's, sway's user could
/// not remove them from the sticky /tmp, and wlroots would skip those numbers for good.
public final class SwayServer: Sendable {
    /// Which sway: the two offer different data-control protocols.
    public enum Build: String, Sendable, CaseIterable, CustomTestStringConvertible {
        /// Debian 12's sway 1.7 (wlroots 0.15), installed: `zwlr_data_control_manager_v1` only.
        case debian
        /// sway 1.12 (wlroots 0.20) from Debian forky, unpacked by scripts/install-test-sway.sh into ``forkyRoot``
        /// and run with that folder's own dynamic loader: `ext_data_control_manager_v1` and the wlr protocol. Its
        /// XWayland is Debian 12's Xwayland 22.1 (wlroots runs /usr/bin/Xwayland).
        case forky

        public var testDescription: String { self == .debian ? "sway 1.7 (wlr data-control)" : "sway 1.12 (ext data-control)" }

        /// The data-control protocol a client that prefers ext speaks with it.
        public var dataControlProtocol: String {
            self == .debian ? "zwlr_data_control_manager_v1" : "ext_data_control_manager_v1"
        }

        /// Where scripts/install-test-sway.sh unpacked forky's sway (`CLIPBRIDGE_TEST_SWAY` overrides it).
        public static var forkyRoot: String {
            ProcessInfo.processInfo.environment["CLIPBRIDGE_TEST_SWAY"] ?? "/opt/clipbridge-tests/sway-forky"
        }

        /// The command that runs this sway.
        var command: [String] {
            switch self {
            case .debian:
                return ["sway"]
            case .forky:
                let root = Self.forkyRoot, libraries = "\(root)/usr/lib/x86_64-linux-gnu"
                return ["\(libraries)/ld-linux-x86-64.so.2", "--library-path", libraries, "\(root)/usr/bin/sway"]
            }
        }

        var isInstalled: Bool {
            self == .debian ? executableInPath("sway") : FileManager.default.isExecutableFile(atPath: "\(Self.forkyRoot)/usr/bin/sway")
        }
    }

    /// The system user sway runs as when the tests run as root.
    public static let userName = "clipbridge-sway"

    /// Which sway this is.
    public let build: Build

    /// The Wayland display: the absolute path of sway's socket (libwayland takes a path in `WAYLAND_DISPLAY`).
    public let waylandDisplay: String
    /// sway's XWayland display, `:N`; nil when started without XWayland.
    public let xDisplay: String?
    /// The runtime directory (`XDG_RUNTIME_DIR` of sway), removed by ``stop()``.
    public let runtimeDirectory: String
    private let peer: BackgroundPeer

    private init(build: Build, waylandDisplay: String, xDisplay: String?, runtimeDirectory: String, peer: BackgroundPeer) {
        self.build = build
        self.waylandDisplay = waylandDisplay
        self.xDisplay = xDisplay
        self.runtimeDirectory = runtimeDirectory
        self.peer = peer
    }

    /// The environment of a Wayland client of this compositor (wl-copy, a GTK app with `GDK_BACKEND=wayland`).
    public var waylandEnvironment: [String: String] {
        ["WAYLAND_DISPLAY": waylandDisplay, "XDG_RUNTIME_DIR": runtimeDirectory]
    }

    /// Starts sway and waits until its Wayland socket is there and (with `xwayland`) its XWayland display admits
    /// this user.
    /// - Throws: `CommandError` (`.notFound` when sway is not installed, `.notReady` with sway's log when it does
    ///   not come up within `timeout`).
    public static func start(_ build: Build = .debian, xwayland: Bool = true, timeout: Duration = .seconds(30))
        async throws -> SwayServer
    {
        try await start(build, xwayland: xwayland, in: nil, timeout: timeout)
    }

    /// A new sway in this one's runtime directory, after stopping this one: a compositor restarted, at the same socket
    /// path when the old one removed its socket (sway takes the lowest free `wayland-N`).
    public func restarted(timeout: Duration = .seconds(30)) async throws -> SwayServer {
        _ = await peer.stop()
        try? FileManager.default.removeItem(atPath: "\(runtimeDirectory)/x-display")
        return try await Self.start(build, xwayland: xDisplay != nil, in: runtimeDirectory, timeout: timeout)
    }

    private static func start(_ build: Build, xwayland: Bool, in existing: String?, timeout: Duration) async throws
        -> SwayServer
    {
        guard build.isInstalled else {
            throw CommandError(kind: .notFound, arguments: build.command, detail: "\(build) sway is not installed (scripts/install-deps.sh)")
        }
        let asRoot = getuid() == 0
        if asRoot { try await makeUser() }
        let directory = try existing ?? makeRuntimeDirectory("clipbridge-sway")
        // The first client sway runs: let this user into XWayland, then say which display it is.
        let access = asRoot ? "xhost +si:localuser:root >/dev/null 2>&1; " : ""
        let config = xwayland ? """
            xwayland enable
            exec sh -c '\(access)echo "$DISPLAY" > \(directory)/x-display.tmp && mv \(directory)/x-display.tmp \(directory)/x-display'
            """ : "xwayland disable\n"
        if xwayland { removeStaleXLocks() }
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
            + build.command + ["-c", "\(directory)/config"]
        let peer = try startPeer(command, display: nil)
        let deadline = ContinuousClock.now + timeout
        var socket: String?
        var xDisplay: String?
        while ContinuousClock.now < deadline, socket == nil || (xwayland && xDisplay == nil), !peer.hasExited {
            socket = socket ?? (try? FileManager.default.contentsOfDirectory(atPath: directory))?
                .first { $0.hasPrefix("wayland-") && !$0.hasSuffix(".lock") }
            xDisplay = xDisplay ?? (try? String(contentsOfFile: "\(directory)/x-display", encoding: .utf8))?
                .trimmingCharacters(in: .whitespacesAndNewlines)
            if socket == nil || (xwayland && xDisplay == nil) { try await Task.sleep(for: .milliseconds(20)) }
        }
        guard let socket, !xwayland || xDisplay?.hasPrefix(":") == true else {
            let log = String(decoding: peer.stderrSoFar, as: UTF8.self)
            _ = await peer.stop()
            try? FileManager.default.removeItem(atPath: directory)
            throw CommandError(kind: .notReady, arguments: command, detail: "sway did not come up: \(log.suffix(2000))")
        }
        return SwayServer(build: build, waylandDisplay: "\(directory)/\(socket)", xDisplay: xDisplay, runtimeDirectory: directory, peer: peer)
    }

    /// Runs `body` with a started compositor, and stops it when `body` returns or throws.
    public static func with<T>(_ build: Build = .debian, xwayland: Bool = true, _ body: (SwayServer) async throws -> T)
        async throws -> T
    {
        let sway = try await start(build, xwayland: xwayland)
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

    /// Removes `/tmp/.X<N>-lock` for N in 0…32 when the server that wrote it is gone (what an X server does itself
    /// before it takes a number).
    private static func removeStaleXLocks() {
        for number in 0...32 {
            let path = "/tmp/.X\(number)-lock"
            guard let text = try? String(contentsOfFile: path, encoding: .utf8),
                let pid = Int32(text.trimmingCharacters(in: .whitespacesAndNewlines)), pid > 0
            else { continue }
            if kill(pid, 0) != 0 && errno == ESRCH { unlink(path) }
        }
    }

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
