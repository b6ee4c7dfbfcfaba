// clipbridge against Xfce's real clipboard manager (xfsettingsd) restoring a GTK 3 copy: the manager lists
// GTK's escaped `text/plain` first, and answers targets it lacks with a property it never writes.

import ClipBridgeTestSupport
import Foundation
import Testing

@Suite("clipbridge with xfsettingsd as clipboard manager", .serialized, .xvfb, .timeLimit(.minutes(2)))
struct ClipboardManagerPeerTests {
    @Test("a GTK 3 copy handed to xfsettingsd pastes byte-exact (UTF-8, not the escaped text/plain it lists first)")
    func gtk3CopyRestoredByXfsettingsd() async throws {
        let display = try CLI.server().display
        let manager = try startPeer([ToolkitPeer.script("xfsettingsd_manager.sh"), "--replace"], display: display)
        try await manager.waitForOutput("ready", timeout: .seconds(20))
        let text = "café\r\nline2 €"
        let copier = try startPeer([ToolkitPeer.python, ToolkitPeer.script("gtk3_copy.py"), text], display: display)
        try await copier.waitForOutput("ready")
        copier.send(signal: SIGTERM)
        try await copier.waitForOutput("stored")
        _ = try await copier.waitForExit()

        // GTK has exited: the manager owns CLIPBOARD and lists bare text/plain first.
        let targets = try await CLI.run(["paste", "-t", "TARGETS"], display: display)
        let names = targets.stdoutText.split(separator: "\n").map(String.init)
        let firstText = names.first { $0.hasPrefix("text/") || $0.hasSuffix("STRING") || $0 == "TEXT" }
        #expect(firstText == "text/plain", "\(names)")

        for arguments in [["paste"], ["paste", "-t", "text"], ["paste", "-t", "public.plain-text"]] {
            let result = try await CLI.run(arguments, display: display)
            #expect(result.succeeded, "\(arguments): \(result)")
            #expect(result.stdout == Data(text.utf8), "\(arguments): \(result.stdoutText.debugDescription)")
        }
        // A target the manager does not have: it answers with a property it never writes. That is an invalid
        // reply, reported within the notify grace (500 ms), not after the whole --timeout.
        let missing = try await CLI.run(["paste", "-t", "image/png", "--timeout", "5"], display: display)
        #expect(missing.exitCode == 1 || missing.exitCode == 5, "\(missing)")
        #expect(missing.duration < .seconds(2), "\(missing.duration)")
        _ = await manager.stop()
    }
}
