// `clipbridge watch` on a Wayland compositor with no X display (sway 1.7 and 1.12, headless, no XWayland): one line
// per change with its types, CLIPBOARD and PRIMARY apart, none lost over 300 copies in a row; a selection emptied;
// the secret hint; --exec fed the content; --initial; SIGTERM (0) and the compositor's end (5).

import ClipBridgeTestSupport
import Foundation
import Glibc
import Testing
import WaylandSelection

@Suite("clipbridge watch on a Wayland compositor, without X", .serialized, .timeLimit(.minutes(5)))
struct WaylandWatchTests {
    /// The JSON objects `watcher` printed so far.
    static func lines(_ watcher: BackgroundPeer) -> [[String: Any]] {
        String(decoding: watcher.stdoutSoFar, as: UTF8.self).split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
    }

    static func targets(_ line: [String: Any]) -> [String] {
        ((line["types"] as? [[String: Any]]) ?? []).filter { ($0["converted"] as? Bool) == false }
            .compactMap { $0["target"] as? String }
    }

    @Test("one line per change with its types, CLIPBOARD and PRIMARY apart: none lost over 300 copies in a row",
          arguments: SwayServer.Build.allCases)
    func everyChange(_ build: SwayServer.Build) async throws {
        try await SwayServer.with(build, xwayland: false) { sway in
            let watcher = try CLI.start(
                ["watch", "--json", "--initial", "-s", "clipboard", "-s", "primary"], display: nil,
                environment: sway.waylandEnvironment)
            defer { Task { _ = await watcher.stop() } }
            // --initial: both selections as found (empty), once the watcher is subscribed.
            #expect(try await eventually { Self.lines(watcher).count == 2 })
            #expect(Self.lines(watcher).map { $0["reason"] as? String } == ["current", "current"])
            #expect(Self.lines(watcher).map { $0["selection"] as? String } == ["CLIPBOARD", "PRIMARY"])

            // 300 copies as fast as one client can make them, each replacing the last, and PRIMARY between.
            let copier = try await WaylandConnection.open(display: sway.waylandDisplay)
            defer { copier.close() }
            var expected: [(String, [String])] = []
            for index in 0..<300 {
                let types = ["application/x-copy-\(index)", "text/plain;charset=utf-8"]
                _ = try await copier.offer(types, as: .clipboard)
                expected.append(("CLIPBOARD", types))
                if index % 100 == 99 {
                    let selected = ["text/plain;charset=utf-8", "application/x-selected-\(index)"]
                    _ = try await copier.offer(selected, as: .primary)
                    expected.append(("PRIMARY", selected))
                }
            }
            let arrived = try await eventually(timeout: .seconds(30)) { Self.lines(watcher).count >= 2 + expected.count }
            let changes = Array(Self.lines(watcher).dropFirst(2))
            #expect(arrived, "\(changes.count) of \(expected.count) lines")
            #expect(changes.count == expected.count)
            for (line, (selection, types)) in zip(changes, expected) {
                #expect(line["selection"] as? String == selection && line["reason"] as? String == "new-owner", "\(line)")
                #expect(Self.targets(line) == types, "\(line)")
                #expect(line["owner"] as? String == "source" && line["update"] as? Bool == false)
            }

            // The copying client leaves: both selections empty, each said once.
            copier.close()
            #expect(try await eventually { Self.lines(watcher).count == 2 + expected.count + 2 })
            let cleared = Array(Self.lines(watcher).suffix(2))
            #expect(Set(cleared.compactMap { $0["selection"] as? String }) == ["CLIPBOARD", "PRIMARY"])
            #expect(cleared.allSatisfy { $0["reason"] as? String == "cleared" && $0["owner"] is NSNull }, "\(cleared)")
            // SIGTERM: status 0.
            watcher.send(signal: SIGTERM)
            let ended = try await watcher.waitForExit(timeout: .seconds(2))
            #expect(ended.exitCode == 0, "\(ended)")
        }
    }

    @Test("--exec gets the content and the secret hint is honoured; the compositor's end is status 5")
    func execSecretsAndTheEnd() async throws {
        let sway = try await SwayServer.start(.debian, xwayland: false)
        let environment = sway.waylandEnvironment
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("wayland-watch-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let log = folder.appendingPathComponent("log").path
        let watcher = try CLI.start(
            ["watch", "--json", "--initial", "--exec", "sh", "-c", "cat >> \(log); echo \" [$CLIPBRIDGE_REASON]\" >> \(log)"],
            display: nil, environment: environment)
        #expect(try await eventually { Self.lines(watcher).count == 1 })
        let copy = try await WaylandTestSource(
            on: sway.waylandDisplay, [("text/html", Data("<b>x</b>".utf8)), ("text/plain;charset=utf-8", Data("Grüße ✓".utf8))])
        #expect(try await eventually { (try? String(contentsOfFile: log, encoding: .utf8))?.contains("Grüße ✓ [new-owner]") == true })
        let secret = try await WaylandTestSource(
            on: sway.waylandDisplay,
            [("text/plain;charset=utf-8", Data("hunter2".utf8)), ("x-kde-passwordManagerHint", Data("secret".utf8))])
        #expect(try await eventually { Self.lines(watcher).contains { $0["sensitive"] as? Bool == true } })
        #expect(try await eventually { String(decoding: watcher.stderrSoFar, as: UTF8.self).contains("sensitive content not given") })
        #expect(!((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").contains("hunter2"))
        #expect(!secret.reads.all.contains("text/plain;charset=utf-8"))
        #expect(copy.reads.all == ["text/plain;charset=utf-8"])

        await sway.stop()
        let ended = try await watcher.waitForExit(timeout: .seconds(2))
        #expect(ended.exitCode == 5 && ended.stderrText.contains("closed the connection"), "\(ended)")
        copy.close()
        secret.close()
    }
}
