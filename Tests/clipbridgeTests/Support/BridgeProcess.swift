// A running `clipbridge bridge` between Xvfb servers the test started, followed through the lines it prints
// on stderr; and the servers themselves, stopped however the test ends.

import ClipBridgeTestSupport
import Foundation
import Testing

struct BridgeProcess {
    let peer: BackgroundPeer

    /// Starts `clipbridge bridge displays… extra…` and waits until it connected to each display (an X display or a
    /// compositor, `wayland:…`).
    static func start(_ displays: [String], _ extra: [String] = []) async throws -> BridgeProcess {
        let bridge = try CLI.start(
            ["bridge"] + displays + extra, display: nil,
            environment: ProcessInfo.processInfo.environment["CLIPBRIDGE_ENGINE_LOG"].map { ["CLIPBRIDGE_ENGINE_LOG": $0] } ?? [:])
        let process = BridgeProcess(peer: bridge)
        for display in displays {
            // A compositor's line names the data-control protocol spoken too.
            try await process.waitFor("connected \(display)" + (display.hasPrefix("wayland") ? " through " : "\n"))
        }
        return process
    }

    /// What it printed so far.
    var log: String { String(decoding: peer.stderrSoFar, as: UTF8.self) }

    /// How many times it has printed `marker`.
    func count(_ marker: String) -> Int { peer.stderrSoFar.ranges(of: Data(marker.utf8)).count }

    /// Waits until the bridge has printed `marker` `count` times (records an issue, with its log, if not).
    func waitFor(_ marker: String, count: Int = 1, timeout: Duration = .seconds(10)) async throws {
        let seen = try await eventually(timeout: timeout) { self.count(marker) >= count }
        #expect(seen, "no '\(marker)' ×\(count) in: \(log)")
    }

    /// Runs `body`, which makes a new owner of CLIPBOARD on `display`, then waits until the bridge has offered
    /// that owner's content on the other displays.
    func afterBridging<T>(from display: String, _ body: () async throws -> T) async throws -> T {
        let marker = "bridged CLIPBOARD from \(display) "
        let before = count(marker)
        let result = try await body()
        try await waitFor(marker, count: before + 1)
        return result
    }

    /// SIGTERM, then the exit.
    @discardableResult
    func stop() async -> CommandResult { await peer.stop() }
}

/// Starts `count` Xvfb servers, runs `body` with them, and stops them however it ends.
func withDisplays<T>(_ count: Int, _ body: ([XvfbServer]) async throws -> T) async throws -> T {
    var servers: [XvfbServer] = []
    do {
        for _ in 0..<count { servers.append(try await XvfbServer.start()) }
        let result = try await body(servers)
        for server in servers { await server.stop() }
        return result
    } catch {
        for server in servers { await server.stop() }
        throw error
    }
}

extension XvfbServer {
    /// A server at a free display number from 600 up, where `-displayfd` (the lowest free number) never looks.
    static func startAtUncommonNumber() async throws -> XvfbServer {
        var failure: (any Error)?
        for _ in 0..<8 {
            let number = Int.random(in: 600..<900)
            guard !FileManager.default.fileExists(atPath: "/tmp/.X11-unix/X\(number)"),
                !FileManager.default.fileExists(atPath: "/tmp/.X\(number)-lock")
            else { continue }
            do {
                return try await XvfbServer.start(display: number)
            } catch {
                failure = error
            }
        }
        throw failure ?? CommandError(kind: .notReady, arguments: ["Xvfb"], detail: "no free display number in 600..<900")
    }
}

/// The targets `owner` offers that a bridge passes on (every one but the meta targets, resource IDs and
/// side-effect targets), in order, for comparing the two sides of a bridge.
func bridgeable(_ targets: [String]) -> [String] {
    let engine: Set<String> = [
        "TARGETS", "MULTIPLE", "TIMESTAMP", "SAVE_TARGETS", "DELETE", "TARGET_SIZES", "INCR", "_CLIPBRIDGE_BRIDGED",
        "application/x-clipbridge-bridged",
        "INSERT_SELECTION", "INSERT_PROPERTY", "PIXMAP", "BITMAP", "DRAWABLE", "COLORMAP", "WINDOW",
    ]
    return targets.filter { !engine.contains($0) }
}
