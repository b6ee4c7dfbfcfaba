// clipbridge type, --help and shell completions: no X server needed.

import ClipBridgeTestSupport
import Foundation
import Testing

/// `type --json` output.
private struct TypeInfo: Decodable {
    var identifier: String
    var conformsTo: [String]
    var mimeTypes: [String]
    var filenameExtensions: [String]
    var xTargets: [String]
}

@Suite("clipbridge type and help")
struct TypeCommandTests {
    private func info(_ name: String) async throws -> TypeInfo {
        let result = try await CLI.run(["type", name, "--json"], display: nil)
        #expect(result.succeeded, "\(result)")
        return try JSONDecoder().decode(TypeInfo.self, from: result.stdout)
    }

    @Test("names only the machine's shared-mime-info database knows are found (it is read on demand)")
    func sharedMIMEInfoNames() async throws {
        // Debian's shared-mime-info declares OpenDocument text; the built-in table does not.
        let byExtension = try await info(".odt")
        #expect(byExtension.mimeTypes.contains("application/vnd.oasis.opendocument.text"), "\(byExtension)")
        #expect(byExtension.conformsTo.contains("public.zip-archive"), "\(byExtension.conformsTo)")
        let byMIME = try await info("application/vnd.oasis.opendocument.text")
        #expect(byMIME.identifier == byExtension.identifier)
        #expect(byMIME.filenameExtensions.contains("odt"))
    }

    @Test("a MIME type: identifier, conformance chain, MIME types, extensions and X targets")
    func mimeType() async throws {
        let png = try await info("image/png")
        #expect(png.identifier == "public.png")
        #expect(png.conformsTo.contains("public.image") && png.conformsTo.contains("public.data"))
        #expect(png.conformsTo.firstIndex(of: "public.image")! < png.conformsTo.firstIndex(of: "public.data")!)
        #expect(png.mimeTypes.contains("image/png"))
        #expect(png.filenameExtensions.contains("png"))
        #expect(png.xTargets.contains("image/png"))
    }

    @Test("a UTI, an extension (with or without the dot) and an X target resolve")
    func spellings() async throws {
        #expect(try await info("public.html").mimeTypes.contains("text/html"))
        #expect(try await info(".jpg").identifier == "public.jpeg")
        #expect(try await info("jpg").identifier == "public.jpeg")
        let utf8 = try await info("UTF8_STRING")
        #expect(utf8.identifier == "public.utf8-plain-text")
        #expect(utf8.xTargets.contains("UTF8_STRING"))
        let php = try await info(".php")
        #expect(php.conformsTo.contains("public.plain-text"), "\(php.conformsTo)")
    }

    @Test("human output has one labelled line per fact")
    func human() async throws {
        let result = try await CLI.run(["type", "text/html"], display: nil)
        #expect(result.succeeded)
        for label in ["identifier", "conforms to", "MIME types", "extensions", "X targets"] {
            #expect(result.stdoutText.contains(label))
        }
        #expect(result.stdoutText.contains("public.html"))
    }

    @Test("a name that means nothing is a usage error")
    func unknown() async throws {
        let result = try await CLI.run(["type", "not a type!"], display: nil)
        #expect(result.exitCode == 64, "\(result)")
    }

    @Test("--help lists the subcommands, examples and the exit-status table")
    func help() async throws {
        let root = try await CLI.run(["--help"], display: nil)
        #expect(root.succeeded)
        for needle in ["copy", "paste", "watch", "type", "EXAMPLES", "EXIT STATUS", "generate-completion-script"] {
            #expect(root.stdoutText.contains(needle), "\(needle)")
        }
        #expect(!root.stdoutText.contains("serve-detached"))
        for code in ["0 ", "1 ", "2 ", "3 ", "4 ", "5 ", "6 ", "64"] {
            #expect(root.stdoutText.contains("  \(code)"), "exit status \(code)")
        }
        for command in ["copy", "paste", "watch", "type"] {
            let help = try await CLI.run([command, "--help"], display: nil)
            #expect(help.succeeded && help.stdoutText.contains("EXAMPLES") && help.stdoutText.contains("--display"),
                    "\(command)")
        }
    }

    @Test("shell completion scripts are generated for bash, zsh and fish")
    func completions() async throws {
        for shell in ["bash", "zsh", "fish"] {
            let script = try await CLI.run(["--generate-completion-script", shell], display: nil)
            #expect(script.succeeded && script.stdoutText.contains("clipbridge") && script.stdoutText.contains("paste"))
        }
    }
}
