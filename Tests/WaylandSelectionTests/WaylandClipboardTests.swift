// WaylandClipboard against a real compositor: sway headless (SwayServer), with wl-copy as the owner.

import ClipBridgeTestSupport
import Foundation
import Glibc
import Testing
import WaylandSelection

@Suite("A Wayland compositor's clipboard through data-control", .serialized, .timeLimit(.minutes(3)))
struct WaylandClipboardTests {
    @Test("the selection's types in the owner's order, its text byte-exact, 8 MiB streamed, the primary selection")
    func reads() async throws {
        try await SwayServer.with(xwayland: false) { sway in
            let wayland = sway.waylandEnvironment
            let text = "grüße aus Wayland ✓"
            #expect(try await runPeer(["wl-copy", "--", text], display: nil, environment: wayland).succeeded)
            let clipboard = try WaylandClipboard(display: sway.waylandDisplay)
            defer { clipboard.close() }
            // wl-copy's own offer for text: these types, in this order (wl-clipboard 2.1, as run here).
            #expect(clipboard.types(of: .clipboard) == [
                "text/plain", "text/plain;charset=utf-8", "TEXT", "STRING", "UTF8_STRING",
            ])
            #expect(try clipboard.read("text/plain;charset=utf-8") == Array(text.utf8))
            #expect(clipboard.hasPrimarySelection)
            #expect(throws: WaylandError.self) { try clipboard.read("image/png") }

            // A large payload of a custom type, streamed.
            var big = [UInt8]()
            big.reserveCapacity(8 << 20)
            for index in 0..<(8 << 20) { big.append(UInt8(truncatingIfNeeded: index &* 2_654_435_761 >> 13)) }
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("wayland-big-\(getpid())")
            try Data(big).write(to: file)
            defer { try? FileManager.default.removeItem(at: file) }
            let copied = try await runPeer(
                ["sh", "-c", "wl-copy --type application/x-clipbridge-test < '\(file.path)'"], display: nil,
                environment: wayland)
            #expect(copied.succeeded, "\(copied.stderrText)")
            // The new owner's offer arrives as events: read them.
            let seen = try await eventually { () async throws -> Bool in
                try clipboard.update(timeout: .milliseconds(50))
                return clipboard.types(of: .clipboard) == ["application/x-clipbridge-test"]
            }
            #expect(seen, "\(clipboard.types(of: .clipboard))")
            var received = 0
            var matches = true
            try clipboard.read("application/x-clipbridge-test", timeout: .seconds(10)) { chunk in
                matches = matches && chunk.elementsEqual(big[received..<(received + chunk.count)])
                received += chunk.count
            }
            #expect(received == big.count && matches)

            // The primary selection.
            #expect(try await runPeer(["wl-copy", "--primary", "--", "selected"], display: nil, environment: wayland).succeeded)
            let primary = try await eventually { () async throws -> Bool in
                try clipboard.update(timeout: .milliseconds(50))
                return !clipboard.types(of: .primary).isEmpty
            }
            #expect(primary)
            #expect(try clipboard.read("text/plain;charset=utf-8", from: .primary) == Array("selected".utf8))
        }
    }

    @Test("a stuck owner ends the read at its deadline; a compositor that is gone, or missing, is a clear error")
    func failures() async throws {
        try await SwayServer.with(xwayland: false) { sway in
            let wayland = sway.waylandEnvironment
            #expect(try await runPeer(["wl-copy", "--", "x"], display: nil, environment: wayland).succeeded)
            let clipboard = try WaylandClipboard(display: sway.waylandDisplay)
            defer { clipboard.close() }
            // Freeze the owner: it never writes. (wl-copy's server is the newest wl-copy process.)
            let owner = try await runPeer(["pgrep", "-n", "-x", "wl-copy"], display: nil)
            let pid = try #require(Int32(owner.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)))
            kill(pid, SIGSTOP)
            let started = ContinuousClock.now
            #expect(throws: WaylandError.self) { try clipboard.read("text/plain", timeout: .milliseconds(500)) }
            #expect(ContinuousClock.now - started < .seconds(3))
            kill(pid, SIGKILL)
            // The compositor goes away: the next update says so, and so does a read.
            await sway.stop()
            let lost = try await eventually { () async throws -> Bool in
                do {
                    try clipboard.update(timeout: .milliseconds(50))
                    return false
                } catch let error as WaylandError {
                    return error.code == .connectionLost
                }
            }
            #expect(lost)
            #expect(throws: WaylandError.self) { try clipboard.read("text/plain") }
        }
        // No compositor at that name.
        #expect {
            try WaylandClipboard(display: "/nonexistent/wayland-9", timeout: .seconds(2))
        } throws: { ($0 as? WaylandError)?.code == .noCompositor }
    }
}
