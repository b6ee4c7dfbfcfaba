// ClipBridge — the clipbridge command-line tool's option values.
// Reading the daemon's settings file: YAML (and JSON, which YAML's parser reads), every problem with its line.

import Yams

/// The daemon's settings file read into a ``SettingsLayer``: a YAML mapping of the settings' keys to values
/// (a JSON object is YAML too). Every problem is a ``ConfigError`` naming the file, the line and the key:
/// an unknown key (with the known key it likely meant), a value of the wrong kind, a value out of range. A
/// file with an error gives nothing.
public enum SettingsFile {
    /// The settings by file key, aliases included.
    static let settingsByKey: [String: any AnyDaemonSetting] = {
        var byKey: [String: any AnyDaemonSetting] = [:]
        for setting in DaemonSettings.all {
            for key in [setting.key] + setting.aliases { byKey[key] = setting }
        }
        return byKey
    }()

    /// The values a file's text gives. `path` names the file in errors.
    public static func layer(fromYAML text: String, path: String) throws(ConfigError) -> SettingsLayer {
        if let problem = SettingsEvents.problem(in: text) {
            throw ConfigError(path: path, line: problem.line, message: problem.message)
        }
        let root: Node?
        do {
            root = try Yams.compose(yaml: text)
        } catch let error as YamlError {
            throw configError(error, path: path)
        } catch {
            throw ConfigError(path: path, line: 0, message: "\(error)")
        }
        guard let root else { return SettingsLayer() }  // an empty file (or only comments): no settings
        guard case .mapping(let mapping) = root else {
            throw ConfigError(path: path, line: root.mark?.line ?? 0, message:
                "expected `key: value` lines (a mapping), found \(describe(root))")
        }
        var layer = SettingsLayer()
        for (keyNode, value) in mapping {
            guard case .scalar(let scalar) = keyNode else {
                throw ConfigError(path: path, line: keyNode.mark?.line ?? 0,
                                  message: "expected a key, found \(describe(keyNode))")
            }
            let key = scalar.string
            guard let setting = settingsByKey[key] else {
                let suggestion = KeySuggestion.closest(to: key, among: DaemonSettings.all.map(\.key))
                    .map { " (did you mean '\($0)'?)" } ?? ""
                throw ConfigError(path: path, line: keyNode.mark?.line ?? 0, message: "unknown key '\(key)'\(suggestion)")
            }
            try setting.read(value, key: key, path: path, into: &layer)
        }
        return layer
    }

    /// A node as a setting reads it: a scalar of a kind settings take, or what it is instead.
    enum Scalar {
        case value(SettingScalar)
        case other(String)
    }

    /// The scalar a node holds, of the type YAML resolves it to (`64` an integer, `"64"` a string).
    static func scalar(_ node: Node) -> Scalar {
        guard case .scalar(let scalar) = node else { return .other(describe(node)) }
        switch Tag.Name(rawValue: node.tag.rawValue) {
        case .str: return .value(.string(scalar.string))
        case .int: return node.int.map { .value(.integer($0)) } ?? .other("an integer out of range")
        case .float: return node.float.map { .value(.number($0)) } ?? .other("a number it cannot read")
        case .bool: return node.bool.map { .value(.boolean($0)) } ?? .other("a boolean it cannot read")
        default: return .other(describe(node))
        }
    }

    /// "a list", "null", … for messages.
    static func describe(_ node: Node) -> String {
        switch node {
        case .mapping: return "a mapping"
        case .sequence: return "a list"
        case .alias: return "an alias"
        case .scalar(let scalar):
            switch Tag.Name(rawValue: node.tag.rawValue) {
            case .null: return "null"
            case .timestamp: return "a date"
            case .str: return "'\(scalar.string)'"
            case .int: return "an integer"
            case .float: return "a number with a fraction"
            case .bool: return "true or false"
            default: return "a value tagged \(node.tag.rawValue)"
            }
        }
    }

    /// A parser's error, at its line.
    static func configError(_ error: YamlError, path: String) -> ConfigError {
        func near(_ context: YamlError.Context?) -> String {
            context.map { " (\($0.text) at line \($0.mark.line))" } ?? ""
        }
        switch error {
        case .scanner(let context, let problem, let mark, _),
             .parser(let context, let problem, let mark, _),
             .composer(let context, let problem, let mark, _):
            return ConfigError(path: path, line: mark.line, message: problem + near(context))
        case .duplicatedKeysInMapping(let duplicates, let context):
            let keys = duplicates.map { "'\($0)'" }.joined(separator: ", ")
            return ConfigError(path: path, line: context.mark.line,
                               message: "key \(keys) is given twice")
        case .reader(let problem, let offset, _, let yaml):
            let line = offset.map { offset in 1 + yaml.prefix(offset).count { $0 == "\n" || $0 == "\r\n" } } ?? 0
            return ConfigError(path: path, line: line, message: problem)
        default:
            return ConfigError(path: path, line: 0, message: "\(error)")
        }
    }
}
