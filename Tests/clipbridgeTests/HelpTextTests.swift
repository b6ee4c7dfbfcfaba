// clipbridge tests: every command's --help reads as prose.

import ClipBridgeTestSupport
import Foundation
import Testing

@Suite("--help text")
struct HelpTextTests {
    /// The lines of a help text whose prose holds a run of three or more spaces: a multi-line string literal
    /// whose line lost its trailing `\` splices its indentation into the sentence ("As with xclip,             -t
    /// TARGETS …", issue 37). Not prose, so not checked: the EXAMPLES block (commands with aligned comments),
    /// and the column gap between an option's or a subcommand's name and its help (ArgumentParser's layout).
    static func spacedProse(in help: String) -> [String] {
        var inExamples = false
        var section = ""
        var found: [String] = []
        for line in help.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            let stripped = line.drop { $0 == " " }
            if !line.hasPrefix(" "), stripped.hasSuffix(":"), stripped.allSatisfy({ $0.isUppercase || $0 == " " || $0 == ":" }) {
                section = String(stripped)
                inExamples = false
            }
            if stripped.hasSuffix("EXAMPLES:") { inExamples = true; continue }
            if inExamples { continue }
            var prose = Substring(stripped)
            let tabular = ["OPTIONS:", "ARGUMENTS:", "SUBCOMMANDS:", "EXIT STATUS:", "USAGE:"].contains(section)
                || stripped.first == "-" || stripped.first == "<"
            if tabular, let gap = prose.firstRange(of: "  ") {
                // The name column, then the help: only the help is prose.
                prose = prose[gap.upperBound...].drop { $0 == " " }
            }
            if prose.contains("   ") { found.append(line) }
        }
        return found
    }

    @Test("the detector finds the spliced indentation of a lost line continuation, and passes tables")
    func detector() {
        let broken = """
            OVERVIEW: Write the content of a selection.

            image offered. As with xclip,             -t TARGETS prints the owner's target names
            EXAMPLES:
              clipbridge paste -o page.html            # text/html, from the extension
            OPTIONS:
              -t, --type <type>       The type to paste: MIME type, UTI, X target, or text/image/….
              --json                  With --list-types: print JSON.
            """
        #expect(Self.spacedProse(in: broken) == ["image offered. As with xclip,             -t TARGETS prints the owner's target names"])
        let optionHelpBroken = """
            OPTIONS:
              --json                  With --list-types:     print JSON.
            """
        #expect(Self.spacedProse(in: optionHelpBroken).count == 1)
    }

    @Test("no command's --help has a run of more than two spaces inside a line of prose")
    func everyCommand() async throws {
        var pending: [[String]] = [[]]
        var checked = 0
        while let command = pending.popLast() {
            let result = try await CLI.run(command + ["--help"], display: nil)
            #expect(result.succeeded, "\(command): \(result)")
            let help = result.stdoutText
            #expect(Self.spacedProse(in: help).isEmpty, "clipbridge \(command.joined(separator: " ")) --help")
            checked += 1
            // SUBCOMMANDS: lines are "  name   help" (ArgumentParser); each is checked in turn.
            if let start = help.range(of: "\nSUBCOMMANDS:\n") {
                for line in help[start.upperBound...].split(separator: "\n") {
                    guard line.hasPrefix("  "), !line.hasPrefix("   ") else {
                        if !line.hasPrefix(" ") { break } else { continue }
                    }
                    // Command names only ("  See 'clipbridge help …'" closes the list), and no deeper than a
                    // command's own subcommands.
                    let name = line.dropFirst(2).prefix { $0 != " " }
                    guard !name.isEmpty, name.allSatisfy({ $0.isLowercase || $0 == "-" }), command.count < 2 else { break }
                    if name != "help" { pending.append(command + [String(name)]) }
                }
            }
        }
        #expect(checked >= 10, "only \(checked) commands' help was read")
    }
}
