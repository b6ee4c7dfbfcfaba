// The forms the settings file may take besides plain YAML: JSON (read by the same parser), and the TOML of
// earlier versions converted with the sed command the error message and README give.

import ClipBridge
import ClipBridgeOptions
import FoundationEssentials
import Glibc
import Logging
import Testing

@Suite("The daemon's settings file: JSON, and old TOML converted")
struct SettingsFormatsTests {
    @Test("JSON is read by the YAML parser: the forms the end-to-end tests use")
    func json() throws {
        let read = try settings(#"{"rule": ["widen", "trim-whitespace"], "timeout": 1.5, "no-manager": true}"#, path: "d.json")
        #expect(read.rule == [.widen, .trimWhitespace])
        #expect(read.timeout == Seconds(1.5))
        #expect(read.noManager)
        let escapes = try settings(#"{"strip-parameter": ["a\/b", "\u00e9\t"], "selection": ["primary", "clipboard"]}"#)
        #expect(escapes.stripParameter == ["a/b", "é\t"])
        #expect(escapes.selection == [.primary, .clipboard])
        let multiLine = try settings("{\n  \"max-size\": 64,\n  \"keep-type\": [\"text\"]\n}\n")
        #expect(multiLine.maxSize == 64)
        // What libyaml reads differently from a JSON parser: a trailing comma is accepted (YAML's flow
        // sequences allow it), and a UTF-16 surrogate pair written as two escapes is refused (YAML escapes
        // name code points, and a lone surrogate is none); write the character itself.
        #expect(try settings(#"{"rule": ["widen",]}"#).rule == [.widen])
        #expect(failure(#"{"strip-parameter": ["\ud83d\ude00"]}"#) != nil)
        #expect(try settings(#"{"strip-parameter": ["😀"]}"#).stripParameter == ["😀"])
    }

    /// README's daemon.toml sample of earlier versions, as it was.
    static let oldReadmeSample = """
        # ~/.config/clipbridge/daemon.toml
        selection = ["clipboard", "primary"]
        sync = "primary-to-clipboard"
        rule = ["strip-tracking", "trim-whitespace"]
        strip-parameter = ["si", "ref"]
        max-size = 128            # MiB per copy
        log-level = "notice"

        """

    /// The settings of README's sample.
    static var readmeSettings: DaemonSettings {
        var expected = DaemonSettings()
        expected.selection = [.clipboard, .primary]
        expected.sync = .primaryToClipboard
        expected.rule = [.stripTracking, .trimWhitespace]
        expected.stripParameter = ["si", "ref"]
        expected.maxSize = 128
        expected.logLevel = .notice
        return expected
    }

    @Test("an old daemon.toml converted with the sed command of the message reads as the same settings")
    func tomlConversion() throws {
        #expect(try settings(convert(Self.oldReadmeSample)) == Self.readmeSettings)
        // TOML's other flat forms: quoted keys, hex and underscores, exponents, literal and escaped strings.
        let forms = try settings(convert(#"""
            "max-size" = 0x40
            max-flavour-size = 1_024
            strip-parameter = ['C:\path', "a\u0062c"]
            timeout = 2.5e0   # seconds
            validate = "test \"$x\" = y"
            no-manager=true
            """#))
        #expect(forms.maxSize == 64)
        #expect(forms.maxFlavourSize == 1024)
        #expect(forms.stripParameter == [#"C:\path"#, "abc"])
        #expect(forms.timeout == Seconds(2.5))
        #expect(forms.validate == #"test "$x" = y"#)
        #expect(forms.noManager)
    }

    @Test("README's YAML sample gives the settings its old TOML sample gave, and README gives the sed command")
    func readme() throws {
        let readme = try String(contentsOfFile: Self.packageRoot + "/README.md", encoding: .utf8)
        // The block that starts with the file's name, up to its closing fence.
        let blocks = readme.split(separator: "```yaml\n", omittingEmptySubsequences: false).dropFirst()
        let sample = try #require(blocks.first { $0.hasPrefix("# ~/.config/clipbridge/daemon.yaml\n") })
        let text = try #require(sample.split(separator: "```", maxSplits: 1, omittingEmptySubsequences: false).first)
        #expect(try settings(String(text)) == Self.readmeSettings)
        #expect(readme.contains(DaemonConfigFile.tomlToYAML))
    }

    @Test("a daemon.toml given with --config is refused with the command that converts it")
    func tomlRefused() {
        do {
            _ = try DaemonConfigFile.locate(explicit: "/home/u/.config/clipbridge/daemon.toml")
            Issue.record("a TOML file was accepted")
        } catch {
            #expect(error.description.contains("TOML is no longer read"))
            #expect(error.description.hasSuffix(
                DaemonConfigFile.tomlConversion(from: "/home/u/.config/clipbridge/daemon.toml", to: "/home/u/.config/clipbridge/daemon.yaml")))
        }
    }

    static let packageRoot: String = {
        var path = #filePath
        for _ in 0..<3 { path = String(path[..<path.lastIndex(of: "/")!]) }
        return path
    }()

    /// `toml` put through the sed command (`sh -c`), as a user would.
    func convert(_ toml: String) throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("settings-\(UInt64.random(in: 0...UInt64.max))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let from = directory.appendingPathComponent("daemon.toml").path
        let to = directory.appendingPathComponent("daemon.yaml").path
        try Data(toml.utf8).write(to: URL(fileURLWithPath: from))
        let command = DaemonConfigFile.tomlConversion(from: from, to: to)
        #expect(system(command) == 0, "\(command)")
        return try String(contentsOfFile: to, encoding: .utf8)
    }
}
