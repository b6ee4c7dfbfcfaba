import ClipBridgeTestSupport
import Foundation
import Glibc
import Testing
import X11Selection

/// `clipbridge drop --output-dir` taking an image dragged out of a web page in Chromium and in Firefox, the
/// pointer driven through XTEST. Both browsers offer such a drag through the X Direct Save protocol
/// (XdndDirectSave0, with application/octet-stream to fall back on) besides its URL: the image lands in the folder
/// under its own name, byte for byte. (Before, Firefox's drag printed the image's URL and Chromium's, which offers
/// no image type, needed --accept application/octet-stream and was saved as drop-1.bin.)
///
/// Run alone after the parallel suites (scripts/test.sh): the browsers start slowly under load.
@Suite(.xvfb, .serialized, .timeLimit(.minutes(4)))
struct BrowserDropTests {
    enum Browser: String, CaseIterable, Sendable { case chromium, firefox }

    /// A page whose picture fills the window, so a press anywhere below the browser's own bars is on it.
    private func page(in scratch: ScratchDirectory) async throws -> (URL, Data) {
        let folder = scratch.url.appendingPathComponent("site")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let picture = folder.appendingPathComponent("sunset photo.png")
        let made = try await runPeer(["/usr/bin/convert", "-size", "160x120", "gradient:orange-purple", picture.path],
                                     display: nil, timeout: .seconds(30))
        #expect(made.exitCode == 0, "\(made)")
        let html = """
            <!doctype html><html><head><title>clipbridge drop page</title></head>
            <body style="margin:0"><img src="sunset%20photo.png" style="position:fixed;left:0;top:0;width:100vw;height:100vh"></body></html>
            """
        let url = folder.appendingPathComponent("page.html")
        try Data(html.utf8).write(to: url)
        return (url, try Data(contentsOf: picture))
    }

    private func start(_ browser: Browser, page: URL, profile: URL, display: String) async throws -> (BackgroundPeer, PeerWindow) {
        let process: BackgroundPeer
        let title: String
        switch browser {
        case .chromium:
            // --no-sandbox: tests may run as root, where Chromium's sandbox refuses to start.
            process = try startPeer(
                ["chromium", "--no-sandbox", "--no-first-run", "--no-default-browser-check", "--disable-gpu",
                 "--user-data-dir=\(profile.path)", "--window-position=0,0", "--window-size=800,600", page.absoluteString],
                display: display, environment: ["HOME": profile.path])
            title = "clipbridge drop page - Chromium"
        case .firefox:
            process = try startPeer(
                ["firefox-esr", "--no-remote", "--new-instance", "--profile", profile.path, page.absoluteString],
                display: display, environment: ["HOME": profile.path, "MOZ_CRASHREPORTER_DISABLE": "1"])
            title = "clipbridge drop page — Mozilla Firefox"
        }
        let window = try await PeerWindow.find(named: title, display: display, timeout: .seconds(60))
        try await Task.sleep(for: .seconds(2))  // the page laid out and the picture loaded
        return (process, window)
    }

    @Test("an image dragged from a page lands in --output-dir under its name, byte-exact", arguments: Browser.allCases)
    func imageIntoAFolder(browser: Browser) async throws {
        let display = try CLI.server().display
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let (url, picture) = try await page(in: scratch)
        let profile = scratch.url.appendingPathComponent("profile")
        try FileManager.default.createDirectory(at: profile, withIntermediateDirectories: true)
        let downloads = scratch.url.appendingPathComponent("downloads")
        try FileManager.default.createDirectory(at: downloads, withIntermediateDirectories: true)
        let (process, window) = try await start(browser, page: url, profile: profile, display: display)
        defer { process.send(signal: SIGKILL) }

        // Mapped after the browser, the drop window is above it.
        let command = try CLI.start(["drop", "--json", "--once", "--output-dir", downloads.path, "--exit-after", "30"],
                                    display: display)
        let target = try await PeerWindow.find(named: "clipbridge drop", display: display)
        let from = (x: window.x + window.width / 2, y: window.y + window.height * 3 / 4)
        try await Pointer.run(
            ["move", "\(from.x)", "\(from.y)", "sleep", "300", "press", "sleep", "100", "glide", "\(from.x + 40)", "\(from.y - 40)",
             "glide", "\(target.center.x)", "\(target.center.y + 40)", "sleep", "200", "glide", "\(target.center.x)",
             "\(target.center.y)", "sleep", "600", "release"], display: display)
        let result = try await command.waitForExit(timeout: .seconds(40))
        #expect(result.exitCode == 0, "\(result)")
        let line = DragCommand.jsonLines(result).first
        let saved = downloads.appendingPathComponent("sunset photo.png").path
        #expect(line?["file"] as? String == saved && line?["type"] as? String == "XdndDirectSave0", "\(result.stdoutText)")
        #expect(FileManager.default.contents(atPath: saved) == picture, "\(String(describing: try? FileManager.default.contentsOfDirectory(atPath: downloads.path)))")
    }
}
