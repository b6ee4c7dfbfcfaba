// One check whatever the source, the layering of the sources, and --check-config's output read back.

import ClipBridge
import ClipBridgeOptions
import Logging
import Testing

@Suite("The daemon's settings from every source")
struct SettingsSourcesTests {
    @Test("a command-line argument is checked as the file's value is", arguments: [
        ("validate", "   ", "the command is empty"),
        ("strip-parameter", "a&b", "expected a query parameter name (without = or &), found 'a&b'"),
        ("timeout", "0", "0.0 is not a positive number of seconds"),
        ("timeout", "inf", "inf is not a positive number of seconds"),
        ("timeout", "soon", "expected seconds, found 'soon'"),
        ("validate-timeout", "-1", "-1.0 is not a positive number of seconds"),
        ("max-size", "0", "0 MiB is not a size between 1 and 1048576"),
        ("max-size", "1.5", "expected a size in MiB, found '1.5'"),
        ("sync", "sideways", "expected primary-to-clipboard, clipboard-to-primary or both, found 'sideways'"),
        ("keep-type", "no-such-type", "found 'no-such-type'"),
    ])
    func argumentChecks(key: String, argument: String, message: String) throws {
        let problem = argumentProblem(key, argument)
        #expect(problem == message || (problem?.hasSuffix(message) ?? false), "\(problem ?? "accepted")")
    }

    /// The problem `argument` has as the option of `key`, or nil when accepted.
    func argumentProblem(_ key: String, _ argument: String) -> String? {
        func check<Element, Value>(_ setting: DaemonSetting<Element, Value>) -> String? {
            do {
                _ = try setting.element.value(ofArgument: argument)
                return nil
            } catch {
                return error.message
            }
        }
        switch key {
        case "validate": return check(DaemonSettings.validate)
        case "strip-parameter": return check(DaemonSettings.stripParameter)
        case "timeout": return check(DaemonSettings.timeout)
        case "validate-timeout": return check(DaemonSettings.validateTimeout)
        case "max-size": return check(DaemonSettings.maxSize)
        case "sync": return check(DaemonSettings.sync)
        case "keep-type": return check(DaemonSettings.keepType)
        default: return "no such key"
        }
    }

    @Test("defaults, then the file, then the command line")
    func layering() throws {
        let file = try SettingsFile.layer(fromYAML: "max-size: 64\nrule: [widen]\nlog-level: notice\nreplace: true\n", path: "f")
        var commandLine = SettingsLayer()
        commandLine.set(DaemonSettings.maxSize, to: [32])
        commandLine.set(DaemonSettings.selection, to: [.primary, .clipboard])
        let result = commandLine.applied(to: file.applied(to: DaemonSettings()))
        #expect(result.maxSize == 32)
        #expect(result.rule == [.widen])
        #expect(result.logLevel == .notice)
        #expect(result.replace)
        #expect(result.selection == [.primary, .clipboard])
        #expect(result.maxFlavourSize == 256)
        #expect(result.timeout == Seconds(5))
    }

    @Test("the table names every field once, and each key once")
    func table() {
        let keys = DaemonSettings.all.map(\.key)
        #expect(Set(keys).count == keys.count)
        #expect(keys.count == 23)
        #expect(DaemonSettings.historyEntries.helpText == "The most entries the history keeps; the oldest unpinned go first (default: 1000).")
        #expect(DaemonSettings.maxSize.helpText == "The most kept of one copy, in MiB (default: 512).")
        #expect(DaemonSettings.selection.helpText.hasSuffix("Repeatable (default: clipboard)."))
        #expect(DaemonSettings.keepType.helpText.hasSuffix("(default: every type)."))
        #expect(DaemonSettings.replace.helpText == "Take over from a running clipboard manager (ICCCM manager selection).")
    }

    @Test("--check-config's output, read back as a file, gives the same settings")
    func roundTrip() throws {
        #expect(try settings(DaemonSettings().yamlLines.joined(separator: "\n")) == DaemonSettings())
        var odd = DaemonSettings()
        odd.selection = [.secondary, .primary]
        odd.keepType = ["image/*", "text", "UTF8_STRING", "application/x-kde-*"].map { TypePattern(argument: $0)! }
        odd.timeout = Seconds(0.001)!
        odd.validateTimeout = Seconds(1e20)!
        odd.sync = .both
        odd.validate = "echo \"a\\b\" 'c' # d\n\ttab\r \u{0}\u{7}\u{7F}\u{85}\u{A0}\u{2028}\u{FEFF}\u{FFFE}é😀: x"
        odd.rule = [.plainText, .trimWhitespace]
        odd.stripParameter = ["yes", "null", "123", "1.5", "~", "-x", "[a]", "a: b", "#c", "true", "*p", "!r", "%s", "@t", "`u"]
        odd.logLevel = .trace
        odd.replace = true
        odd.noManager = true
        let text = odd.yamlLines.joined(separator: "\n") + "\n"
        #expect(try settings(text) == odd, "\(text)")
        #expect(odd.yamlLines.contains("selection: [secondary, primary]"))
        #expect(odd.yamlLines.contains(#"keep-type: ["image/*", text, UTF8_STRING, "application/x-kde-*"]"#))
        #expect(odd.yamlLines.contains("timeout: 0.001"))
    }

    @Test("an unset optional is left out of --check-config's output")
    func unsetOptional() {
        let lines = DaemonSettings().yamlLines
        #expect(!lines.contains { $0.hasPrefix("sync:") || $0.hasPrefix("validate:") })
        #expect(lines.contains("timeout: 5"))
        #expect(lines.contains("log-level: info"))
        #expect(lines.contains("rule: []"))
    }
}
