// clipbridge paste: the type ladder, --list-types, --output, newlines, timeouts and exit statuses.

import ClipBridgeTestSupport
import Foundation
import Glibc
import Testing

@Suite("clipbridge paste", .serialized, .xvfb, .timeLimit(.minutes(2)))
struct PasteTests {
    @Test("pastes the exact text xclip owns, with no newline added on a pipe")
    func pastesXclipText() async throws {
        let display = try CLI.server().display
        let owner = try await Xclip.own(display, Data("from xclip ✓".utf8))
        let paste = try await CLI.run(["paste"], display: display)
        #expect(paste.succeeded, "\(paste)")
        #expect(paste.stdoutText == "from xclip ✓")
        await owner.stop()
    }

    @Test("-t is conformance-aware: image and public.image pick the richest image, a MIME type its exact target")
    func typeConformance() async throws {
        let display = try CLI.server().display
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 1, 2, 3])
        let jpeg = Data([0xFF, 0xD8, 0xFF, 0xE0, 4, 5, 6])
        let copy = try await CLI.run(["copy", "--add", "image/png=\(try scratch.file("a.png", png).path)",
                                      "--add", "image/jpeg=\(try scratch.file("b.jpg", jpeg).path)"], display: display)
        #expect(copy.succeeded, "\(copy)")
        #expect(try await CLI.run(["paste", "-t", "image"], display: display).stdout == png)
        #expect(try await CLI.run(["paste", "-t", "public.image"], display: display).stdout == png)
        #expect(try await CLI.run(["paste", "-t", "image/jpeg"], display: display).stdout == jpeg)
        #expect(try await CLI.run(["paste", "-t", "public.jpeg"], display: display).stdout == jpeg)
        // No text offered: plain `paste` writes the richest type instead.
        #expect(try await CLI.run(["paste"], display: display).stdout == png)
    }

    @Test("paste -t image/png on a PDF-only owner exits 1 and lists what is offered")
    func missingType() async throws {
        let display = try CLI.server().display
        let owner = try await Xclip.own(display, Data("%PDF-1.4\n".utf8), target: "application/pdf")
        let paste = try await CLI.run(["paste", "-t", "image/png"], display: display)
        await owner.stop()
        #expect(paste.exitCode == 1, "\(paste)")
        #expect(paste.stdout.isEmpty)
        #expect(paste.stderrText.contains("available types"))
        #expect(paste.stderrText.contains("application/pdf"))
    }

    @Test("no owner exits 1 with \"nothing is copied\"")
    func noOwner() async throws {
        let display = try CLI.server().display
        #expect(try await CLI.run(["copy", "--clear"], display: display).succeeded)
        let paste = try await CLI.run(["paste"], display: display)
        #expect(paste.exitCode == 1)
        #expect(paste.stderrText.contains("nothing is copied"))
        let list = try await CLI.run(["paste", "--list-types"], display: display)
        #expect(list.exitCode == 1)
    }

    @Test("--list-types prints the targets with their UTType, richest first; --json too")
    func listTypes() async throws {
        let display = try CLI.server().display
        #expect(try await CLI.run(["copy", "-t", "text/html"], display: display, input: "<i>x</i>").succeeded)
        let list = try await CLI.run(["paste", "--list-types"], display: display)
        #expect(list.succeeded, "\(list)")
        let lines = list.stdoutText.split(separator: "\n")
        #expect(lines.first?.hasPrefix("text/html") == true, "\(list.stdoutText)")
        #expect(lines.first?.contains("public.html") == true)
        #expect(lines.contains { $0.hasPrefix("UTF8_STRING") && $0.contains("public.utf8-plain-text") })
        #expect(!lines.contains { $0.hasPrefix("TARGETS") })

        let json = try await CLI.run(["paste", "--list-types", "--json"], display: display)
        struct Entry: Decodable { var target: String; var type: String; var converted: Bool }
        let entries = try JSONDecoder().decode([Entry].self, from: json.stdout)
        #expect(entries.first?.target == "text/html")
        #expect(entries.first?.type == "public.html")
        #expect(entries.contains { $0.target == "UTF8_STRING" && !$0.converted })
    }

    @Test("--output infers the type from the extension, never from the file's old content")
    func outputFile() async throws {
        let display = try CLI.server().display
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let html = "<p>page</p>"
        let text = "page"
        #expect(try await CLI.run(["copy", "--add", "text/html=\(try scratch.file("in.html", Data(html.utf8)).path)",
                                   "--add", "text/plain=\(try scratch.file("in.txt", Data(text.utf8)).path)"],
                                  display: display).succeeded)
        let htmlOut = scratch.url.appendingPathComponent("out.html")
        #expect(try await CLI.run(["paste", "-o", htmlOut.path], display: display).succeeded)
        #expect(try String(contentsOf: htmlOut, encoding: .utf8) == html)
        // An existing .txt file full of PNG bytes: the extension decides, and the file is replaced.
        let textOut = try scratch.file("out.txt", Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
        #expect(try await CLI.run(["paste", "--output", textOut.path], display: display).succeeded)
        #expect(try String(contentsOf: textOut, encoding: .utf8) == text)
        // A failed paste leaves the existing file alone.
        let failed = try await CLI.run(["paste", "-t", "image/png", "-o", textOut.path], display: display)
        #expect(failed.exitCode == 1)
        #expect(try String(contentsOf: textOut, encoding: .utf8) == text)
    }

    @Test("on a terminal a newline follows text that lacks one, unless --no-newline")
    func newline() async throws {
        let display = try CLI.server().display
        #expect(try await CLI.run(["copy", "no newline"], display: display).succeeded)
        // Debian's python3 gives the command a pseudo-terminal as stdout.
        let pty = ["/usr/bin/python3", "-c", "import pty, sys; sys.exit(pty.spawn(sys.argv[1:]) >> 8)", CLI.binary]
        let plain = try await runPeer(pty + ["paste"], display: display)
        #expect(plain.stdoutText == "no newline\r\n", "\(plain)")
        let bare = try await runPeer(pty + ["paste", "--no-newline"], display: display)
        #expect(bare.stdoutText == "no newline", "\(bare)")
        let short = try await runPeer(pty + ["paste", "-n"], display: display)
        #expect(short.stdoutText == "no newline")
    }

    @Test("--timeout: an owner that never answers fails with status 3 in about that time")
    func timeout() async throws {
        let (paste, elapsed) = try await runAgainstFrozenOwner(
            ["paste", "--timeout", "1"], display: try CLI.server().display)
        #expect(paste.exitCode == 3, "\(paste)")
        #expect(paste.stderrText.contains("timed out"))
        #expect(elapsed < .seconds(5))
    }

    @Test("an unreachable display has its own status, and the message names DISPLAY")
    func unreachableDisplay() async throws {
        let named = try await CLI.run(["paste", "--display", ":4998"], display: nil)
        #expect(named.exitCode == 4)
        #expect(named.stderrText.contains(":4998"))
        let environment = try await CLI.run(["paste"], display: ":4997")
        #expect(environment.exitCode == 4)
        #expect(environment.stderrText.contains("DISPLAY"))
        #expect(environment.stderrText.contains(":4997"))
    }

    @Test("-p and --selection read the other selections")
    func selections() async throws {
        let display = try CLI.server().display
        let owner = try await Xclip.own(display, Data("primary text".utf8), selection: "primary")
        #expect(try await CLI.run(["paste", "-p"], display: display).stdoutText == "primary text")
        #expect(try await CLI.run(["paste", "--selection", "primary"], display: display).stdoutText == "primary text")
        await owner.stop()
        let secondary = try await Xclip.own(display, Data("secondary text".utf8), selection: "secondary")
        #expect(try await CLI.run(["paste", "-s", "secondary"], display: display).stdoutText == "secondary text")
        await secondary.stop()
    }
}

/// `paste -o FILE` makes the file as any program does, under the caller's umask.
@Suite("clipbridge paste -o: the file's mode", .serialized, .xvfb, .timeLimit(.minutes(2)))
struct PasteFileModeTests {
    @Test("a pasted file has mode 0666 less the caller's umask", arguments: [0o022, 0o077, 0o002])
    func modeFollowsTheUmask(mask: Int) async throws {
        let display = try CLI.server().display
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let owner = try await Xclip.own(display, Data("mode".utf8))
        defer { Task { _ = await owner.stop() } }
        let file = scratch.url.appendingPathComponent("pasted-\(mask).txt")
        let script = "umask \(String(mask, radix: 8)); exec '\(CLI.binary)' paste -o '\(file.path)'"
        let pasted = try await runPeer(["/bin/sh", "-c", script], display: display)
        #expect(pasted.succeeded, "\(pasted)")
        var info = stat()
        #expect(stat(file.path, &info) == 0)
        #expect(Int(info.st_mode & 0o777) == 0o666 & ~mask, "\(String(info.st_mode & 0o777, radix: 8))")
    }
}

/// `paste -t NAME` (issue 38): a target the owner offers by that exact name comes out as the owner wrote it, as xclip
/// gives it — never re-encoded to UTF-8; only a generic name (`text`, a UTI) or one the owner does not offer is
/// converted.
@Suite("clipbridge paste -t gives the owner's bytes", .serialized, .xvfb, .timeLimit(.minutes(3)))
struct PasteVerbatimTests {
    /// The encodings owners write, each under the name real programs use.
    static let encoded: [(target: String, bytes: [UInt8])] = [
        ("STRING", [0x63, 0x61, 0x66, 0xE9]),  // ISO-8859-1
        ("TEXT", [0x6E, 0x61, 0xEF, 0x76, 0x65]),  // as xsel answers TEXT with STRING
        ("COMPOUND_TEXT", [0x63, 0x61, 0x66, 0x1B, 0x2D, 0x41, 0xE9]),  // an ISO 2022 switch, as Emacs writes it
        ("text/plain;charset=ISO-8859-1", [0x67, 0x72, 0xF6, 0xDF, 0x65]),
        ("text/plain;charset=windows-1252", [0x80, 0x20, 0x35]),
        ("text/plain;charset=unicode", [0xFF, 0xFE, 0x4A, 0x00, 0xE9, 0x00]),  // Java: UTF-16 with a BOM
        ("text/x-moz-url", [0x68, 0x00, 0x3A, 0x00, 0x2F, 0x00, 0x0A, 0x00, 0x74, 0x00]),  // Dolphin, Firefox: UTF-16LE
        ("text/plain;charset=UTF-16", [0xFE, 0xFF, 0x00, 0x41, 0x00, 0xE9]),
        ("UTF8_STRING", Array("plain ✓".utf8)),
    ]

    @Test("each encoded target, named exactly: the owner's bytes on stdout and in -o FILE, equal to xclip's")
    func exactNamesGiveTheOwnersBytes() async throws {
        let display = try CLI.server().display
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        for entry in Self.encoded {
            let owner = try await Xclip.own(display, Data(entry.bytes), target: entry.target)
            let pasted = try await CLI.run(["paste", "-t", entry.target], display: display)
            #expect(pasted.succeeded, "\(entry.target): \(pasted)")
            #expect(pasted.stdout == Data(entry.bytes), "\(entry.target): \(Array(pasted.stdout))")
            let xclip = try await Xclip.paste(display, target: entry.target)
            #expect(pasted.stdout == xclip.stdout, "\(entry.target): xclip gave \(Array(xclip.stdout))")
            let file = scratch.url.appendingPathComponent("out-\(entry.target.count)")
            let written = try await CLI.run(["paste", "-t", entry.target, "-o", file.path], display: display)
            #expect(written.succeeded, "\(entry.target): \(written)")
            #expect(try Data(contentsOf: file) == Data(entry.bytes), "\(entry.target) -o")
            _ = await owner.stop()
        }
    }

    @Test("a generic name converts: -t text and -t public.plain-text give UTF-8 from a Latin-1 owner")
    func genericNamesConvert() async throws {
        let display = try CLI.server().display
        let owner = try await Xclip.own(display, Data([0x63, 0x61, 0x66, 0xE9]), target: "STRING")
        defer { Task { _ = await owner.stop() } }
        for name in ["text", "public.plain-text", "public.utf8-plain-text"] {
            let pasted = try await CLI.run(["paste", "-t", name], display: display)
            #expect(pasted.stdout == Data("café".utf8), "\(name): \(Array(pasted.stdout))")
        }
        // Not offered under the name asked: converted to it.
        let utf8 = try await CLI.run(["paste", "-t", "text/plain;charset=utf-8"], display: display)
        #expect(utf8.stdout == Data("café".utf8), "\(utf8)")
    }

    @Test("GTK 4 and Qt 5 as owners: every content target they offer, pasted by its name, is byte for byte xclip's",
          arguments: [ToolkitPeer.Toolkit.gtk4, .qt5])
    func toolkitsMatchXclip(_ toolkit: ToolkitPeer.Toolkit) async throws {
        let display = try CLI.server().display
        let owner = try await ToolkitPeer(toolkit, display: display).own(
            text: "café ✓ naïve", representations: [("text/html", Data("<i>café</i>".utf8))])
        defer { Task { _ = await owner.stop() } }
        let targets = try await Xclip.targets(display).contentTargets
        #expect(targets.contains("STRING") || targets.contains("TEXT"), "\(targets)")
        for target in targets {
            let xclip = try await Xclip.paste(display, target: target)
            guard xclip.succeeded else { continue }  // a target the owner lists and refuses
            let pasted = try await CLI.run(["paste", "-t", target], display: display)
            #expect(pasted.stdout == xclip.stdout, "\(toolkit) \(target): \(Array(pasted.stdout.prefix(40))) vs \(Array(xclip.stdout.prefix(40)))")
        }
    }

    /// A file copied in Dolphin (KDE Frameworks 5 over Qt 5's clipboard): the URL lists KIO puts in its QMimeData —
    /// `text/uri-list`, `application/x-kde4-urilist`, Mozilla's UTF-16 `text/x-moz-url`, GNOME's copied-files list,
    /// the cut flag — and the path as text, made the way Dolphin's own Qt makes them (a Qt 5 peer owning the same
    /// MIME data; Dolphin itself is not installed here). Each target, pasted by its name, is xclip's bytes.
    @Test("a Qt 5 owner of a file copy as Dolphin makes it: every target pasted by its name is byte for byte xclip's")
    func aDolphinFileCopyMatchesXclip() async throws {
        let display = try CLI.server().display
        let uri = "file:///home/me/Caf%C3%A9%20notes.txt"
        let owner = try await ToolkitPeer(.qt5, display: display).own(
            text: "/home/me/Café notes.txt",
            representations: [
                ("text/uri-list", Data("\(uri)\r\n".utf8)),
                ("application/x-kde4-urilist", Data("\(uri)\r\n".utf8)),
                ("text/x-moz-url", Data("\(uri)\nCafé notes.txt".utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] })),
                ("x-special/gnome-copied-files", Data("copy\n\(uri)".utf8)),
                ("application/x-kde-cutselection", Data("0".utf8)),
            ])
        defer { Task { _ = await owner.stop() } }
        let targets = try await Xclip.targets(display).contentTargets
        #expect(targets.contains("text/x-moz-url") && targets.contains("text/uri-list"), "\(targets)")
        var compared = 0
        for target in targets {
            let xclip = try await Xclip.paste(display, target: target)
            guard xclip.succeeded else { continue }
            compared += 1
            let pasted = try await CLI.run(["paste", "-t", target], display: display)
            #expect(pasted.stdout == xclip.stdout, "\(target): \(Array(pasted.stdout.prefix(40))) vs \(Array(xclip.stdout.prefix(40)))")
        }
        #expect(compared >= 8, "\(targets)")
    }

    /// Java's AWT and Emacs write their own encodings under their own names (Java's `text/plain;charset=unicode`,
    /// UTF-16 with a byte-order mark, and ten more charsets; Emacs's COMPOUND_TEXT, and ICCCM's LENGTH as an
    /// INTEGER, which xclip prints as a decimal number): each, pasted by its name, is what xclip gets; and `text`
    /// still converts to UTF-8. (DELETE, a side effect — Emacs gives up the selection — is never asked.)
    @Test("Java 17 and Emacs 28 as owners: every target they offer, pasted by its name, is byte for byte xclip's",
          arguments: TextOwnerApplication.allCases)
    func applicationsMatchXclip(_ application: TextOwnerApplication) async throws {
        let display = try CLI.server().display
        let text = "café ✓ naïve"
        let owner = try await application.own(text, display: display)
        defer { Task { _ = await owner.stop() } }
        let targets = try await Xclip.targets(display).contentTargets
        let own = application == .java ? "text/plain;charset=unicode" : "COMPOUND_TEXT"
        #expect(targets.contains("UTF8_STRING") && targets.contains(own), "\(application): \(targets)")
        var compared = 0
        for target in targets {
            let xclip = try await Xclip.paste(display, target: target)
            guard xclip.succeeded else { continue }  // a target the owner lists and refuses
            compared += 1
            let pasted = try await CLI.run(["paste", "-t", target], display: display)
            #expect(pasted.stdout == xclip.stdout, "\(application) \(target): \(Array(pasted.stdout.prefix(40))) vs \(Array(xclip.stdout.prefix(40)))")
        }
        #expect(compared >= 4, "\(application): \(targets)")
        #expect(try await CLI.run(["paste", "-t", "text"], display: display).stdoutText == text)
    }
}
