// clipbridge daemon: the clipboard outlives the application that copied it — every flavour, byte-exact —
// against real owners that exit without handing over (xclip, a GTK 3 app with no manager to store to,
// clipbridge copy killed with SIGKILL), never clobbering a live owner, never keeping a sensitive copy.

import ClipBridgeTestSupport
import Foundation
import Testing

@Suite("clipbridge daemon keeps the clipboard alive", .serialized, .xvfb, .timeLimit(.minutes(2)))
struct DaemonTests {
    @Test("xclip copies and is killed: the daemon serves its bytes under its target")
    func xclipKilled() async throws {
        let display = try CLI.server().display
        let daemon = try await DaemonProcess.start(display)
        let html = Data("<b>kept</b> \u{1F600}".utf8)
        let owner = try await Xclip.own(display, html, target: "text/html")
        try await daemon.waitFor("kept CLIPBOARD: 1 flavours")
        _ = await owner.kill()
        try await daemon.waitFor("restored CLIPBOARD")
        #expect(try await Xclip.paste(display, target: "text/html").stdout == html)
        #expect(try await Xclip.targets(display).first == "text/html")
        _ = await daemon.stop()
    }

    @Test("clipbridge copy with several flavours, killed with SIGKILL: every flavour back, in order, byte-exact (INCR)")
    func copyKilled() async throws {
        let display = try CLI.server().display
        let daemon = try await DaemonProcess.start(display)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("daemon-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        var image = Data(count: 3 << 20)
        for index in stride(from: 0, to: image.count, by: 4096) { image[index] = UInt8(truncatingIfNeeded: index >> 12) }
        let png = directory.appendingPathComponent("shot.png")
        let json = directory.appendingPathComponent("note.json")
        try image.write(to: png)
        try Data(#"{"title":"kept"}"#.utf8).write(to: json)
        let copy = try CLI.start(["copy", "--foreground", "--add", "image/png=\(png.path)",
                                  "--add", "application/json=\(json.path)", "--add", "text/plain=\(json.path)"],
                                 display: display)
        #expect(try await eventually { try await Xclip.targets(display).contains("application/json") })
        let before = try await Xclip.targets(display)
        try await daemon.waitFor("kept CLIPBOARD")
        _ = await copy.kill()
        try await daemon.waitFor("restored CLIPBOARD")
        let after = try await Xclip.targets(display)
        let meta: Set<String> = ["TARGETS", "MULTIPLE", "TIMESTAMP", "SAVE_TARGETS", "DELETE", "TARGET_SIZES"]
        #expect(after.filter { !meta.contains($0) } == before.filter { !meta.contains($0) })
        #expect(try await Xclip.paste(display, target: "image/png").stdout == image)
        #expect(try await Xclip.paste(display, target: "application/json").stdout == Data(#"{"title":"kept"}"#.utf8))
        #expect(try await CLI.run(["paste"], display: display).stdout == Data(#"{"title":"kept"}"#.utf8))
        _ = await daemon.stop()
    }

    @Test("a GTK 3 app that exits with no manager to store to (--no-manager): its text is still pasteable")
    func gtk3Exits() async throws {
        let display = try CLI.server().display
        let daemon = try await DaemonProcess.start(display, ["--no-manager"])
        let text = "GTK café\nline 2"
        let copier = try startPeer(
            [ToolkitPeer.python, ToolkitPeer.scriptsDirectory.appendingPathComponent("gtk3_copy.py").path, text],
            display: display)
        try await copier.waitForOutput("ready")
        try await daemon.waitFor("kept CLIPBOARD")
        copier.send(signal: SIGTERM)
        _ = try await copier.waitForExit()
        try await daemon.waitFor("restored CLIPBOARD")
        #expect(try await Xclip.paste(display, target: "UTF8_STRING").stdout == Data(text.utf8))
        #expect(try await CLI.run(["paste"], display: display).stdout == Data(text.utf8))
        _ = await daemon.stop()
    }

    @Test("a sensitive copy is never kept, and a live owner is never replaced")
    func sensitiveAndLiveOwners() async throws {
        let display = try CLI.server().display
        let daemon = try await DaemonProcess.start(display)
        let secret = try CLI.start(["copy", "--foreground", "--sensitive", "hunter2"], display: display)
        #expect(try await eventually { try await Xclip.paste(display).stdoutText == "hunter2" })
        try await daemon.waitFor("sensitive CLIPBOARD: not kept")
        _ = await secret.kill()
        try await daemon.waitFor("lost CLIPBOARD")
        let pasted = try await Xclip.paste(display)
        #expect(!pasted.succeeded && pasted.stdout.isEmpty, "\(pasted)")

        // A live owner keeps its selection: the daemon reads, never claims.
        let owner = try await Xclip.own(display, Data("live".utf8))
        try await daemon.waitFor("kept CLIPBOARD")
        #expect(try await Xclip.paste(display).stdoutText == "live")
        #expect(!owner.hasExited)
        _ = await owner.stop()
        _ = await daemon.stop()
    }

    @Test("--status says whether a daemon runs on the display and what it holds")
    func status() async throws {
        let display = try CLI.server().display
        let none = try await CLI.run(["daemon", "--status"], display: display)
        #expect(none.exitCode == 1 && none.stderrText.contains("no clipbridge daemon runs on"), "\(none)")
        let daemon = try await DaemonProcess.start(display)
        let owner = try await Xclip.own(display, Data("status".utf8))
        try await daemon.waitFor("kept CLIPBOARD")
        let kept = try await CLI.run(["daemon", "--status"], display: display)
        #expect(kept.succeeded, "\(kept)")
        #expect(kept.stdoutText.contains("the clipboard manager"), "\(kept.stdoutText)")
        #expect(kept.stdoutText.contains("CLIPBOARD: kept, 1 flavours, 6 bytes"), "\(kept.stdoutText)")
        _ = await owner.kill()
        try await daemon.waitFor("restored CLIPBOARD")
        #expect(try await CLI.run(["daemon", "--status"], display: display).stdoutText.contains("CLIPBOARD: served, 1 flavours"))
        await daemon.stop()
        #expect(try await CLI.run(["daemon", "--status"], display: display).exitCode == 1)
    }

    @Test("--status follows every change: kept, cleared (copy --clear), kept again, served, a new copy not kept")
    func statusTellsTheTruth() async throws {
        let display = try CLI.server().display
        let daemon = try await DaemonProcess.start(display)
        func status() async throws -> String { try await CLI.run(["daemon", "--status"], display: display).stdoutText }
        let first = try await Xclip.own(display, Data("one".utf8))
        try await daemon.waitFor("kept CLIPBOARD: 1 flavours, 3 bytes")
        #expect(try await status().contains("CLIPBOARD: kept, 1 flavours, 3 bytes"))
        // Cleared: the selection has no owner, and nothing of the earlier copy is held any more.
        let cleared = try await CLI.run(["copy", "--clear"], display: display)
        #expect(cleared.succeeded, "\(cleared)")
        let clearedStatus = try await eventually { try await status().contains("CLIPBOARD: nothing") }
        let afterClear = try await status()
        #expect(clearedStatus, "\(afterClear)")
        _ = await first.kill()
        let second = try await Xclip.own(display, Data("second".utf8))
        #expect(try await eventually { try await status().contains("CLIPBOARD: kept, 1 flavours, 6 bytes") })
        _ = await second.kill()
        try await daemon.waitFor("restored CLIPBOARD")
        #expect(try await eventually { try await status().contains("CLIPBOARD: served, 1 flavours, 6 bytes") })
        // A new owner whose offer cannot be kept (it never answers): the served copy is history.
        let silent = try await HostilePeer.owner(["silent"], display: display)
        let replaced = try await eventually(timeout: .seconds(20)) { try await status().contains("CLIPBOARD: nothing") }
        let afterSilent = try await status()
        #expect(replaced, "\(afterSilent)")
        await silent.stop()
        await daemon.stop()
    }

    /// An owner listing 3,000 targets of its own (distinct names; answering each after 10 ms, like a slow app)
    /// and killed after a second: the daemon used to read target after target, lose the owner at the 1,807th
    /// and keep nothing. Now it reads at most --max-flavours of them and keeps every flavour read whole before
    /// the owner went away — each served byte-exact.
    @Test("an owner with 3,000 targets killed mid-snapshot: the flavours read before are kept and served byte-exact")
    func manyTargetsOwnerKilled() async throws {
        let display = try CLI.server().display
        let daemon = try await DaemonProcess.start(display, ["--timeout", "10"])
        let owner = try await HostilePeer.owner(
            ["distinct-targets", "--count", "3000", "--answer-delay", "0.01"], display: display,
            readyTimeout: .seconds(30))
        try await Task.sleep(for: .seconds(1))
        _ = await owner.kill()
        try await daemon.waitFor("kept CLIPBOARD in part")
        try await daemon.waitFor("restored CLIPBOARD")
        let status = try await CLI.run(["daemon", "--status"], display: display).stdoutText
        #expect(status.contains("in part") && status.contains("targets not kept"), "\(status)")
        let targets = try await Xclip.targets(display).filter { $0.hasPrefix("application/x-cb-distinct-") }
        #expect(targets.count >= 5 && targets.count < 256, "\(targets.count) kept")
        for target in targets {
            let index = target.split(separator: "-").last.map(String.init) ?? "?"
            let pasted = try await Xclip.paste(display, target: target)
            #expect(pasted.stdout == Data("distinct-\(index)".utf8), "\(target): \(pasted)")
        }
        _ = await daemon.stop()
    }

    @Test("an owner with 3,000 targets: --max-flavours of them are kept, the rest named as not kept")
    func flavourCap() async throws {
        let display = try CLI.server().display
        let daemon = try await DaemonProcess.start(display, ["--max-flavours", "40"])
        let owner = try await HostilePeer.owner(["distinct-targets", "--count", "3000"], display: display,
                                                readyTimeout: .seconds(30))
        try await daemon.waitFor("kept CLIPBOARD: 40 flavours")
        let log = daemon.log
        // 2,999 content targets (UTF8_STRING, 2,997 distinct, application/x-test): 40 read, 20 of the rest named.
        #expect(log.contains("and 2939 more"), "\(log.suffix(400))")
        await owner.stop()
        _ = await daemon.stop()
        let invalid = try await CLI.run(["daemon", "--max-flavours", "0"], display: display)
        #expect(invalid.exitCode == 64 && invalid.stderrText.contains("--max-flavours"), "\(invalid)")
    }
}
