// Type detection never hides text (bugaevc/wl-clipboard#289, #266; PEM files in orbit-online/clipboard-wrapper).

import ClipBridgeTestSupport
import Foundation
import Testing

@Suite("clipbridge copy detection", .serialized, .xvfb, .timeLimit(.minutes(2)))
struct DetectionTests {
    static let php = "<?php\necho \"hello\";\n?>\n"
    static let pem = "-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7\n-----END PRIVATE KEY-----\n"
    static let mm = "MM is not a TIFF, and this is plain text.\n"

    @Test("a file that reads as text offers text/plain and UTF8_STRING, whatever its name says",
          arguments: [("script.php", php), ("key.pem", pem), ("notes", mm), ("notes.tiff", mm), ("x.sh", "#!/bin/sh\necho hi\n")])
    func fileOffersText(name: String, content: String) async throws {
        let display = try CLI.server().display
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let file = try scratch.file(name, Data(content.utf8))
        let copy = try await CLI.run(["copy", "--file", file.path], display: display)
        #expect(copy.succeeded, "\(copy)")
        let targets = try await Xclip.targets(display)
        #expect(targets.contains("text/plain") && targets.contains("UTF8_STRING"), "\(name): \(targets)")
        #expect(try await Xclip.paste(display).stdoutText == content)
        #expect(try await Xclip.paste(display, target: "text/plain").stdoutText == content)
    }

    @Test("the specific type is offered first when the name gives one (PHP source)")
    func specificTypeFirst() async throws {
        let display = try CLI.server().display
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let file = try scratch.file("script.php", Data(Self.php.utf8))
        #expect(try await CLI.run(["copy", "--file", file.path], display: display).succeeded)
        let targets = try await Xclip.targets(display).contentTargets
        let first = try #require(targets.first)
        #expect(first.contains("php"), "\(targets)")
        #expect(targets.offers(first, before: "UTF8_STRING"))
    }

    @Test("standard input that reads as text offers text, even when it starts like a binary format",
          arguments: [php, pem, mm, "%PDF-1.7 is how a PDF starts\n"])
    func stdinOffersText(content: String) async throws {
        let display = try CLI.server().display
        #expect(try await CLI.run(["copy"], display: display, input: content).succeeded)
        let targets = try await Xclip.targets(display)
        #expect(targets.contains("text/plain") && targets.contains("UTF8_STRING"), "\(targets)")
        #expect(try await Xclip.paste(display).stdoutText == content)
    }

    @Test("-t on text keeps the text family too")
    func explicitTypeKeepsText() async throws {
        let display = try CLI.server().display
        #expect(try await CLI.run(["copy", "-t", "application/x-php"], display: display, input: Self.php).succeeded)
        let targets = try await Xclip.targets(display).contentTargets
        #expect(targets.first == "application/x-php")
        #expect(targets.contains("text/plain") && targets.contains("UTF8_STRING"))
    }
}
