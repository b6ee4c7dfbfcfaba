// WaylandConnection against a real compositor (sway headless): our own sources read by wl-paste, replaced by
// wl-copy, a requestor that stops reading, the compositor going away.

import ClipBridgeTestSupport
import Foundation
import Glibc
import Synchronization
import Testing
import WaylandSelection

@Suite("A Wayland selection owned through data-control", .serialized, .timeLimit(.minutes(3)))
struct WaylandConnectionTests {
    /// Serves `contents` (by MIME type) for every request of `connection`'s events; records the events.
    final class Server: Sendable {
        final class Log: Sendable {
            let events = Mutex<[WaylandSelectionEvent]>([])
        }

        let log = Log()
        let task: Task<Void, Never>

        init(_ connection: WaylandConnection, contents: [String: Data], timeout: Duration = .seconds(5)) {
            let log = self.log
            task = Task {
                for await event in connection.events {
                    log.events.withLock { $0.append(event) }
                    guard case .sendRequested(let request) = event else { continue }
                    // Each request on its own task: a requestor that stops reading holds up no other.
                    Task {
                        defer { request.finish() }
                        if let bytes = contents[request.mimeType] {
                            try? await request.write(bytes, timeout: timeout)
                        }
                    }
                }
            }
        }

        func offers(of selection: WaylandSelectionName) -> [(types: [String], isOwn: Bool)] {
            log.events.withLock { events in
                events.compactMap { event in
                    if case .offered(selection, let types, let isOwn) = event { return (types, isOwn) }
                    return nil
                }
            }
        }

        var cancelled: [WaylandSourceID] {
            log.events.withLock { $0.compactMap { if case .cancelled(_, let source) = $0 { source } else { nil } } }
        }

        var ended: Bool {
            log.events.withLock { $0.contains { if case .ended = $0 { true } else { false } } }
        }
    }

    static func pattern(_ count: Int) -> Data {
        var bytes = [UInt8]()
        bytes.reserveCapacity(count)
        for index in 0..<count { bytes.append(UInt8(truncatingIfNeeded: index &* 2_654_435_761 >> 11)) }
        return Data(bytes)
    }

    @Test("wl-paste reads our source: its types in our order, text byte-exact, 16 MiB of a custom type, the primary selection",
          arguments: SwayServer.Build.allCases)
    func served(_ build: SwayServer.Build) async throws {
        try await SwayServer.with(build, xwayland: false) { sway in
            let wayland = sway.waylandEnvironment
            let connection = try await WaylandConnection.open(display: sway.waylandDisplay)
            defer { connection.close() }
            #expect(connection.dataControlProtocol == build.dataControlProtocol)
            #expect(connection.hasPrimarySelection)
            let text = "Grüße über Wayland ✓ 🙂"
            let big = Self.pattern(16 << 20)
            let server = Server(connection, contents: [
                "text/plain;charset=utf-8": Data(text.utf8), "application/x-clipbridge-test": big,
            ])
            defer { server.task.cancel() }
            let source = try await connection.offer(["application/x-clipbridge-test", "text/plain;charset=utf-8"], as: .clipboard)

            let types = try await runPeer(["wl-paste", "--list-types"], display: nil, environment: wayland)
            #expect(types.stdoutText == "application/x-clipbridge-test\ntext/plain;charset=utf-8\n", "\(types)")
            let pasted = try await runPeer(["wl-paste", "--no-newline", "--type", "text/plain;charset=utf-8"],
                                           display: nil, environment: wayland)
            #expect(pasted.succeeded && pasted.stdout == Data(text.utf8), "\(pasted)")
            let large = try await runPeer(["wl-paste", "--type", "application/x-clipbridge-test"], display: nil,
                                          environment: wayland, timeout: .seconds(30))
            #expect(large.succeeded && large.stdout.count == big.count && large.stdout == big)

            // The compositor tells the setter its own claim: seen as ours.
            #expect(try await eventually { server.offers(of: .clipboard).last.map { $0.isOwn } == true })
            #expect(await connection.holds(.clipboard, source: source))

            // The primary selection.
            #expect(connection.hasPrimarySelection)
            _ = try await connection.offer(["text/plain;charset=utf-8"], as: .primary)
            let primary = try await runPeer(["wl-paste", "--primary", "--no-newline"], display: nil, environment: wayland)
            #expect(primary.succeeded && primary.stdout == Data(text.utf8), "\(primary)")

            // wl-copy takes the clipboard: our source is cancelled, and its offer is not ours.
            #expect(try await runPeer(["wl-copy", "--", "theirs"], display: nil, environment: wayland).succeeded)
            #expect(try await eventually { server.cancelled.contains(source) })
            #expect(try await eventually {
                server.offers(of: .clipboard).last.map { $0.isOwn == false && $0.types.contains("text/plain;charset=utf-8") } == true
            })
            #expect(await !connection.holds(.clipboard))
            #expect(try await connection.read("text/plain;charset=utf-8", from: .clipboard) == Data("theirs".utf8))

            // Released: the selection is empty (and releasing what another client holds does nothing).
            await connection.release(.clipboard)
            #expect(try await connection.types(of: .clipboard).contains("text/plain;charset=utf-8"))
            await connection.release(.primary)
            #expect(try await eventually { try await connection.types(of: .primary).isEmpty })
        }
    }

    @Test("our source of thousands of distinct types, each listed twice: each once, in order, as many as 64 KiB of messages hold; the compositor keeps every client",
          arguments: SwayServer.Build.allCases)
    func thousandsOfTypes(_ build: SwayServer.Build) async throws {
        try await SwayServer.with(build, xwayland: false) { sway in
            let owner = try await WaylandConnection.open(display: sway.waylandDisplay)
            defer { owner.close() }
            let reader = try await WaylandConnection.open(display: sway.waylandDisplay)
            defer { reader.close() }
            // Names as varied as an X owner's targets crossing the bridge, not one repeated: 6,000 distinct, each
            // listed again 50 places later; a third of them a few hundred bytes long (and one past the 1,024 taken).
            var distinct = (0..<6_000).map { index in
                ["application/x-vnd.peer-\(index * 7_919 % 100_003)+"
                    + String(repeating: String(index, radix: 36), count: 40 + index % 60),
                 "text/x-\(index)-\(String(index, radix: 36))", "image/x-p\(index % 97)-\(index)"][index % 3]
            }.map { String($0.prefix(1_024)) }
            distinct.insert("application/x-" + String(repeating: "long", count: 300), at: 7)
            var listed: [String] = []
            for (index, type) in distinct.enumerated() {
                listed.append(type)
                if index >= 50 { listed.append(distinct[index - 50]) }
            }
            // What fits: each message is the type, its terminating NUL and padding, a length and a header (≤ 16 bytes).
            var budget = 64 << 10
            let expected = Array(distinct.filter { $0.utf8.count <= 1_024 }.prefix { type in
                budget -= type.utf8.count + 16
                return budget >= 0
            })
            #expect(expected.count > 300)
            let started = ContinuousClock.now
            _ = try await owner.offer(listed, as: .clipboard)
            #expect(try await eventually(timeout: .seconds(10)) { try await reader.types(of: .clipboard).count == expected.count })
            #expect(try await reader.types(of: .clipboard) == expected)
            #expect(ContinuousClock.now - started < .seconds(5))
            // Both clients are still connected: a second offer reaches the reader.
            _ = try await owner.offer(["text/plain;charset=utf-8"], as: .clipboard)
            #expect(try await eventually { try await reader.types(of: .clipboard) == ["text/plain;charset=utf-8"] })
        }
    }

    @Test("a requestor that stops reading costs its own transfer, at its deadline; others are served meanwhile")
    func stuckRequestor() async throws {
        try await SwayServer.with(xwayland: false) { sway in
            let wayland = sway.waylandEnvironment
            let connection = try await WaylandConnection.open(display: sway.waylandDisplay)
            defer { connection.close() }
            let big = Self.pattern(8 << 20)
            let server = Server(connection, contents: ["application/x-big": big, "text/plain": Data("small".utf8)],
                                timeout: .milliseconds(800))
            defer { server.task.cancel() }
            _ = try await connection.offer(["application/x-big", "text/plain"], as: .clipboard)
            // A requestor (a second connection) that takes the first chunk and then stops reading.
            let requestor = try await WaylandConnection.open(display: sway.waylandDisplay)
            defer { requestor.close() }
            let stuck = Task {
                try await requestor.read("application/x-big", from: .clipboard) { _ in
                    try await Task.sleep(for: .seconds(20))
                }
            }
            defer { stuck.cancel() }
            try await Task.sleep(for: .milliseconds(300))
            let started = ContinuousClock.now
            let small = try await runPeer(["wl-paste", "--no-newline", "--type", "text/plain"], display: nil, environment: wayland)
            #expect(small.succeeded && small.stdout == Data("small".utf8))
            #expect(ContinuousClock.now - started < .milliseconds(700), "served while the other transfer is stuck")
            // The stuck transfer ended at its deadline: the next request still works, and the server saw no end.
            try await Task.sleep(for: .seconds(1))
            let again = try await runPeer(["wl-paste", "--no-newline", "--type", "text/plain"], display: nil, environment: wayland)
            #expect(again.stdout == Data("small".utf8))
            #expect(!server.ended)
        }
    }

    /// A requestor that closes its end early (`wl-paste | head -c`): the write fails with that reason — an EPIPE on
    /// the writing task's own thread, whose SIGPIPE is blocked there for the call and taken, never the process's end
    /// — and the next request is served.
    @Test("a requestor that closes its end early fails that write alone; the process lives on and serves the next")
    func requestorClosesEarly() async throws {
        try await SwayServer.with(xwayland: false) { sway in
            let wayland = sway.waylandEnvironment
            let connection = try await WaylandConnection.open(display: sway.waylandDisplay)
            defer { connection.close() }
            let big = Self.pattern(32 << 20)
            final class Failures: Sendable { let list = Mutex<[String]>([]) }
            let failures = Failures()
            let served = Task {
                for await event in connection.events {
                    guard case .sendRequested(let request) = event else { continue }
                    Task {
                        defer { request.finish() }
                        do {
                            try await request.write(request.mimeType == "text/plain" ? Data("after".utf8) : big)
                        } catch {
                            failures.list.withLock { $0.append("\(error)") }
                        }
                    }
                }
            }
            defer { served.cancel() }
            _ = try await connection.offer(["application/x-big", "text/plain"], as: .clipboard)
            let cut = try await runPeer(
                ["/bin/sh", "-c", "wl-paste --type application/x-big | head -c 1000 | wc -c"], display: nil,
                environment: wayland, timeout: .seconds(30))
            #expect(cut.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines) == "1000", "\(cut)")
            #expect(try await eventually(timeout: .seconds(10)) { !failures.list.withLock { $0 }.isEmpty })
            let failed = failures.list.withLock { $0 }
            #expect(failed.first?.contains("closed its end") == true, "\(failed)")
            let next = try await runPeer(["wl-paste", "--no-newline", "--type", "text/plain"], display: nil, environment: wayland)
            #expect(next.stdout == Data("after".utf8), "\(next)")
        }
    }

    @Test("a compositor with neither data-control protocol (Weston, as GNOME's Mutter): an error naming both")
    func neitherProtocol() async throws {
        try await WestonServer.with { weston in
            do {
                _ = try await WaylandConnection.open(display: weston.waylandDisplay)
                Issue.record("Weston has no data-control, and yet the connection opened")
            } catch let error as WaylandError {
                #expect(error.code == .protocolUnavailable, "\(error)")
                #expect(error.message.contains("ext_data_control_manager_v1") && error.message.contains("zwlr_data_control_manager_v1"),
                        "\(error.message)")
            }
        }
    }

    @Test("the compositor going away ends the events; calls then throw; no compositor is a clear error")
    func compositorGone() async throws {
        try await SwayServer.with(xwayland: false) { sway in
            let connection = try await WaylandConnection.open(display: sway.waylandDisplay)
            let server = Server(connection, contents: [:])
            await sway.stop()
            #expect(try await eventually { server.ended })
            await #expect(throws: WaylandError.self) { _ = try await connection.offer(["text/plain"], as: .clipboard) }
            await #expect(throws: WaylandError.self) { _ = try await connection.read("text/plain", from: .clipboard) }
            await server.task.value
        }
        do {
            _ = try await WaylandConnection.open(display: "/nonexistent/wayland-99", timeout: .seconds(2))
            Issue.record("connected to nothing")
        } catch {
            #expect(error.code == .noCompositor, "\(error)")
        }
    }
}
