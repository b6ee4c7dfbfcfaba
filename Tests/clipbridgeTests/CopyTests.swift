// clipbridge copy: every flag, checked through xclip as an independent requestor.

import ClipBridgeTestSupport
import Foundation
import Glibc
import Synchronization
import Testing
import X11Selection

@Suite("clipbridge copy", .serialized, .xvfb, .timeLimit(.minutes(2)))
struct CopyTests {
    @Test("TEXT arguments are joined by spaces and offered as the whole text family")
    func copiesArguments() async throws {
        let display = try CLI.server().display
        let copy = try await CLI.run(["copy", "hello", "wörld"], display: display)
        #expect(copy.succeeded, "\(copy)")
        #expect(try await Xclip.paste(display).stdoutText == "hello wörld")
        let targets = try await Xclip.targets(display)
        for target in ["UTF8_STRING", "text/plain;charset=utf-8", "STRING", "TEXT", "COMPOUND_TEXT", "text/plain"] {
            #expect(targets.contains(target), "\(target) missing from \(targets)")
        }
        #expect(try await Xclip.paste(display, target: "text/plain;charset=utf-8").stdoutText == "hello wörld")
    }

    @Test("standard input is copied byte for byte when there is no TEXT")
    func copiesStandardInput() async throws {
        let display = try CLI.server().display
        let text = "line one\nline two ✓\n"
        #expect(try await CLI.run(["copy"], display: display, input: text).succeeded)
        #expect(try await Xclip.paste(display, target: "UTF8_STRING").stdoutText == text)
    }

    @Test("-t gives the type of standard input, and text content still offers the text family after it")
    func explicitType() async throws {
        let display = try CLI.server().display
        let html = "<b>bold</b> move"
        #expect(try await CLI.run(["copy", "-t", "text/html"], display: display, input: html).succeeded)
        let targets = try await Xclip.targets(display)
        #expect(targets.contentTargets.first == "text/html", "\(targets)")
        #expect(targets.offers("text/html", before: "UTF8_STRING"))
        #expect(try await Xclip.paste(display, target: "text/html").stdoutText == html)
        #expect(try await Xclip.paste(display).stdoutText == html)
    }

    @Test("-t accepts a UTI and an X target name")
    func typeSpellings() async throws {
        let display = try CLI.server().display
        #expect(try await CLI.run(["copy", "-t", "public.json"], display: display, input: "{\"a\": 1}").succeeded)
        #expect(try await Xclip.targets(display).contentTargets.first == "application/json")
        #expect(try await Xclip.paste(display, target: "application/json").stdoutText == "{\"a\": 1}")
        let binary = Data([0x00, 0xFF, 0x10, 0x00])
        #expect(try await CLI.run(["copy", "-t", "PIXMAP_DATA"], display: display, stdin: .data(binary)).succeeded)
        #expect(try await Xclip.targets(display).contentTargets == ["PIXMAP_DATA"])
        #expect(try await Xclip.paste(display, target: "PIXMAP_DATA").stdout == binary)
    }

    @Test("--file detects an image by name and content, and binary content offers no text")
    func fileDetection() async throws {
        let display = try CLI.server().display
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) + Data((0..<5000).map { UInt8($0 % 251) })
        let named = try scratch.file("shot.png", png)
        #expect(try await CLI.run(["copy", "--file", named.path], display: display).succeeded)
        var targets = try await Xclip.targets(display)
        #expect(targets.contentTargets.first == "image/png", "\(targets)")
        #expect(!targets.contains("UTF8_STRING"))
        #expect(try await Xclip.paste(display, target: "image/png").stdout == png)

        let jpeg = Data([0xFF, 0xD8, 0xFF, 0xE0]) + Data((0..<3000).map { UInt8($0 % 199) })
        let unnamed = try scratch.file("blob", jpeg)
        #expect(try await CLI.run(["copy", "--file", unnamed.path], display: display).succeeded)
        targets = try await Xclip.targets(display)
        #expect(targets.contentTargets.first == "image/jpeg", "\(targets)")
        #expect(try await Xclip.paste(display, target: "image/jpeg").stdout == jpeg)
    }

    @Test("--add offers several representations in the order given; the file may be deleted after copy")
    func addRepresentations() async throws {
        let display = try CLI.server().display
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let json = #"{"title":"Groceries","items":["eggs","milk"]}"#
        let text = "Groceries: eggs, milk"
        let jsonFile = try scratch.file("note.json", Data(json.utf8))
        let textFile = try scratch.file("note.txt", Data(text.utf8))
        let copy = try await CLI.run(["copy", "--add", "application/json=\(jsonFile.path)",
                                      "--add", "text/plain=\(textFile.path)"], display: display)
        #expect(copy.succeeded, "\(copy)")
        scratch.remove()
        let targets = try await Xclip.targets(display)
        #expect(targets.contentTargets.first == "application/json", "\(targets)")
        #expect(targets.offers("application/json", before: "UTF8_STRING"))
        #expect(try await Xclip.paste(display, target: "application/json").stdoutText == json)
        #expect(try await Xclip.paste(display).stdoutText == text)
    }

    @Test("--add offers every type under the name given (text/plain too, for any text), richest first unless --keep-order")
    func addNamedTypesRichestFirst() async throws {
        let display = try CLI.server().display
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let text = "naïve €uro ✓ 漢字"  // not Latin-1: the text family alone has no text/plain for it
        let html = "<b>rich</b>"
        let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) + Data(count: 64)
        let textFile = try scratch.file("t.txt", Data(text.utf8))
        let htmlFile = try scratch.file("t.html", Data(html.utf8))
        let pngFile = try scratch.file("t.png", png)
        // Given plain text first, then HTML, then an image: offered image, HTML, then the text.
        let copy = try await CLI.run(["copy", "--add", "text/plain=\(textFile.path)", "--add", "text/html=\(htmlFile.path)",
                                      "--add", "image/png=\(pngFile.path)"], display: display)
        #expect(copy.succeeded, "\(copy)")
        let targets = try await Xclip.targets(display)
        #expect(Array(targets.contentTargets.prefix(3)) == ["image/png", "text/html", "text/plain"], "\(targets)")
        #expect(targets.offers("text/html", before: "UTF8_STRING"))
        #expect(targets.filter { $0 == "text/plain" }.count == 1, "\(targets)")
        #expect(try await Xclip.paste(display, target: "text/plain").stdout == Data(text.utf8))
        #expect(try await Xclip.paste(display, target: "UTF8_STRING").stdout == Data(text.utf8))
        #expect(try await Xclip.paste(display, target: "text/html").stdoutText == html)
        #expect(try await Xclip.paste(display, target: "image/png").stdout == png)
        // --keep-order: as given.
        let kept = try await CLI.run(["copy", "--keep-order", "--add", "text/plain=\(textFile.path)",
                                      "--add", "text/html=\(htmlFile.path)"], display: display)
        #expect(kept.succeeded, "\(kept)")
        let given = try await Xclip.targets(display)
        #expect(given.contentTargets.first == "text/plain", "\(given)")
        #expect(given.offers("text/plain", before: "text/html"))
        // A Latin-1 text named text/plain: offered once, in Latin-1 as the family does.
        let latin = try scratch.file("l.txt", Data("café".utf8))
        let latinCopy = try await CLI.run(["copy", "--add", "text/plain=\(latin.path)"], display: display)
        #expect(latinCopy.succeeded, "\(latinCopy)")
        #expect(try await Xclip.paste(display, target: "text/plain").stdout == Data([0x63, 0x61, 0x66, 0xE9]))
        #expect(try await Xclip.targets(display).filter { $0 == "text/plain" }.count == 1)
    }

    @Test("'-' names standard input for --file and --add")
    func standardInputPaths() async throws {
        let display = try CLI.server().display
        let viaFile = try await CLI.run(["copy", "--file", "-", "-t", "text/html"], display: display, input: "<s>a</s>")
        #expect(viaFile.succeeded, "\(viaFile)")
        #expect(try await Xclip.paste(display, target: "text/html").stdoutText == "<s>a</s>")
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let text = try scratch.file("t.txt", Data("plain".utf8))
        let viaAdd = try await CLI.run(["copy", "--add", "text/html=-", "--add", "text/plain=\(text.path)"],
                                       display: display, input: "<b>rich</b>")
        #expect(viaAdd.succeeded, "\(viaAdd)")
        #expect(try await Xclip.targets(display).contentTargets.first == "text/html")
        #expect(try await Xclip.paste(display, target: "text/html").stdoutText == "<b>rich</b>")
        #expect(try await Xclip.paste(display).stdoutText == "plain")
    }

    @Test("--files copies files as a file manager does; --cut marks them cut")
    func files() async throws {
        let display = try CLI.server().display
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let a = try scratch.file("a report.pdf", Data("%PDF-1.4".utf8))
        let b = try scratch.file("b.png", Data([0x89, 0x50]))
        #expect(try await CLI.run(["copy", "--files", a.path, b.path], display: display).succeeded)
        let targets = try await Xclip.targets(display)
        #expect(targets.contains("text/uri-list") && targets.contains("x-special/gnome-copied-files"), "\(targets)")
        let uris = try await Xclip.paste(display, target: "text/uri-list").stdoutText
        #expect(uris.contains("file://") && uris.contains("a%20report.pdf") && uris.contains("\r\n"), "\(uris)")
        let gnome = try await Xclip.paste(display, target: "x-special/gnome-copied-files").stdoutText
        #expect(gnome.hasPrefix("copy\n"), "\(gnome)")
        #expect(try await Xclip.paste(display).stdoutText.contains(b.path))

        #expect(try await CLI.run(["copy", "--files", a.path, "--cut"], display: display).succeeded)
        let cut = try await Xclip.paste(display, target: "x-special/gnome-copied-files").stdoutText
        #expect(cut.hasPrefix("cut\n"), "\(cut)")
        #expect(try await Xclip.targets(display).contains("application/x-kde-cutselection"))
    }

    @Test("--sensitive offers x-kde-passwordManagerHint = secret")
    func sensitive() async throws {
        let display = try CLI.server().display
        #expect(try await CLI.run(["copy", "--sensitive", "hunter2"], display: display).succeeded)
        #expect(try await Xclip.targets(display).contains("x-kde-passwordManagerHint"))
        #expect(try await Xclip.paste(display, target: "x-kde-passwordManagerHint").stdoutText == "secret")
        #expect(try await Xclip.paste(display).stdoutText == "hunter2")
    }

    @Test("--selection primary|secondary and -p choose the selection")
    func selections() async throws {
        let display = try CLI.server().display
        #expect(try await CLI.run(["copy", "on clipboard"], display: display).succeeded)
        #expect(try await CLI.run(["copy", "-p", "on primary"], display: display).succeeded)
        #expect(try await CLI.run(["copy", "--selection", "secondary", "on secondary"], display: display).succeeded)
        #expect(try await Xclip.paste(display, selection: "primary").stdoutText == "on primary")
        #expect(try await Xclip.paste(display, selection: "secondary").stdoutText == "on secondary")
        #expect(try await Xclip.paste(display).stdoutText == "on clipboard")
        let bad = try await CLI.run(["copy", "--selection", "nonsense", "x"], display: display)
        #expect(bad.exitCode == 64)
    }

    @Test("--paste-once serves one paste (TARGETS probes do not count), then releases")
    func pasteOnce() async throws {
        let display = try CLI.server().display
        #expect(try await CLI.run(["copy", "--paste-once", "only once"], display: display).succeeded)
        for _ in 0..<3 { #expect(try await Xclip.targets(display).contains("UTF8_STRING")) }
        #expect(try await Xclip.paste(display).stdoutText == "only once")
        #expect(try await eventually { try await CLI.run(["paste"], display: display).exitCode == 1 })
    }

    @Test("--loops 2 serves two pastes from different requestors, then releases")
    func loops() async throws {
        let display = try CLI.server().display
        #expect(try await CLI.run(["copy", "--loops", "2", "twice"], display: display).succeeded)
        #expect(try await Xclip.paste(display).stdoutText == "twice")
        try await Task.sleep(for: .seconds(1))  // past the grace window: the next paste is a new one
        #expect(try await Xclip.targets(display).contains("UTF8_STRING"), "released after one paste")
        #expect(try await Xclip.paste(display).stdoutText == "twice")
        #expect(try await eventually { try await CLI.run(["paste"], display: display).exitCode == 1 })
    }

    @Test("--paste-once tolerates a requestor that fetches the same target twice in a row")
    func graceWindow() async throws {
        let display = try CLI.server().display
        #expect(try await CLI.run(["copy", "--paste-once", "asked twice"], display: display).succeeded)
        let connection = try await X11Connection.open(display: display)
        let first = try await connection.read(.clipboard, target: .utf8String)
        let second = try await connection.read(.clipboard, target: .utf8String)
        await connection.shutdown()
        #expect(String(decoding: first.bytes, as: UTF8.self) == "asked twice")
        #expect(String(decoding: second.bytes, as: UTF8.self) == "asked twice")
        #expect(try await eventually { try await CLI.run(["paste"], display: display).exitCode == 1 })
    }

    @Test("--paste-once: an incremental paste begun within the grace window still completes")
    func graceWindowTransferFinishes() async throws {
        let display = try CLI.server().display
        // Above Xvfb's 16 MiB BIG-REQUESTS limit, so both pastes are incremental.
        let size = 24 << 20
        let input = String(repeating: "y", count: size)
        #expect(try await CLI.run(["copy", "--paste-once"], display: display, input: input).succeeded)
        var configuration = Configuration()
        configuration.incrementalIdleTimeout = .seconds(2)
        let first = try await X11Connection.open(display: display, configuration: configuration)
        let second = try await X11Connection.open(display: display, configuration: configuration)
        #expect(try await first.read(.clipboard, target: .utf8String).bytes.count == size)
        // A slow second requestor: its transfer outlasts the grace window by far.
        let slowed = Mutex(false)
        let summary = try await second.read(.clipboard, target: .utf8String) { _ in
            guard !slowed.withLock({ $0 }) else { return }
            slowed.withLock { $0 = true }
            try await Task.sleep(for: .seconds(1))
        }
        await first.shutdown()
        await second.shutdown()
        #expect(summary.byteCount == size)
        #expect(try await eventually { try await CLI.run(["paste"], display: display).exitCode == 1 })
    }

    @Test("--foreground serves until SIGTERM, then releases cleanly")
    func foregroundSignal() async throws {
        let display = try CLI.server().display
        let server = try CLI.start(["copy", "--foreground", "in the foreground"], display: display)
        #expect(try await eventually { try await Xclip.paste(display).stdoutText == "in the foreground" })
        let ended = await server.stop()
        #expect(ended.termination == .exited(0), "\(ended)")
        #expect(ended.stderrText.contains("SIGTERM"))
        let after = try await CLI.run(["paste"], display: display)
        #expect(after.exitCode == 1)
        #expect(after.stderrText.contains("nothing is copied"))
    }

    @Test("--foreground still stops on SIGTERM when started with SIGTERM and SIGINT blocked")
    func inheritedBlockedMask() async throws {
        let display = try CLI.server().display
        // exec keeps the signal mask: the CLI has to unblock what it handles itself.
        let blocking = "import os, signal, sys; signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGTERM, signal.SIGINT}); "
            + "os.execv(sys.argv[1], sys.argv[1:])"
        let server = try startPeer(["/usr/bin/python3", "-c", blocking, CLI.binary, "copy", "--foreground", "masked"],
                                   display: display)
        #expect(try await eventually { try await Xclip.paste(display).stdoutText == "masked" })
        let blocked = procStatus(server.pid, "SigBlk").flatMap { UInt64($0, radix: 16) } ?? 1
        #expect(blocked & (1 << UInt64(SIGTERM - 1)) == 0, "SIGTERM still blocked")
        let ended = await server.stop(grace: .seconds(5))
        #expect(ended.termination == .exited(0), "\(ended)")
        #expect(try await CLI.run(["paste"], display: display).exitCode == 1)
    }

    @Test("--foreground ends by itself when another client copies")
    func foregroundLoss() async throws {
        let display = try CLI.server().display
        let server = try CLI.start(["copy", "--foreground", "until replaced"], display: display)
        #expect(try await eventually { try await Xclip.paste(display).stdoutText == "until replaced" })
        _ = try await runPeer(["xclip", "-selection", "clipboard", "-i"], display: display, stdin: Data("new".utf8))
        let ended = try await server.waitForExit(timeout: .seconds(10))
        #expect(ended.termination == .exited(0))
        #expect(try await Xclip.paste(display).stdoutText == "new")
    }

    @Test("--clear releases the selection whoever owns it, and the detached server exits")
    func clear() async throws {
        let display = try CLI.server().display
        #expect(try await CLI.run(["copy", "to be cleared"], display: display).succeeded)
        #expect(try await newestDetachedServer(display: display) != nil)
        #expect(try await CLI.run(["copy", "--clear"], display: display).succeeded)
        let paste = try await CLI.run(["paste"], display: display)
        #expect(paste.exitCode == 1 && paste.stderrText.contains("nothing is copied"), "\(paste)")
        #expect(try await eventually { detachedServers(display: display).isEmpty })
    }

    @Test("an unreachable display fails with its own status and names the display")
    func unreachableDisplay() async throws {
        let named = try await CLI.run(["copy", "--display", ":4999", "x"], display: nil)
        #expect(named.exitCode == 4, "\(named)")
        #expect(named.stderrText.contains(":4999"))
        // With no display and no terminal (a terminal would take the text as OSC 52): setsid leaves it without one.
        let unset = try await runPeer(["setsid", "-w", CLI.binary, "copy", "x"], display: nil)
        #expect(unset.exitCode == 4, "\(unset)")
        #expect(unset.stderrText.contains("DISPLAY"))
    }

    @Test("usage errors exit 64")
    func usage() async throws {
        let display = try CLI.server().display
        #expect(try await CLI.run(["copy", "--cut", "x"], display: display).exitCode == 64)
        #expect(try await CLI.run(["copy", "--loops", "0", "x"], display: display).exitCode == 64)
        #expect(try await CLI.run(["copy", "--add", "nonsense", "x"], display: display).exitCode == 64)
    }
}
