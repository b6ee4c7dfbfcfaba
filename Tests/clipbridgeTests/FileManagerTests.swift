// clipbridge daemon under a real file manager: pcmanfm (libfm 1.3) driven through XTEST as a user would — select
// all, Ctrl+X / Ctrl+C in one window, Ctrl+V in another. libfm clears a cut the moment anyone reads
// x-special/gnome-copied-files (src/gtk/fm-clipboard.c, get_data), so a manager that read every flavour as soon
// as the copy happened completed the "move" itself, and the user's paste found nothing.

import ClipBridgeTestSupport
import Foundation
import Glibc
import Testing
import X11Selection

@Suite("clipbridge daemon under pcmanfm: cut, copy and quit", .serialized, .xvfb, .timeLimit(.minutes(3)))
struct FileManagerTests {
    /// One pcmanfm process (later windows join it) with a private home, on folders of its own.
    struct FileManager {
        let process: BackgroundPeer
        let home: URL

        static func start(_ folder: URL, display: String, home: URL) throws -> FileManager {
            let process = try startPeer(["pcmanfm", "--new-win", folder.path], display: display, environment: [
                "HOME": home.path, "XDG_CONFIG_HOME": home.appendingPathComponent(".config").path,
                "XDG_RUNTIME_DIR": home.path, "XDG_CACHE_HOME": home.appendingPathComponent(".cache").path,
            ])
            return FileManager(process: process, home: home)
        }

        /// Opens `folder` in a new window of the running instance and returns the window once it is mapped.
        func open(_ folder: URL, display: String) async throws -> PeerWindow {
            _ = try await runPeer(["pcmanfm", "--new-win", folder.path], display: display, environment: [
                "HOME": home.path, "XDG_CONFIG_HOME": home.appendingPathComponent(".config").path,
                "XDG_RUNTIME_DIR": home.path, "XDG_CACHE_HOME": home.appendingPathComponent(".cache").path,
            ], timeout: .seconds(20))
            return try await window(folder, display: display)
        }

        /// The window showing `folder` (pcmanfm titles it with the folder's name), with time to list it.
        func window(_ folder: URL, display: String) async throws -> PeerWindow {
            let window = try await PeerWindow.find(named: folder.lastPathComponent, display: display, timeout: .seconds(20))
            try await Task.sleep(for: .milliseconds(700))
            return window
        }

        /// Select all, then Ctrl+`key`, in `window`.
        func shortcut(_ key: String, in window: PeerWindow, display: String) async throws {
            try await Pointer.run(["focus", "\(window.id.rawValue)", "sleep", "200",
                                   "keydown", "Control_L", "key", "a", "sleep", "200", "key", key, "keyup", "Control_L",
                                   "sleep", "100"], display: display)
        }
    }

    private func folders(_ scratch: ScratchDirectory, _ names: String...) throws -> [URL] {
        try names.map { name in
            let folder = scratch.url.appendingPathComponent("\(name)-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
            try Foundation.FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            return folder
        }
    }

    private func contents(_ folder: URL) -> [String] {
        ((try? Foundation.FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted()
    }

    @Test("a cut in one window and a paste in another move the file exactly once with the daemon running")
    func cutAndPaste() async throws {
        let display = try CLI.server().display
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let folders = try folders(scratch, "source", "destination", "home")
        let payload = Data("moved once \u{1F4C1}\n".utf8)
        try payload.write(to: folders[0].appendingPathComponent("report.txt"))
        let daemon = try await DaemonProcess.start(display)
        let manager = try FileManager.start(folders[0], display: display, home: folders[2])
        defer { manager.process.send(signal: SIGKILL) }
        let source = try await manager.window(folders[0], display: display)
        let destination = try await manager.open(folders[1], display: display)

        try await manager.shortcut("x", in: source, display: display)
        try await daemon.waitFor("kept CLIPBOARD", timeout: .seconds(15))
        // What the daemon read did not end the cut: the owner still offers it.
        #expect(try await Xclip.targets(display).contains("x-special/gnome-copied-files"))
        #expect(daemon.log.contains("not kept: x-special/gnome-copied-files"), "\(daemon.log)")

        try await manager.shortcut("v", in: destination, display: display)
        let moved = try await eventually(timeout: .seconds(15)) { contents(folders[1]) == ["report.txt"] }
        #expect(moved, "destination: \(contents(folders[1])), source: \(contents(folders[0]))")
        #expect(contents(folders[0]).isEmpty, "\(contents(folders[0]))")
        #expect(try Data(contentsOf: folders[1].appendingPathComponent("report.txt")) == payload)
        // libfm clears the clipboard after the move; the daemon restores nothing of a cut.
        try await Task.sleep(for: .milliseconds(500))
        #expect(!daemon.log.contains("restored CLIPBOARD"), "\(daemon.log)")
        _ = await daemon.stop()
    }

    @Test("a copy outlives pcmanfm: the daemon serves its uri-list and a gnome-copied-files 'copy' list; a cut does not")
    func copyAndCutOutliveTheFileManager() async throws {
        let display = try CLI.server().display
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let folders = try folders(scratch, "copied", "cut", "home")
        try Data("copy me".utf8).write(to: folders[0].appendingPathComponent("a.txt"))
        try Data("cut me".utf8).write(to: folders[1].appendingPathComponent("b.txt"))
        let daemon = try await DaemonProcess.start(display)

        // A copy, then pcmanfm quits: restored, and a file manager's paste still finds the file list.
        let manager = try FileManager.start(folders[0], display: display, home: folders[2])
        let copied = try await manager.window(folders[0], display: display)
        try await manager.shortcut("c", in: copied, display: display)
        try await daemon.waitFor("kept CLIPBOARD", timeout: .seconds(15))
        let uris = try await Xclip.paste(display, target: "text/uri-list").stdout
        manager.process.send(signal: SIGTERM)
        _ = try await manager.process.waitForExit()
        try await daemon.waitFor("restored CLIPBOARD")
        let fileURI = folders[0].appendingPathComponent("a.txt").absoluteURL.absoluteString
        #expect(try await Xclip.paste(display, target: "text/uri-list").stdout == uris)
        let gnome = try await Xclip.paste(display, target: "x-special/gnome-copied-files").stdoutText
        #expect(gnome == "copy\n" + fileURI, "\(gnome)")
        #expect(try await Xclip.targets(display).offers("text/uri-list", before: "x-special/gnome-copied-files"))

        // A cut, then pcmanfm quits before any paste: a manager must not serve a move on its own.
        let second = try FileManager.start(folders[1], display: display, home: folders[2])
        let cut = try await second.window(folders[1], display: display)
        try await second.shortcut("x", in: cut, display: display)
        try await daemon.waitFor("kept CLIPBOARD", count: 2, timeout: .seconds(15))
        second.process.send(signal: SIGTERM)
        _ = try await second.process.waitForExit()
        try await daemon.waitFor("not restored CLIPBOARD")
        #expect(try await Xclip.paste(display, target: "TARGETS").exitCode != 0)
        #expect(contents(folders[1]) == ["b.txt"])
        let status = try await CLI.run(["daemon", "--status"], display: display).stdoutText
        #expect(status.contains("CLIPBOARD: nothing"), "\(status)")
        _ = await daemon.stop()
    }
}
