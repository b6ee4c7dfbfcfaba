// ClipBridge — the clipbridge command-line tool.
// What `clipbridge daemon` runs with: defaults, then the configuration file, then the command line.

import ClipBridge
import FoundationEssentials
import Logging
import X11Selection

/// The daemon's settings. Every long option of `clipbridge daemon` (but `--config`, `--check-config`,
/// `--status` and `--display`) is also a key of the configuration file, spelled the same without its
/// dashes; options given on the command line win over the file, and the file over the defaults.
struct DaemonSettings: Sendable, Equatable {
    var selection: [SelectionChoice] = [.clipboard]
    var maxFlavourSize = 256
    var maxSize = 512
    var maxFlavours = 256
    var keepType: [TypePattern] = []
    var timeout = 5.0
    var sync: SyncDirection?
    var validate: String?
    var validateTimeout = 2.0
    var replace = false
    var noManager = false
    var rule: [ContentRule] = []
    var stripParameter: [String] = []
    var logLevel: Logger.Level = .info

    /// The file's keys, with the kind of value each takes (for messages and `--check-config`).
    static let keys: [(key: String, expects: String)] = [
        ("selection", "a selection name or an array of them: clipboard, primary, secondary"),
        ("max-flavour-size", "a size in MiB"),
        ("max-size", "a size in MiB"),
        ("max-flavours", "a number of flavours"),
        ("keep-type", "an array of types (text, image, text/html, UTF8_STRING, public.image, image/*)"),
        ("timeout", "seconds"),
        ("sync", "primary-to-clipboard, clipboard-to-primary or both"),
        ("validate", "a shell command"),
        ("validate-timeout", "seconds"),
        ("replace", "true or false"),
        ("no-manager", "true or false"),
        ("rule", "an array of rules: \(ContentRule.allCases.map(\.rawValue).joined(separator: ", "))"),
        ("strip-parameter", "an array of query parameter names"),
        ("log-level", "trace, debug, info, notice, warning, error or critical"),
    ]

    /// The sizes `max-size` and `max-flavour-size` take, in MiB (up to 1 TiB, so bytes never overflow).
    static let sizes = 1...(1 << 20)

    /// The counts `max-flavours` takes.
    static let flavourCounts = 1...(1 << 20)

    // MARK: - The file

    /// Applies the settings of a configuration file; any key or value it cannot use is an error naming
    /// the line and the key. Nothing is applied from a file with an error.
    mutating func apply(_ table: ConfigTable, path: String) throws(ConfigError) {
        var settings = self
        for entry in table.entries {
            let value = entry.value
            func fail(_ message: String) -> ConfigError {
                ConfigError(path: path, line: value.line, message: "key '\(entry.key)': \(message)")
            }
            func expected() -> ConfigError {
                let expects = Self.keys.first { $0.key == entry.key }?.expects ?? "?"
                return fail("expected \(expects), found \(value.kindName)")
            }
            switch (entry.key, value.kind) {
            case ("selection", .string(let name)):
                guard let choice = SelectionChoice(argument: name) else { throw fail("'\(name)' is not clipboard, primary or secondary") }
                settings.selection = [choice]
            case ("selection", .array(let names)):
                settings.selection = try names.map { element throws(ConfigError) in
                    guard case .string(let name) = element.kind, let choice = SelectionChoice(argument: name) else {
                        throw ConfigError(path: path, line: element.line,
                                          message: "key 'selection': expected clipboard, primary or secondary, found \(Self.describe(element))")
                    }
                    return choice
                }
                guard !settings.selection.isEmpty else { throw fail("name at least one selection") }
            case ("max-flavour-size", .integer(let mib)), ("max-size", .integer(let mib)):
                guard Self.sizes.contains(mib) else { throw fail("\(mib) MiB is not a size between 1 and \(Self.sizes.upperBound)") }
                if entry.key == "max-size" { settings.maxSize = mib } else { settings.maxFlavourSize = mib }
            case ("max-flavours", .integer(let count)):
                guard Self.flavourCounts.contains(count) else {
                    throw fail("\(count) is not a number of flavours between 1 and \(Self.flavourCounts.upperBound)")
                }
                settings.maxFlavours = count
            case ("timeout", _), ("validate-timeout", _):
                guard let seconds = Self.seconds(value) else { throw expected() }
                guard seconds > 0, seconds.isFinite else { throw fail("\(seconds) is not a positive number of seconds") }
                if entry.key == "timeout" { settings.timeout = seconds } else { settings.validateTimeout = seconds }
            case ("sync", .string(let direction)):
                guard let parsed = SyncDirection(rawValue: direction) else {
                    throw fail("'\(direction)' is not primary-to-clipboard, clipboard-to-primary or both")
                }
                settings.sync = parsed
            case ("validate", .string(let command)):
                guard !command.allSatisfy(\.isWhitespace) else { throw fail("the command is empty") }
                settings.validate = command
            case ("replace", .boolean(let flag)):
                settings.replace = flag
            case ("no-manager", .boolean(let flag)):
                settings.noManager = flag
            case ("rule", .array(let names)), ("rules", .array(let names)):
                settings.rule = try names.map { element throws(ConfigError) in
                    guard case .string(let name) = element.kind, let rule = ContentRule(rawValue: name) else {
                        throw ConfigError(path: path, line: element.line, message:
                            "key '\(entry.key)': expected one of \(ContentRule.allCases.map(\.rawValue).joined(separator: ", ")), found \(Self.describe(element))")
                    }
                    return rule
                }
            case ("keep-type", .array(let names)):
                settings.keepType = try names.map { element throws(ConfigError) in
                    guard case .string(let name) = element.kind, let pattern = TypePattern(argument: name) else {
                        throw ConfigError(path: path, line: element.line,
                                          message: "key 'keep-type': expected a type, found \(Self.describe(element))")
                    }
                    return pattern
                }
            case ("strip-parameter", .array(let names)):
                settings.stripParameter = try names.map { element throws(ConfigError) in
                    guard case .string(let name) = element.kind, !name.isEmpty, !name.contains("="), !name.contains("&") else {
                        throw ConfigError(path: path, line: element.line,
                                          message: "key 'strip-parameter': expected a parameter name, found \(Self.describe(element))")
                    }
                    return name
                }
            case ("log-level", .string(let level)):
                guard let parsed = Logger.Level(rawValue: level) else {
                    throw fail("'\(level)' is not trace, debug, info, notice, warning, error or critical")
                }
                settings.logLevel = parsed
            case (let key, _) where Self.keys.contains { $0.key == key } || key == "rules":
                throw expected()
            case (let key, _):
                let suggestion = Self.closestKey(to: key).map { " (did you mean '\($0)'?)" } ?? ""
                throw ConfigError(path: path, line: value.line, message: "unknown key '\(key)'\(suggestion)")
            }
        }
        self = settings
    }

    private static func seconds(_ value: ConfigValue) -> Double? {
        switch value.kind {
        case .integer(let seconds): Double(seconds)
        case .float(let seconds): seconds
        default: nil
        }
    }

    private static func describe(_ value: ConfigValue) -> String {
        if case .string(let text) = value.kind { return "'\(text)'" }
        return value.kindName
    }

    /// The known key within two edits of `key`, if any (a typo's likely meaning).
    static func closestKey(to key: String) -> String? {
        keys.map(\.key).map { ($0, editDistance(key, $0)) }.filter { $0.1 <= 2 }.min { $0.1 < $1.1 }?.0
    }

    private static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        guard !a.isEmpty, !b.isEmpty, a.count < 64, b.count < 64 else { return max(a.count, b.count) }
        var previous = Array(0...b.count)
        for i in 1...a.count {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }

    // MARK: - Derived

    /// The kept selections, in the order given, without duplicates.
    var selections: [SelectionName] {
        var seen = Set<SelectionName>()
        return selection.map(\.name).filter { seen.insert($0).inserted }
    }

    /// The rewriter of the rules; nil when there are none.
    var rewriter: ContentRewriter? {
        rule.isEmpty ? nil : ContentRewriter(rules: Set(rule), extraTrackingParameters: stripParameter, converters: .command)
    }

    /// The settings as a configuration file would give them (`--check-config`).
    var fileLines: [String] {
        func quoted(_ text: String) -> String {
            "\"" + text.replacing("\\", with: "\\\\").replacing("\"", with: "\\\"").replacing("\n", with: "\\n") + "\""
        }
        func list(_ items: [String]) -> String { "[" + items.map(quoted).joined(separator: ", ") + "]" }
        var lines = [
            "selection = \(list(selection.map(\.rawValue)))",
            "max-flavour-size = \(maxFlavourSize)",
            "max-size = \(maxSize)",
            "max-flavours = \(maxFlavours)",
            "keep-type = \(list(keepType.map(\.text)))",
            "timeout = \(timeout)",
        ]
        if let sync { lines.append("sync = \(quoted(sync.rawValue))") }
        if let validate { lines.append("validate = \(quoted(validate))") }
        lines += [
            "validate-timeout = \(validateTimeout)",
            "replace = \(replace)",
            "no-manager = \(noManager)",
            "rule = \(list(rule.map(\.rawValue)))",
            "strip-parameter = \(list(stripParameter))",
            "log-level = \(quoted(logLevel.rawValue))",
        ]
        return lines
    }
}
