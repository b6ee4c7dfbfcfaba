// The Wayland side's fixture (issue 30): sway headless with XWayland, started by the test as an unprivileged
// user, reached by wl-clipboard on the Wayland side and by xclip on XWayland. Also checks the claim the X11 ↔
// Wayland bridge answers: sway alone does not carry a copy between the two sides.

import ClipBridgeTestSupport
import Foundation
import Glibc
import Testing

@Suite("sway headless with XWayland (the Wayland fixture)", .serialized, .timeLimit(.minutes(2)))
struct WaylandFixtureTests {
    @Test("wl-copy and wl-paste on the compositor, xclip on its XWayland; sway alone bridges neither way")
    func swayServes() async throws {
        try await SwayServer.with { sway in
            let wayland = sway.waylandEnvironment
            // The Wayland side: a wl-copy (it forks its server and returns), read back by wl-paste.
            let text = "wayland ✓ grüße"
            let copied = try await runPeer(["wl-copy", "--", text], display: nil, environment: wayland)
            #expect(copied.succeeded, "wl-copy: \(copied.stderrText) \(sway.log.suffix(500))")
            let pasted = try await runPeer(["wl-paste", "--no-newline"], display: nil, environment: wayland)
            #expect(pasted.stdout == Data(text.utf8), "wl-paste: \(pasted.stderrText)")
            // The X side: XWayland admits this user, and xclip round-trips on it.
            let xDisplay = try #require(sway.xDisplay)
            let owner = try startPeer(["xclip", "-quiet", "-i", "-selection", "clipboard"], display: xDisplay,
                                      stdin: Data("from XWayland".utf8))
            try await owner.waitForOutput("Waiting for selection", in: .stderr, timeout: .seconds(10))
            let read = try await runPeer(["xclip", "-o", "-selection", "clipboard"], display: xDisplay)
            #expect(read.stdout == Data("from XWayland".utf8), "xclip -o: \(read.stderrText)")
            // Neither copy crossed: the Wayland side still has its own.
            let still = try await runPeer(["wl-paste", "--no-newline"], display: nil, environment: wayland)
            #expect(still.stdout == Data(text.utf8))
            await owner.stop()
        }
    }
}
