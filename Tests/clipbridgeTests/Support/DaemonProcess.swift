// A running `clipbridge daemon` for the daemon's tests: started with CLIPBOARD empty, followed through the
// lines it prints on stderr.

import ClipBridgeTestSupport
import Foundation
import Testing

struct DaemonProcess {
    let peer: BackgroundPeer

    /// Starts `clipbridge daemon extra…` on `display` with nobody owning CLIPBOARD, and waits until it keeps it.
    static func start(_ display: String, _ extra: [String] = [], environment: [String: String] = [:]) async throws
        -> DaemonProcess
    {
        #expect(try await CLI.run(["copy", "--clear"], display: display).succeeded)
        // --config /dev/null: the settings of the test, not those of whoever runs the suite.
        let daemon = try CLI.start(["daemon", "--config", "/dev/null"] + extra, display: display, environment: environment)
        // Generous: a start-up, not a measured bound (10 s was not enough once under the suite's parallel load).
        try await daemon.waitForOutput("keeping CLIPBOARD", in: .stderr, timeout: .seconds(30))
        return DaemonProcess(peer: daemon)
    }

    /// What it printed so far.
    var log: String { String(decoding: peer.stderrSoFar, as: UTF8.self) }

    /// Waits until the daemon has printed `marker` `count` times (records an issue, with its log, if not).
    func waitFor(_ marker: String, count: Int = 1, timeout: Duration = .seconds(10)) async throws {
        let seen = try await eventually(timeout: timeout) {
            peer.stderrSoFar.ranges(of: Data(marker.utf8)).count >= count
        }
        #expect(seen, "no '\(marker)' ×\(count) in: \(log)")
    }

    /// SIGTERM, then the exit.
    @discardableResult
    func stop() async -> CommandResult { await peer.stop() }
}
