// WaylandConnection as a requestor against a real compositor: sway headless (SwayServer), with wl-copy as the owner.

import ClipBridgeTestSupport
import Foundation
import Glibc
import Testing
import WaylandSelection

@Suite("A Wayland compositor's clipboard read through data-control", .serialized, .timeLimit(.minutes(3)))
struct WaylandReadTests {
    @Test("the selection's types in the owner's order, its text byte-exact, 8 MiB streamed, the primary selection",
          arguments: SwayServer.Build.allCases)
    func reads(_ build: SwayServer.Build) async throws {
        try await SwayServer.with(build, xwayland: false) { sway in
            let wayland = sway.waylandEnvironment
            let text = "grüße aus Wayland ✓"
            #expect(try await runPeer(["wl-copy", "--", text], display: nil, environment: wayland).succeeded)
            let clipboard = try await WaylandConnection.open(display: sway.waylandDisplay)
            defer { clipboard.close() }
            #expect(clipboard.dataControlProtocol == build.dataControlProtocol)
            // wl-copy's own offer for text: these types, in this order (wl-clipboard 2.1, as run here).
            #expect(try await clipboard.types(of: .clipboard) == [
                "text/plain", "text/plain;charset=utf-8", "TEXT", "STRING", "UTF8_STRING",
            ])
            #expect(try await clipboard.read("text/plain;charset=utf-8", from: .clipboard) == Data(text.utf8))
            #expect(clipboard.hasPrimarySelection)
            await #expect(throws: WaylandError.self) { _ = try await clipboard.read("image/png", from: .clipboard) }

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
            // The new owner's offer arrives as the connection's loop reads the compositor's events.
            let seen = try await eventually {
                try await clipboard.types(of: .clipboard) == ["application/x-clipbridge-test"]
            }
            let types = try await clipboard.types(of: .clipboard)
            #expect(seen, "\(types)")
            var received = 0
            var matches = true
            try await clipboard.read("application/x-clipbridge-test", from: .clipboard, timeout: .seconds(10)) { chunk in
                matches = matches && chunk.elementsEqual(big[received..<(received + chunk.count)])
                received += chunk.count
            }
            #expect(received == big.count && matches)

            // The primary selection.
            #expect(try await runPeer(["wl-copy", "--primary", "--", "selected"], display: nil, environment: wayland).succeeded)
            let primary = try await eventually { try await !clipboard.types(of: .primary).isEmpty }
            #expect(primary)
            #expect(try await clipboard.read("text/plain;charset=utf-8", from: .primary) == Data("selected".utf8))
        }
    }

    @Test("a stuck owner ends the read at its deadline; a compositor that is gone, or missing, is a clear error")
    func failures() async throws {
        try await SwayServer.with(xwayland: false) { sway in
            let wayland = sway.waylandEnvironment
            #expect(try await runPeer(["wl-copy", "--", "x"], display: nil, environment: wayland).succeeded)
            let clipboard = try await WaylandConnection.open(display: sway.waylandDisplay)
            defer { clipboard.close() }
            // Freeze the owner: it never writes. (wl-copy's server is the newest wl-copy process.)
            let owner = try await runPeer(["pgrep", "-n", "-x", "wl-copy"], display: nil)
            let pid = try #require(Int32(owner.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)))
            kill(pid, SIGSTOP)
            let started = ContinuousClock.now
            await #expect(throws: WaylandError.self) {
                _ = try await clipboard.read("text/plain", from: .clipboard, timeout: .milliseconds(500))
            }
            #expect(ContinuousClock.now - started < .seconds(3))
            kill(pid, SIGKILL)
            // The compositor goes away: the connection says so, and so does a read.
            await sway.stop()
            let lost = try await eventually { () async throws -> Bool in
                do {
                    _ = try await clipboard.types(of: .clipboard)
                    return false
                } catch let error as WaylandError {
                    return error.code == .connectionLost
                }
            }
            #expect(lost)
            await #expect(throws: WaylandError.self) { _ = try await clipboard.read("text/plain", from: .clipboard) }
        }
        // No compositor at that name.
        await #expect {
            _ = try await WaylandConnection.open(display: "/nonexistent/wayland-9", timeout: .seconds(2))
        } throws: { ($0 as? WaylandError)?.code == .noCompositor }
    }
}
