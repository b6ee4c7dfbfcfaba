// ClipBridge test support: Weston, a Wayland compositor that offers neither data-control protocol (as GNOME's Mutter
// offers neither), for the tests of the error that names them.

import Foundation
import Glibc

/// Weston 10 (Debian's) on an Xvfb of its own, through its X11 backend with the pixman renderer: a real compositor
/// with a seat (the X server's input; the headless backend has none), whose globals include no
/// `ext_data_control_manager_v1` and no `zwlr_data_control_manager_v1`. Its socket is in a runtime directory of its
/// own; ``stop()`` stops Weston and its Xvfb, and removes the directory.
public final class WestonServer: Sendable {
    /// The Wayland display: the absolute path of Weston's socket.
    public let waylandDisplay: String
    private let runtimeDirectory: String
    private let peer: BackgroundPeer
    private let xvfb: XvfbServer

    private init(waylandDisplay: String, runtimeDirectory: String, peer: BackgroundPeer, xvfb: XvfbServer) {
        self.waylandDisplay = waylandDisplay
        self.runtimeDirectory = runtimeDirectory
        self.peer = peer
        self.xvfb = xvfb
    }

    /// Starts an Xvfb and Weston on it, and waits (at most `timeout`) for Weston's socket.
    /// - Throws: `CommandError` (`.notFound` when Weston is not installed, `.notReady` with its log).
    public static func start(timeout: Duration = .seconds(20)) async throws -> WestonServer {
        guard executableInPath("weston") else {
            throw CommandError(kind: .notFound, arguments: ["weston"], detail: "weston is not installed (scripts/install-deps.sh)")
        }
        let directory = try makeRuntimeDirectory("clipbridge-weston")
        let xvfb = try await XvfbServer.start()
        let command = [
            "env", "-i", "PATH=/usr/bin:/bin", "XDG_RUNTIME_DIR=\(directory)", "DISPLAY=\(xvfb.display)",
            "weston", "--backend=x11-backend.so", "--use-pixman", "--socket=wayland-weston", "--idle-time=0",
        ]
        let peer = try startPeer(command, display: nil)
        let socket = "\(directory)/wayland-weston"
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline, !FileManager.default.fileExists(atPath: socket), !peer.hasExited {
            try await Task.sleep(for: .milliseconds(20))
        }
        guard FileManager.default.fileExists(atPath: socket) else {
            let log = String(decoding: peer.stderrSoFar, as: UTF8.self)
            _ = await peer.stop()
            await xvfb.stop()
            try? FileManager.default.removeItem(atPath: directory)
            throw CommandError(kind: .notReady, arguments: command, detail: "weston did not come up: \(log.suffix(2000))")
        }
        return WestonServer(waylandDisplay: socket, runtimeDirectory: directory, peer: peer, xvfb: xvfb)
    }

    /// Runs `body` with a started Weston, and stops it when `body` returns or throws.
    public static func with<T>(_ body: (WestonServer) async throws -> T) async throws -> T {
        let weston = try await start()
        do {
            let result = try await body(weston)
            await weston.stop()
            return result
        } catch {
            await weston.stop()
            throw error
        }
    }

    /// Stops Weston and its Xvfb, and removes the runtime directory.
    public func stop() async {
        _ = await peer.stop()
        _ = await xvfb.stop()
        try? FileManager.default.removeItem(atPath: runtimeDirectory)
    }
}
