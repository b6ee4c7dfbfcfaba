// The daemon's settings file read without the binary: values, every kind of error with its file, line and key.

import ClipBridge
import ClipBridgeOptions
import Logging
import Testing

/// The settings a YAML text gives over the defaults.
func settings(_ yaml: String, path: String = "daemon.yaml") throws(ConfigError) -> DaemonSettings {
    try SettingsFile.layer(fromYAML: yaml, path: path).applied(to: DaemonSettings())
}

/// The error a YAML text gives, as printed.
func failure(_ yaml: String, path: String = "daemon.yaml") -> String? {
    do {
        _ = try settings(yaml, path: path)
        return nil
    } catch {
        return error.description
    }
}

@Suite("The daemon's settings file")
struct SettingsFileTests {
    @Test("every key reads its value")
    func everyKey() throws {
        let read = try settings("""
            # clipbridge daemon settings
            selection: [clipboard, primary]
            max-flavour-size: 0x40      # YAML's integers: hex, underscores
            max-size: 1_024
            max-flavours: 12
            keep-type: [text, "image/*"]
            timeout: 2.5
            sync: primary-to-clipboard
            validate: grep -q x && exit 1
            validate-timeout: 3
            rule: [strip-tracking, widen]
            strip-parameter: [si, 'C:\\path']
            log-level: notice
            replace: true
            no-manager: false
            """)
        var expected = DaemonSettings()
        expected.selection = [.clipboard, .primary]
        expected.maxFlavourSize = 64
        expected.maxSize = 1024
        expected.maxFlavours = 12
        expected.keepType = [TypePattern(argument: "text")!, TypePattern(argument: "image/*")!]
        expected.timeout = Seconds(2.5)!
        expected.sync = .primaryToClipboard
        expected.validate = "grep -q x && exit 1"
        expected.validateTimeout = Seconds(3)
        expected.rule = [.stripTracking, .widen]
        expected.stripParameter = ["si", #"C:\path"#]
        expected.logLevel = .notice
        expected.replace = true
        #expect(read == expected)
    }

    @Test("an empty file, or one of comments, gives the defaults")
    func empty() throws {
        #expect(try settings("") == DaemonSettings())
        #expect(try settings("# nothing yet\n\n") == DaemonSettings())
    }

    @Test("a single value stands for a list of one; rules is read as rule")
    func shorthands() throws {
        let read = try settings("selection: primary\nrules: widen\nkeep-type: image\n")
        #expect(read.selection == [.primary])
        #expect(read.rule == [.widen])
        #expect(read.keepType.map(\.text) == ["image"])
    }

    @Test("a bad file names the file, the line and the key", arguments: [
        ("selection: clipboard\n\nmax-size: big\n", "daemon.yaml:3: key 'max-size': expected a size in MiB, found a string"),
        ("max-size: \"64\"\n", "daemon.yaml:1: key 'max-size': expected a size in MiB, found a string"),
        ("max-size: 0\n", "daemon.yaml:1: key 'max-size': 0 MiB is not a size between 1 and 1048576"),
        ("max-flavours: 2000000\n", "daemon.yaml:1: key 'max-flavours': 2000000 is not a number of flavours between 1 and 1048576"),
        ("# settings\nrule: [widen,\n  wide]\n", "daemon.yaml:3: key 'rule': expected strip-tracking, trim-whitespace, plain-text or widen, found 'wide'"),
        ("keep-type: [text, no-such-type]\n", "daemon.yaml:1: key 'keep-type': expected a type (text, image, text/html, UTF8_STRING, public.image, image/*), found 'no-such-type'"),
        ("keep-type: {a: b}\n", "daemon.yaml:1: key 'keep-type': expected a type (text, image, text/html, UTF8_STRING, public.image, image/*) or a list of them, found a mapping"),
        ("log-levle: debug\n", "daemon.yaml:1: unknown key 'log-levle' (did you mean 'log-level'?)"),
        ("max-sise: 3\n", "daemon.yaml:1: unknown key 'max-sise' (did you mean 'max-size'?)"),
        ("colour: blue\n", "daemon.yaml:1: unknown key 'colour'"),
        ("timeout: 2\nmax-size: 3\ntimeout: 3\n", "daemon.yaml:3: key 'timeout' is given twice (first on line 1)"),
        ("rule: [widen]\nkeep-type: [text]\nsync: both\nsync: both\n", "daemon.yaml:4: key 'sync' is given twice (first on line 3)"),
        ("selection: {a: 1, a: 2}\n", "key 'a' is given twice"),
        ("timeout: 0\n", "daemon.yaml:1: key 'timeout': 0.0 is not a positive number of seconds"),
        ("validate-timeout: -.inf\n", "daemon.yaml:1: key 'validate-timeout': -inf is not a positive number of seconds"),
        ("timeout: .nan\n", "daemon.yaml:1: key 'timeout': nan is not a positive number of seconds"),
        ("timeout:\n", "daemon.yaml:1: key 'timeout': expected seconds, found null"),
        ("timeout: [1]\n", "daemon.yaml:1: key 'timeout': expected seconds, found a list"),
        ("sync: sideways\n", "daemon.yaml:1: key 'sync': expected primary-to-clipboard, clipboard-to-primary or both, found 'sideways'"),
        ("validate: '  '\n", "daemon.yaml:1: key 'validate': the command is empty"),
        ("validate: no\n", "daemon.yaml:1: key 'validate': expected a shell command, found true or false"),
        ("strip-parameter: [ref, 'a=b']\n", "daemon.yaml:1: key 'strip-parameter': expected a query parameter name (without = or &), found 'a=b'"),
        ("strip-parameter: ['']\n", "daemon.yaml:1: key 'strip-parameter': expected a query parameter name (without = or &), found ''"),
        ("selection: []\n", "daemon.yaml:1: key 'selection': name at least one"),
        ("replace: 1\n", "daemon.yaml:1: key 'replace': expected true or false, found an integer"),
        ("- max-size\n", "daemon.yaml:1: expected `key: value` lines (a mapping), found a list"),
        ("max-size\n", "daemon.yaml:1: expected `key: value` lines (a mapping), found 'max-size'"),
        ("[a]: 1\n", "daemon.yaml:1: expected a key, found a list"),
        ("sync: both\nrule: [widen\n", "daemon.yaml:3: did not find expected ',' or ']' (while parsing a flow sequence at line 2)"),
        ("validate: \"unterminated\n", "daemon.yaml:2: found unexpected end of stream (while scanning a quoted scalar at line 1)"),
        ("a: &x [1]\nb: *x\n", "daemon.yaml:2: aliases (*name) are not read in a settings file; write the value"),
        ("a: " + String(repeating: "[", count: 100_000), "daemon.yaml:1: "),
        ("{\"timeout\": null}", "daemon.yaml:1: key 'timeout': expected seconds, found null"),
    ])
    func badFile(yaml: String, message: String) {
        let error = failure(yaml)
        #expect(error?.contains(message) == true, "\(error ?? "no error")")
    }

    @Test("an error in a file leaves nothing of it applied")
    func allOrNothing() {
        #expect(throws: ConfigError.self) { try settings("max-size: 32\nmax-flavours: 0\n") }
    }

    @Test("a billion laughs (an alias key naming nested aliases) is refused at once, not hashed for ever")
    func billionLaughs() {
        var text = "a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n"
        for level in 1..<30 {
            text += "a\(level): &a\(level) [" + Array(repeating: "*a\(level - 1)", count: 10).joined(separator: ", ") + "]\n"
        }
        text += "? *a29\n: 1\n"
        let start = ContinuousClock.now
        #expect(failure(text) == "daemon.yaml:2: aliases (*name) are not read in a settings file; write the value")
        #expect(ContinuousClock.now - start < .seconds(1))
    }

    @Test("a file too deeply nested is refused, not a crash")
    func deepNesting() {
        for text in ["a: " + String(repeating: "[", count: 100_000), String(repeating: "- ", count: 100_000) + "x",
                     String(repeating: "{a: ", count: 100_000)] {
            #expect(failure(text) != nil)
        }
    }
}
