// clipbridge when its X server dies under it: every command reports it (exit 5, "the connection … broke").

import ClipBridgeTestSupport
import Foundation
import Glibc
import Testing

/// Each test starts and kills its own X server.
@Suite("clipbridge when the X server dies", .timeLimit(.minutes(2)))
struct ServerLossTests {
    @Test("copy --foreground, idle: exit 5 with paste's message")
    func copyIdle() async throws {
        let server = try await XvfbServer.start()
        let copy = try CLI.start(["copy", "--foreground", "doomed"], display: server.display)
        #expect(try await eventually { try await Xclip.paste(server.display).stdoutText == "doomed" })
        await server.kill()
        let ended = try await copy.waitForExit(timeout: .seconds(5))
        #expect(ended.exitCode == 5, "\(ended)")
        #expect(ended.stderrText.contains("broke"), "\(ended.stderrText)")
    }

    @Test("copy --foreground, mid-transfer to a requestor: exit 5")
    func copyServing() async throws {
        let server = try await XvfbServer.start()
        let copy = try CLI.start(["copy", "--foreground"], display: server.display,
                                 stdin: Data(repeating: 0x41, count: 24 << 20))
        #expect(try await eventually {
            try await runPeer(["xclip", "-selection", "clipboard", "-o", "-t", "TARGETS"], display: server.display)
                .stdoutText.contains("UTF8_STRING")
        })
        // A requestor that takes the INCR header and a chunk, then stalls: the owner is mid-transfer (24 MiB is
        // above the largest request Xvfb takes, so the reply is INCR).
        let stalled = try startPeer(
            [ToolkitPeer.python, ToolkitPeer.scriptsDirectory.appendingPathComponent("hostile_requestor.py").path,
             "incr-stall", "--target", "UTF8_STRING", "--chunks", "1", "--stall", "30"],
            display: server.display)
        try await stalled.waitForOutput("\"incr\": true")
        await server.kill()
        let ended = try await copy.waitForExit(timeout: .seconds(5))
        #expect(ended.exitCode == 5, "\(ended)")
        _ = await stalled.stop()
    }

    @Test("paste and watch: exit 5")
    func pasteAndWatch() async throws {
        let server = try await XvfbServer.start()
        let owner = try await HostilePeer.owner(["silent"], display: server.display)
        let paste = try CLI.start(["paste", "--timeout", "30"], display: server.display)
        let watch = try CLI.start(["watch"], display: server.display)
        try await Task.sleep(for: .milliseconds(500))
        await server.kill()
        for peer in [paste, watch] {
            let ended = try await peer.waitForExit(timeout: .seconds(5))
            #expect(ended.exitCode == 5, "\(ended)")
        }
        _ = await owner.stop()
    }
}
