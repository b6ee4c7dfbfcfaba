// clipbridge history: the daemon records every flavour of every copy — from xclip, GTK 4, Qt 5 and raw X clients —
// in SQLite and blob files; `history` lists, searches, shows and restores them byte-exact after the apps quit and the
// daemon restarts; secrets (x-kde-passwordManagerHint, any value) never reach the disk; ignore rules by application
// and by text; a SIGKILL mid-capture loses nothing recorded before; a full disk drops the copy, not the clipboard.

import ClipBridgeTestSupport
import Foundation
import Glibc
import Testing

/// A history in a directory of the test's own.
struct TestHistory {
    let directory: URL

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("history-\(UUID())")
    }

    var option: [String] { ["--history-directory", directory.path] }
    var cliOption: [String] { ["--directory", directory.path] }

    func run(_ arguments: [String], display: String? = nil, environment: [String: String] = [:]) async throws
        -> CommandResult
    {
        try await CLI.run(["history"] + arguments + cliOption, display: display, environment: environment)
    }

    /// The entries, newest first, as `history --json` prints them.
    func entries(environment: [String: String] = [:]) async throws -> [[String: Any]] {
        let result = try await run(["list", "--json"], environment: environment)
        #expect(result.succeeded, "history --json: \(result.stderrText)")
        return try result.stdoutText.split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
    }

    /// Every byte of every file under the history's directory.
    func allBytes() throws -> Data {
        var bytes = Data()
        let walker = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil)
        while let url = walker?.nextObject() as? URL {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), !isDirectory.boolValue {
                bytes += (try? Data(contentsOf: url)) ?? Data()
            }
        }
        return bytes
    }

    func remove() { try? FileManager.default.removeItem(at: directory) }
}


@Suite("clipbridge history records every copy", .serialized, .xvfb, .timeLimit(.minutes(4)))
struct HistoryTests {
    @Test("copies from xclip, GTK 4, Qt 5 and a raw X client are recorded; after the apps quit and the daemon restarts each is restored byte-exact, in its TARGETS order")
    func recordsAndRestores() async throws {
        let display = try CLI.server().display
        let history = try TestHistory()
        defer { history.remove() }
        var daemon = try await DaemonProcess.start(display, history.option)
        var png = Data([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]) + Data("IHDR".utf8)
        png += Data([0, 0, 0x02, 0x80, 0, 0, 0x01, 0xe0]) + Data((0..<300_000).map { UInt8(truncatingIfNeeded: $0 * 7) })
        let todo = Data(#"{"title":"buy milk","done":false}"#.utf8)
        let copies: [(name: String, start: () async throws -> BackgroundPeer)] = [
            ("xclip", { try await Xclip.own(display, Data("plain from xclip: naïve café ✓".utf8)) }),
            ("GTK 4", {
                try await ToolkitPeer(.gtk4, display: display).own(
                    text: "GTK text", representations: [("text/html", Data("<b>GTK</b> html".utf8))])
            }),
            ("Qt 5", {
                try await ToolkitPeer(.qt5, display: display).own(
                    representations: [("image/png", png), ("application/x-example-todo", todo)])
            }),
            ("python-xlib", { try await HostilePeer.owner(["plain", "--text", "raw client text"], display: display) }),
        ]
        var recorded: [(targets: [String], bytes: [String: Data])] = []
        for (index, copy) in copies.enumerated() {
            let owner = try await copy.start()
            try await daemon.waitFor("history: entry", count: index + 1, timeout: .seconds(20))
            // What the owner itself serves: every target's bytes, read by xclip while it lives.
            let targets = try await Xclip.targets(display).filter { !metaTargets.contains($0) }
            var bytes: [String: Data] = [:]
            for target in targets { bytes[target] = try await Xclip.paste(display, target: target).stdout }
            recorded.append((targets, bytes))
            _ = await owner.stop()
        }
        _ = await daemon.stop()
        daemon = try await DaemonProcess.start(display, history.option)
        let entries = try await history.entries()
        #expect(entries.count == copies.count)
        // Newest first; each entry's targets are the owner's, in its order.
        for (entry, copy) in zip(entries.reversed(), recorded) {
            #expect(entry["targets"] as? [String] == copy.targets, "\(entry)")
        }
        #expect(entries.map { $0["summary"] as? String } == [
            "raw client text", "[image 640×480 PNG 300.0 KB]", "GTK text", "plain from xclip: naïve café ✓",
        ])
        for (index, (entry, copy)) in zip(entries.reversed(), recorded).enumerated() {
            let id = try #require(entry["id"] as? Int)
            let restored = try await history.run(["restore", "\(id)"], display: display)
            #expect(restored.succeeded, "restore \(id): \(restored.stderrText)")
            // The daemon keeps the restored copy as any other: the same content, so the same entry, moved up.
            try await daemon.waitFor("copied again", count: index + 1, timeout: .seconds(20))
            #expect(try await Xclip.targets(display).filter { !metaTargets.contains($0) } == copy.targets)
            for target in copy.targets {
                #expect(try await Xclip.paste(display, target: target).stdout == copy.bytes[target], "\(target) of \(id)")
            }
        }
        // Restored content read by the toolkits themselves: the last restored is the raw client's text.
        #expect(try await ToolkitPeer(.gtk4, display: display).readText() == "raw client text")
        let gtkID = try #require(entries[2]["id"] as? Int)
        #expect(try await history.run(["restore", "\(gtkID)"], display: display).succeeded)
        #expect(try await ToolkitPeer(.qt5, display: display).read(mimeType: "text/html") == Data("<b>GTK</b> html".utf8))
        #expect(try await ToolkitPeer(.gtk4, display: display).readText() == "GTK text")
        // Restoring moved entries to the top instead of adding new ones: the last restored is on top.
        try await daemon.waitFor("copied again", count: copies.count + 1, timeout: .seconds(20))
        #expect(try await history.entries().first?["id"] as? Int == gtkID)
        #expect(try await history.entries().count == copies.count)
        // show: the text as paste writes it, a flavour by type, the flavours listed.
        let qtID = try #require(entries[1]["id"] as? Int)
        #expect(try await history.run(["show", "\(qtID)", "-t", "image/png"]).stdout == png)
        #expect(try await history.run(["show", "\(qtID)", "-t", "application/x-example-todo"]).stdout == todo)
        #expect(try await history.run(["show", "\(qtID)"]).exitCode == 1)
        #expect(try await history.run(["show", "\(gtkID)", "-t", "text/html"]).stdout == Data("<b>GTK</b> html".utf8))
        #expect(try await history.run(["search", "naïve"]).stdoutText.hasPrefix("\(entries[3]["id"] as? Int ?? -1)\t"))
        #expect(try await history.run(["check"]).succeeded)
        _ = await daemon.stop()
    }

    @Test("a GTK 3 app that copies and quits (handing its copy to the daemon) and a Qt 5 file list: recorded, then restored byte-exact")
    func gtk3AndFiles() async throws {
        let display = try CLI.server().display
        let history = try TestHistory()
        defer { history.remove() }
        let daemon = try await DaemonProcess.start(display, history.option)
        // What each owner itself serves, read by xclip while it lives: targets in order, bytes of each.
        func served() async throws -> (targets: [String], bytes: [String: Data]) {
            let targets = try await Xclip.targets(display).filter { !metaTargets.contains($0) }
            var bytes: [String: Data] = [:]
            for target in targets { bytes[target] = try await Xclip.paste(display, target: target).stdout }
            return (targets, bytes)
        }
        let gtk3 = try startPeer([ToolkitPeer.python, ToolkitPeer.script("gtk3_copy.py"), "GTK 3 text: ünïcode ✓"], display: display)
        try await gtk3.waitForOutput("ready")
        try await daemon.waitFor("history: entry 1")
        let fromGTK3 = try await served()
        gtk3.send(signal: SIGTERM)
        try await gtk3.waitForOutput("stored", timeout: .seconds(20))
        try await daemon.waitFor("saved CLIPBOARD")
        let list = Data("file:///tmp/a.txt\r\nfile:///tmp/b%20c.png\r\n".utf8)
        let qt = try await ToolkitPeer(.qt5, display: display).own(
            representations: [("text/uri-list", list), ("text/plain", Data("/tmp/a.txt\n/tmp/b c.png".utf8))])
        try await daemon.waitFor("history: entry 2")
        let fromQt = try await served()
        _ = await qt.stop()
        let entries = try await history.entries()
        #expect(entries.map { $0["summary"] as? String } == ["[2 files: a.txt, b c.png]", "GTK 3 text: ünïcode ✓"])
        for (entry, copy) in zip(entries, [fromQt, fromGTK3]) {
            #expect(entry["targets"] as? [String] == copy.targets)
            let id = try #require(entry["id"] as? Int)
            #expect(try await history.run(["restore", "\(id)"], display: display).succeeded)
            #expect(try await Xclip.targets(display).filter { !metaTargets.contains($0) } == copy.targets)
            for target in copy.targets {
                #expect(try await Xclip.paste(display, target: target).stdout == copy.bytes[target], "\(target) of \(id)")
            }
        }
        #expect(try await ToolkitPeer(.gtk4, display: display).readText() == "GTK 3 text: ünïcode ✓")
        _ = await daemon.stop()
    }

    @Test("a copy carrying x-kde-passwordManagerHint, whatever its value, never reaches the history's files", arguments: ["secret", "1", ""])
    func secretsNeverWritten(hint: String) async throws {
        let display = try CLI.server().display
        let history = try TestHistory()
        defer { history.remove() }
        let daemon = try await DaemonProcess.start(display, history.option)
        let before = try await HostilePeer.owner(["plain", "--text", "an ordinary copy"], display: display)
        try await daemon.waitFor("history: entry 1")
        _ = await before.stop()
        let secret = "pw-\(UUID().uuidString)"
        let owner = try await HostilePeer.owner(["hinted", "--text", secret, "--hint-value", hint], display: display)
        try await daemon.waitFor("sensitive CLIPBOARD")
        // A GTK 4 app marking its copy the same way.
        let gtkSecret = "gtk-\(UUID().uuidString)"
        let gtk = try await ToolkitPeer(.gtk4, display: display).own(
            text: gtkSecret, representations: [("x-kde-passwordManagerHint", Data("secret".utf8))])
        try await daemon.waitFor("sensitive CLIPBOARD", count: 2)
        _ = await owner.stop()
        _ = await gtk.stop()
        let after = try await HostilePeer.owner(["plain", "--text", "after the secrets"], display: display)
        try await daemon.waitFor("history: entry 2")
        _ = await after.stop()
        _ = await daemon.stop()
        let bytes = try history.allBytes()
        #expect(!bytes.isEmpty)
        #expect(bytes.range(of: Data(secret.utf8)) == nil)
        #expect(bytes.range(of: Data(gtkSecret.utf8)) == nil)
        #expect(bytes.range(of: Data("after the secrets".utf8)) != nil)
        #expect(try await history.entries().count == 2)
    }

    @Test("ignore rules: an application by WM_CLASS (a GTK 4 app's, or a raw client's other window), text by pattern; a cut; pause and resume")
    func ignoreRules() async throws {
        let display = try CLI.server().display
        let history = try TestHistory()
        defer { history.remove() }
        let daemon = try await DaemonProcess.start(
            display, history.option + ["--history-ignore-app", "keepassxc", "--history-ignore-app", "Secretkeeper",
                                       "--history-ignore-text", "^sk-[A-Za-z0-9]{20,}$", "--log-level", "debug"])
        // GDK 4 names the client's leader window after the program: WM_CLASS secretkeeper/secretkeeper (seen with
        // Debian's GTK 4.8; the rule's case does not matter).
        let gtk = try await ToolkitPeer(.gtk4, display: display).own(text: "from the ignored GTK app", programName: "secretkeeper")
        try await daemon.waitFor("copies of Secretkeeper are ignored")
        _ = await gtk.stop()
        // The owner's own window has no WM_CLASS; another top-level window of the same client names it.
        let raw = try await HostilePeer.owner(["plain", "--text", "from KeePassXC", "--class-window", "KeePassXC"], display: display)
        try await daemon.waitFor("copies of keepassxc are ignored")
        _ = await raw.stop()
        let key = try await Xclip.own(display, Data("sk-abcdefghijklmnopqrstuvwxyz".utf8))
        try await daemon.waitFor("matches the ignore pattern")
        _ = await key.kill()
        // A file manager's cut (clipbridge's own --cut, as PCManFM and Dolphin mark one): the keeper keeps it on the
        // display, the history never records it — pasting it again from there would move files that moved already.
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let moved = try scratch.file("moved-by-a-cut.txt", Data("to be moved".utf8))
        #expect(try await CLI.run(["copy", "--files", moved.path, "--cut"], display: display).succeeded)
        try await daemon.waitFor("a cut is not recorded")
        #expect(try await history.run(["pause"]).succeeded)
        let paused = try await Xclip.own(display, Data("while paused".utf8))
        try await daemon.waitFor("recording is paused")
        _ = await paused.kill()
        #expect(try await history.run(["resume"]).succeeded)
        let kept = try await ToolkitPeer(.gtk4, display: display).own(text: "from an ordinary GTK app", programName: "gedit")
        try await daemon.waitFor("history: entry 1")
        _ = await kept.stop()
        _ = await daemon.stop()
        let entries = try await history.entries()
        #expect(entries.map { $0["summary"] as? String } == ["from an ordinary GTK app"])
        #expect(entries.first?["application"] as? String == "gedit")
        let bytes = try history.allBytes()
        for text in ["from the ignored GTK app", "from KeePassXC", "sk-abcdefghijklmnopqrstuvwxyz", "moved-by-a-cut", "while paused"] {
            #expect(bytes.range(of: Data(text.utf8)) == nil, "\(text) was written")
        }
    }

    @Test("SIGKILL while a 50 MiB copy is being recorded: every earlier entry intact, the database sound, leftovers collected", arguments: [0, 40, 150])
    func killedMidCapture(delayMilliseconds: Int) async throws {
        let display = try CLI.server().display
        let history = try TestHistory()
        defer { history.remove() }
        // The owner writes its 50 MiB into one property from Python, which on a loaded CI machine took longer than the
        // daemon's default 5 s read deadline (the flavour was then omitted, "not kept: UTF8_STRING"): this test is about
        // the kill, so the read gets time.
        var daemon = try await DaemonProcess.start(display, history.option + ["--timeout", "60"])
        for index in 0..<3 {
            let owner = try await Xclip.own(display, Data("entry \(index) before the crash".utf8))
            try await daemon.waitFor("history: entry \(index + 1)")
            _ = await owner.kill()
        }
        let big = try await HostilePeer.owner(["big-single", "--size", "\(50 << 20)", "--exit-after", "180"], display: display)
        try await daemon.waitFor("kept CLIPBOARD: 1 flavours, \(50 << 20) bytes", timeout: .seconds(120))
        try await Task.sleep(for: .milliseconds(delayMilliseconds))
        daemon.peer.send(signal: SIGKILL)
        _ = try await daemon.peer.waitForExit()
        _ = await big.stop()
        // Whatever the moment: the earlier entries are there, byte-exact, and the files are sound.
        let entries = try await history.entries()
        #expect(entries.count == 3 || entries.count == 4)
        let texts = entries.compactMap { $0["summary"] as? String }.filter { $0.hasSuffix("before the crash") }
        #expect(texts == ["entry 2 before the crash", "entry 1 before the crash", "entry 0 before the crash"])
        let check = try await history.run(["check"])
        #expect(check.succeeded, "\(check.stderrText)")
        // The next start collects what the killed writer left; the history is still sound and complete.
        daemon = try await DaemonProcess.start(display, history.option)
        _ = await daemon.stop()
        #expect(try await history.run(["check"]).succeeded)
        let incoming = (try? FileManager.default.contentsOfDirectory(atPath: history.directory.appendingPathComponent("blobs").path)) ?? []
        #expect(!incoming.contains { $0.hasPrefix("incoming.") }, "\(incoming)")
        #expect(try await history.entries().count == entries.count)
    }

    @Test("a full disk drops the copy with a clear log line; the clipboard is still served and the history still readable")
    func fullDisk() async throws {
        let display = try CLI.server().display
        let mountPoint = FileManager.default.temporaryDirectory.appendingPathComponent("history-tmpfs-\(UUID())")
        try FileManager.default.createDirectory(at: mountPoint, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: mountPoint) }
        // A small filesystem of its own (root, as CI runs; the mount is undone below).
        let mounted = try await runPeer(["mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs", mountPoint.path], display: nil)
        try #require(mounted.succeeded, "cannot mount a tmpfs: \(mounted.stderrText)")
        defer { _ = Glibc.umount2(mountPoint.path, Int32(MNT_DETACH)) }
        let directory = mountPoint.appendingPathComponent("history").path
        let daemon = try await DaemonProcess.start(display, ["--history-directory", directory])
        let small = try await Xclip.own(display, Data("fits on the disk".utf8))
        try await daemon.waitFor("history: entry 1")
        _ = await small.kill()
        let large = Data((0..<(3 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 13) })
        let owner = try await Xclip.own(display, large, target: "application/octet-stream")
        try await daemon.waitFor("disk is full", timeout: .seconds(20))
        _ = await owner.kill()
        // The clipboard is still kept and served by the daemon.
        try await daemon.waitFor("restored CLIPBOARD")
        #expect(try await Xclip.paste(display, target: "application/octet-stream").stdout == large)
        let listed = try await CLI.run(["history", "--directory", directory, "--json"], display: nil)
        #expect(listed.succeeded)
        #expect(listed.stdoutText.contains("fits on the disk"))
        #expect(try await CLI.run(["history", "check", "--directory", directory], display: nil).succeeded)
        _ = await daemon.stop()
    }

    @Test("pick: the entries go to the picker (a command, fzf, rofi with image icons) and its choice is restored")
    func pick() async throws {
        let display = try CLI.server().display
        let history = try TestHistory()
        defer { history.remove() }
        let daemon = try await DaemonProcess.start(display, history.option)
        var png = Data([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]) + Data("IHDR".utf8)
        png += Data([0, 0, 0, 16, 0, 0, 0, 16]) + Data(count: 40_000)
        let copies: [(Data, String?)] = [(Data("word alpha".utf8), nil), (png, "image/png"), (Data("word charlie".utf8), nil)]
        for (index, (bytes, target)) in copies.enumerated() {
            let owner = try await Xclip.own(display, bytes, target: target)
            try await daemon.waitFor("history: entry", count: index + 1)
            _ = await owner.kill()
        }
        // Any command: it gets one line per entry and prints the chosen one.
        let printed = try await history.run(["pick", "--print", "--picker", "grep -m1 alpha"], display: display)
        #expect(printed.stdoutText == "1\n", "\(printed.stderrText)")
        #expect(try await history.run(["pick", "--picker", "grep -m1 charlie"], display: display).succeeded)
        #expect(try await Xclip.paste(display).stdoutText == "word charlie")
        // Nothing chosen (Escape): status 1, the clipboard untouched.
        #expect(try await history.run(["pick", "--picker", "true"], display: display).exitCode == 1)
        // fzf, filtering as a person would type.
        let fzf = try await history.run(
            ["pick", "--print", "--picker", "fzf --filter alpha --delimiter '\t' --with-nth 3.."], display: display)
        #expect(fzf.stdoutText == "1\n", "\(fzf.stderrText)")
        // rofi on the display, with the image's file as its icon: the filter keeps the image, Return (XTest) picks it.
        let rofi = try CLI.start(["history", "pick", "--print", "--picker", "rofi -dmenu -show-icons -filter 'image 16'"]
            + history.cliOption, display: display)
        let window = try await runPeer(["xdotool", "search", "--sync", "--class", "rofi"], display: display, timeout: .seconds(15))
        #expect(window.succeeded, "no rofi window: \(window.stderrText)")
        #expect(try await runPeer(["xdotool", "key", "Return"], display: display).succeeded)
        let chosen = try await rofi.waitForExit(timeout: .seconds(15))
        #expect(chosen.stdoutText == "2\n", "\(chosen.stderrText)")
        _ = await daemon.stop()
    }

    @Test("show converts as paste does when the entry has no such flavour: a PNG as JPEG, HTML as text")
    func showConverts() async throws {
        let display = try CLI.server().display
        let history = try TestHistory()
        defer { history.remove() }
        let daemon = try await DaemonProcess.start(display, history.option)
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("history-convert-\(UUID())")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        let pngPath = work.appendingPathComponent("in.png").path
        let made = try await runPeer(["/usr/bin/convert", "-size", "64x48", "gradient:red-blue", pngPath], display: nil)
        try #require(made.succeeded, "\(made.stderrText)")
        let png = try Data(contentsOf: URL(fileURLWithPath: pngPath))
        let image = try await Xclip.own(display, png, target: "image/png")
        try await daemon.waitFor("history: entry 1")
        _ = await image.kill()
        let html = try await Xclip.own(display, Data("<p>Hello <b>world</b></p>".utf8), target: "text/html")
        try await daemon.waitFor("history: entry 2")
        _ = await html.kill()
        _ = await daemon.stop()
        // A JPEG made from the PNG: ImageMagick reads it back at the same size.
        let jpeg = try await history.run(["show", "1", "-t", "image/jpeg"])
        #expect(jpeg.succeeded, "\(jpeg.stderrText)")
        #expect(jpeg.stdout.prefix(3) == Data([0xff, 0xd8, 0xff]))
        let jpegPath = work.appendingPathComponent("out.jpg")
        try jpeg.stdout.write(to: jpegPath)
        #expect(try await runPeer(["/usr/bin/identify", "-format", "%m %wx%h", jpegPath.path], display: nil).stdoutText == "JPEG 64x48")
        // The exact flavour is still given as it was kept.
        #expect(try await history.run(["show", "1", "-t", "image/png"]).stdout == png)
        // No text flavour: the text is made from the HTML, as a paste of text would.
        let text = try await history.run(["show", "2"])
        #expect(text.succeeded, "\(text.stderrText)")
        #expect(text.stdoutText.contains("Hello world"), "\(text.stdoutText)")
        // Nothing converts to a custom type.
        #expect(try await history.run(["show", "2", "-t", "application/x-nothing-makes-this"]).exitCode == 1)
    }

    @Test("history, search, show, delete, pin and clear work without a daemon, with clear errors")
    func withoutDaemon() async throws {
        let display = try CLI.server().display
        let history = try TestHistory()
        defer { history.remove() }
        let daemon = try await DaemonProcess.start(display, history.option + ["--history-entries", "3"])
        for word in ["alpha", "bravo", "charlie", "delta"] {
            let owner = try await Xclip.own(display, Data("word \(word)".utf8))
            try await daemon.waitFor("history: entry", count: ["alpha", "bravo", "charlie", "delta"].firstIndex(of: word)! + 1)
            _ = await owner.kill()
        }
        _ = await daemon.stop()
        // Three kept: the oldest went.
        #expect(try await history.entries().compactMap { $0["summary"] as? String } == ["word delta", "word charlie", "word bravo"])
        let ids = try await history.entries().compactMap { $0["id"] as? Int }
        #expect(try await history.run(["pin", "\(ids[2])"]).succeeded)
        #expect(try await history.run(["pin", "999"]).exitCode == 1)
        #expect(try await history.run(["show", "999"]).exitCode == 1)
        #expect(try await history.run(["search", "zulu"]).exitCode == 1)
        #expect(try await history.run(["delete", "\(ids[0])"]).succeeded)
        #expect(try await history.run(["clear"]).succeeded)
        #expect(try await history.entries().compactMap { $0["summary"] as? String } == ["word bravo"])
        #expect(try await history.run(["list", "-t", "image"]).stdoutText.isEmpty)
        #expect(try await history.run(["list", "-t", "text"]).stdoutText.contains("word bravo"))
        let unknown = try await CLI.run(["history", "restore", "abc"] + history.cliOption, display: display)
        #expect(unknown.exitCode == 64)
    }
}
