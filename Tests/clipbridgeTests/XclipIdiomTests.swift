// clipbridge paste -t TARGETS / TIMESTAMP: the xclip idioms scripts rely on, and xsel's quirks.

import ClipBridgeTestSupport
import Foundation
import Testing

@Suite("xclip idioms and xsel's answers", .serialized, .xvfb, .timeLimit(.minutes(2)))
struct XclipIdiomTests {
    @Test("paste -t TARGETS prints what xclip -o -t TARGETS prints, in the owner's order")
    func targets() async throws {
        let display = try CLI.server().display
        for owner in [["copy", "-t", "text/html"], ["copy"]] {
            #expect(try await CLI.run(owner, display: display, input: "<b>x</b>").succeeded)
            let ours = try await CLI.run(["paste", "-t", "TARGETS"], display: display)
            let xclip = try await Xclip.paste(display, target: "TARGETS")
            #expect(ours.succeeded, "\(ours)")
            #expect(ours.stdoutText == xclip.stdoutText && ours.stdoutText.hasPrefix("text/"), "\(ours.stdoutText)")
        }
        // A third-party owner too (xclip lists TARGETS first).
        let peer = try await Xclip.own(display, Data("from xclip".utf8))
        let ours = try await CLI.run(["paste", "-t", "TARGETS"], display: display)
        #expect(ours.stdoutText == (try await Xclip.paste(display, target: "TARGETS")).stdoutText)
        #expect(ours.stdoutText.hasPrefix("TARGETS\n"), "\(ours.stdoutText)")
        await peer.stop()
    }

    @Test("paste -t TIMESTAMP prints the owner's claim time as a number")
    func timestamp() async throws {
        let display = try CLI.server().display
        #expect(try await CLI.run(["copy", "stamped"], display: display).succeeded)
        let result = try await CLI.run(["paste", "-t", "TIMESTAMP"], display: display)
        #expect(result.succeeded, "\(result)")
        let number = UInt32(result.stdoutText.trimmingCharacters(in: .newlines))
        #expect(number != nil && number! > 0, "\(result.stdoutText)")
    }

    /// xsel 1.2 lists TEXT first, answers TEXT with UTF-8 bytes typed STRING, and above about 4 KB answers it
    /// with an INCR notify whose *target* is STRING: the quick paste ignored that notify (exit 3 after 5 s).
    /// In a non-UTF-8 locale it offers only TEXT and STRING, still holding the UTF-8 bytes it was given.
    @Test("xsel's text, short and over 4 KB, non-ASCII, in a UTF-8 locale and in C: byte-exact through both readers",
          arguments: [10, 3000], ["C.UTF-8", "C"])
    func xselText(repeats: Int, locale: String) async throws {
        let display = try CLI.server().display
        let text = String(repeating: "é€ line\n", count: repeats)
        let peer = try startPeer(["xsel", "-b", "-n", "-i"], display: display, stdin: Data(text.utf8),
                                 environment: ["LC_ALL": locale])
        #expect(try await eventually {
            try await Xclip.paste(display, target: "TARGETS").stdoutText.contains("STRING")
        })
        for arguments in [["paste"], ["paste", "-t", "text"], ["paste", "-t", "TEXT"], ["paste", "-t", "STRING"]] {
            let result = try await CLI.run(arguments, display: display)
            #expect(result.succeeded, "\(arguments): \(result)")
            #expect(result.stdout == Data(text.utf8), "\(arguments): \(result.stdout.count) bytes")
            #expect(result.duration < .seconds(2), "\(arguments): \(result.duration)")
        }
        _ = await peer.stop()
    }
}
