// ClipBridge test support: KWin, KDE's compositor, headless — a second compositor beside sway, for the bridge between
// two Wayland displays.

import Foundation
import Glibc
import WaylandSelection

/// KWin 5.27 (Debian's `kwin-wayland`) with its virtual backend: no screen, no seat of its own, the wlr data-control
/// protocol (`zwlr_data_control_manager_v1`) that wl-clipboard and the bridge speak. Its socket is in a runtime
/// directory of its own; ``stop()`` stops KWin and removes the directory.
///
/// Debian's binary carries a file capability (`cap_sys_resource`) that some sandboxes refuse to exec ("Operation not
/// permitted"); a copy of it in the runtime directory carries none and runs the same.
public final class KWinServer: Sendable {
    /// The Wayland display: the absolute path of KWin's socket.
    public let waylandDisplay: String
    /// The runtime directory (`XDG_RUNTIME_DIR` of KWin), removed by ``stop()``.
    public let runtimeDirectory: String
    private let peer: BackgroundPeer

    private init(waylandDisplay: String, runtimeDirectory: String, peer: BackgroundPeer) {
        self.waylandDisplay = waylandDisplay
        self.runtimeDirectory = runtimeDirectory
        self.peer = peer
    }

    /// The environment of a Wayland client of this compositor (wl-copy, wl-paste).
    public var waylandEnvironment: [String: String] {
        ["WAYLAND_DISPLAY": waylandDisplay, "XDG_RUNTIME_DIR": runtimeDirectory]
    }

    /// Starts KWin and waits (at most `timeout`) for its socket.
    /// - Throws: `CommandError` (`.notFound` when KWin is not installed, `.notReady` with its log).
    public static func start(timeout: Duration = .seconds(30)) async throws -> KWinServer {
        let installed = "/usr/bin/kwin_wayland"
        guard FileManager.default.isExecutableFile(atPath: installed) else {
            throw CommandError(kind: .notFound, arguments: [installed], detail: "KWin is not installed (scripts/install-deps.sh)")
        }
        // The program run is a copy: the fresh-machine check is told the installed one it came from.
        SpawnLog.record([installed], searchPath: nil)
        let directory = try makeRuntimeDirectory("clipbridge-kwin")
        let binary = "\(directory)/kwin_wayland"
        try FileManager.default.copyItem(atPath: installed, toPath: binary)
        let command = [
            "env", "-i", "PATH=/usr/bin:/bin", "XDG_RUNTIME_DIR=\(directory)", "HOME=\(directory)", "QT_QPA_PLATFORM=offscreen",
            binary, "--virtual", "--socket", "wayland-kwin",
        ]
        let peer = try startPeer(command, display: nil)
        let socket = "\(directory)/wayland-kwin"
        let server = KWinServer(waylandDisplay: socket, runtimeDirectory: directory, peer: peer)
        // Ready once a client sees data-control: the socket is bound before KWin's globals are up, and wl-paste
        // cannot tell (with nothing copied it waits for a selection event KWin does not send).
        let deadline = ContinuousClock.now + timeout
        var ready = false
        while !ready, ContinuousClock.now < deadline, !peer.hasExited {
            if FileManager.default.fileExists(atPath: socket),
                let connection = try? await WaylandConnection.open(display: socket, timeout: .seconds(2))
            {
                connection.close()
                ready = true
            } else {
                try await Task.sleep(for: .milliseconds(20))
            }
        }
        guard ready else {
            let log = String(decoding: peer.stderrSoFar, as: UTF8.self)
            await server.stop()
            throw CommandError(kind: .notReady, arguments: command, detail: "KWin did not come up: \(log.suffix(2000))")
        }
        return server
    }

    /// Runs `body` with a started KWin, and stops it when `body` returns or throws.
    public static func with<T>(_ body: (KWinServer) async throws -> T) async throws -> T {
        let kwin = try await start()
        do {
            let result = try await body(kwin)
            await kwin.stop()
            return result
        } catch {
            await kwin.stop()
            throw error
        }
    }

    /// Stops KWin and removes the runtime directory.
    public func stop() async {
        _ = await peer.stop()
        try? FileManager.default.removeItem(atPath: runtimeDirectory)
    }

    /// What KWin wrote so far.
    public var log: String { String(decoding: peer.stderrSoFar, as: UTF8.self) }
}
