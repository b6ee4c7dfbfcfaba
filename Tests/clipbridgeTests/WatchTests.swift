// clipbridge watch: owner-change lines, JSON, several selections, --exec with content and environment.

import ClipBridgeTestSupport
import Foundation
import Glibc
import Testing

/// One line of `watch --json`.
private struct ChangeLine: Decodable {
    struct Entry: Decodable { var target: String; var type: String }
    var selection: String
    var reason: String
    var owner: String?
    var timestamp: String
    var types: [Entry]
    var sensitive: Bool
}

/// The complete lines a watcher has printed so far.
private func rawLines(of watcher: BackgroundPeer) -> [String] {
    let text = String(decoding: watcher.stdoutSoFar, as: UTF8.self)
    var all = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    all.removeLast()  // the unterminated rest (empty when the output ends with a newline)
    return all.filter { !$0.isEmpty }
}

/// One line per change: a line printed before its owner answered TARGETS ("types pending") is replaced by
/// its update line ("update"), which carries the types.
private func lines(of watcher: BackgroundPeer) -> [String] {
    var folded: [String] = []
    for line in rawLines(of: watcher) {
        let isUpdate = line.contains("\"update\":true") || line.contains("  update  ")
        if isUpdate, let pending = folded.lastIndex(where: isPending) {
            folded[pending] = line
        } else {
            folded.append(line)
        }
    }
    return folded
}

private func isPending(_ line: String) -> Bool {
    line.contains("\"types\":null") || line.contains("(types pending)")
}

/// Waits until the watcher printed at least `count` changes, each with its types; returns them.
private func waitForLines(_ watcher: BackgroundPeer, count: Int) async throws -> [String] {
    let reached = try await eventually {
        let seen = lines(of: watcher)
        return seen.count >= count && !seen.prefix(count).contains(where: isPending)
    }
    #expect(reached, "watcher printed \(rawLines(of: watcher)), stderr: \(String(decoding: watcher.stderrSoFar, as: UTF8.self))")
    return lines(of: watcher)
}

@Suite("clipbridge watch", .serialized, .xvfb, .timeLimit(.minutes(2)))
struct WatchTests {
    @Test("--json: one object per owner change with selection, reason, owner, timestamp, types, sensitive")
    func json() async throws {
        let display = try CLI.server().display
        #expect(try await CLI.run(["copy", "--clear"], display: display).succeeded)
        let watcher = try CLI.start(["watch", "--json", "--initial"], display: display)
        var seen = try await waitForLines(watcher, count: 1)
        let initial = try JSONDecoder().decode(ChangeLine.self, from: Data(seen[0].utf8))
        #expect(initial.reason == "current" && initial.owner == nil && initial.types.isEmpty)

        let owner = try await Xclip.own(display, Data("watched".utf8))
        seen = try await waitForLines(watcher, count: 2)
        let change = try JSONDecoder().decode(ChangeLine.self, from: Data(seen[1].utf8))
        #expect(change.selection == "CLIPBOARD")
        #expect(change.reason == "new-owner")
        #expect(change.owner?.hasPrefix("0x") == true)
        #expect(change.types.contains { $0.target == "UTF8_STRING" })
        #expect(!change.sensitive)
        #expect(change.timestamp.contains("T"))

        await owner.stop()  // xclip exits: its window goes away with its client
        seen = try await waitForLines(watcher, count: 3)
        let gone = try JSONDecoder().decode(ChangeLine.self, from: Data(seen[2].utf8))
        #expect(["owner-window-destroyed", "owner-client-closed"].contains(gone.reason), "\(seen[2])")
        #expect(gone.owner == nil && gone.types.isEmpty)

        #expect(try await CLI.run(["copy", "--sensitive", "pw"], display: display).succeeded)
        seen = try await waitForLines(watcher, count: 4)
        #expect(try JSONDecoder().decode(ChangeLine.self, from: Data(seen[3].utf8)).sensitive)

        let stopped = await watcher.stop()
        #expect(stopped.termination == .exited(0), "\(stopped)")
    }

    @Test("human lines; --selection is repeatable")
    func humanLines() async throws {
        let display = try CLI.server().display
        let watcher = try CLI.start(["watch", "--initial", "-s", "clipboard", "--selection", "primary"],
                                    display: display)
        let initial = try await waitForLines(watcher, count: 2)
        #expect(initial[0].contains("CLIPBOARD") && initial[0].contains("current"))
        #expect(initial[1].contains("PRIMARY"))
        let owner = try await Xclip.own(display, Data("selected".utf8), selection: "primary")
        let seen = try await waitForLines(watcher, count: 3)
        #expect(seen[2].contains("PRIMARY") && seen[2].contains("new-owner") && seen[2].contains("UTF8_STRING"),
                "\(seen[2])")
        await owner.stop()
        await watcher.stop()
    }

    @Test("-p adds the primary selection; an unreachable --display exits 4")
    func primaryAndDisplay() async throws {
        let display = try CLI.server().display
        let both = try await CLI.run(["watch", "--initial", "--once", "-p", "-s", "primary"], display: display)
        #expect(both.succeeded && both.stdoutText.contains("PRIMARY"), "\(both)")
        let unreachable = try await CLI.run(["watch", "--display", ":4996"], display: display)
        #expect(unreachable.exitCode == 4 && unreachable.stderrText.contains(":4996"), "\(unreachable)")
    }

    @Test("--once exits after the first change")
    func once() async throws {
        let display = try CLI.server().display
        let current = try await CLI.run(["watch", "--once", "--initial"], display: display)
        #expect(current.succeeded && current.stdoutText.split(separator: "\n").count == 1, "\(current)")

        let watcher = try CLI.start(["watch", "--once"], display: display)
        // The watcher subscribes asynchronously; copy until it has seen one change.
        var round = 0
        let ended = try await eventually(timeout: .seconds(15)) {
            round += 1
            _ = try await CLI.run(["copy", "round \(round)"], display: display)
            return watcher.hasExited
        }
        #expect(ended)
        let result = try await watcher.waitForExit()
        #expect(result.termination == .exited(0))
        #expect(result.stdoutText.split(separator: "\n").count == 1)
    }

    @Test("--exec runs the command per change with the content on stdin and CLIPBRIDGE_* in its environment")
    func exec() async throws {
        let display = try CLI.server().display
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let script = "f=$(mktemp -p \(scratch.url.path) run.XXXXXX); cat > \"$f\"; "
            + "env | grep '^CLIPBRIDGE_' | sort > \"$f.partial\"; mv \"$f.partial\" \"$f.env\""
        let watcher = try CLI.start(["watch", "--initial", "--exec", "sh", "-c", script], display: display)
        _ = try await waitForLines(watcher, count: 1)
        #expect(try await CLI.run(["copy", "exec me ✓"], display: display).succeeded)

        func runs() throws -> [(content: String, environment: String)] {
            let names = try FileManager.default.contentsOfDirectory(atPath: scratch.url.path)
            return try names.filter { $0.hasPrefix("run.") && !$0.contains(".env") && !$0.contains(".partial") }
                .compactMap { name in
                let base = scratch.url.appendingPathComponent(name)
                guard let environment = try? String(contentsOf: base.appendingPathExtension("env"), encoding: .utf8)
                else { return nil }
                return (try String(contentsOf: base, encoding: .utf8), environment)
            }
        }
        #expect(try await eventually { try runs().contains { $0.content == "exec me ✓" } })
        let run = try #require(try runs().first { $0.content == "exec me ✓" })
        #expect(run.environment.contains("CLIPBRIDGE_SELECTION=CLIPBOARD"))
        #expect(run.environment.contains("CLIPBRIDGE_REASON=new-owner"))
        #expect(run.environment.contains("CLIPBRIDGE_SENSITIVE=0"))
        #expect(run.environment.split(separator: "\n").contains { $0.hasPrefix("CLIPBRIDGE_TYPES=") && $0.contains("UTF8_STRING") })

        // Sensitive content is not handed over; the next change shows the sensitive one was processed.
        #expect(try await CLI.run(["copy", "--sensitive", "s3cret"], display: display).succeeded)
        #expect(try await CLI.run(["copy", "after the secret"], display: display).succeeded)
        #expect(try await eventually { try runs().contains { $0.content == "after the secret" } })
        #expect(try !runs().contains { $0.content == "s3cret" })
        await watcher.stop()
    }

    @Test("--include-sensitive hands sensitive content to the command, with CLIPBRIDGE_SENSITIVE=1")
    func includeSensitive() async throws {
        let display = try CLI.server().display
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let out = scratch.url.appendingPathComponent("out")
        let script = "cat > \(out.path).tmp; echo \"$CLIPBRIDGE_SENSITIVE\" >> \(out.path).tmp; mv \(out.path).tmp \(out.path)"
        let watcher = try CLI.start(["watch", "--include-sensitive", "--initial", "--exec", "sh", "-c", script],
                                    display: display)
        _ = try await waitForLines(watcher, count: 1)
        #expect(try await CLI.run(["copy", "--sensitive", "top secret"], display: display).succeeded)
        #expect(try await eventually {
            (try? String(contentsOf: out, encoding: .utf8)) == "top secret1\n"
        })
        await watcher.stop()
    }

    @Test("-t picks the type given to --exec")
    func execType() async throws {
        let display = try CLI.server().display
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let out = scratch.url.appendingPathComponent("out")
        let script = "cat > \(out.path).tmp; mv \(out.path).tmp \(out.path)"
        let watcher = try CLI.start(["watch", "--initial", "-t", "text/html", "--exec", "sh", "-c", script],
                                    display: display)
        _ = try await waitForLines(watcher, count: 1)
        #expect(try await CLI.run(["copy", "-t", "text/html"], display: display, input: "<u>u</u>").succeeded)
        #expect(try await eventually { (try? String(contentsOf: out, encoding: .utf8)) == "<u>u</u>" })
        await watcher.stop()
    }
}
