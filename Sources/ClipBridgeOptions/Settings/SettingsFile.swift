// ClipBridge — the clipbridge command-line tool's option values.
// Reading the daemon's settings file: YAML (and JSON, which YAML's parser reads), every problem with its line.


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
        let root: SettingsNode?
        do {
            root = try SettingsNode.parse(text)
        } catch {
            throw ConfigError(path: path, line: error.line, message: error.message)
        }
        guard let root else { return SettingsLayer() }  // an empty file (or only comments): no settings
        guard case .mapping(let mapping, _) = root else {
            throw ConfigError(path: path, line: root.line, message:
                "expected `key: value` lines (a mapping), found \(describe(root))")
        }
        var layer = SettingsLayer()
        for (keyNode, value) in mapping {
            guard case .scalar(let key, _, _) = keyNode else {
                throw ConfigError(path: path, line: keyNode.line, message: "expected a key, found \(describe(keyNode))")
            }
            guard let setting = settingsByKey[key] else {
                let suggestion = KeySuggestion.closest(to: key, among: DaemonSettings.all.map(\.key))
                    .map { " (did you mean '\($0)'?)" } ?? ""
                throw ConfigError(path: path, line: keyNode.line, message: "unknown key '\(key)'\(suggestion)")
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
    static func scalar(_ node: SettingsNode) -> Scalar {
        guard case .scalar(let text, let type, _) = node else { return .other(describe(node)) }
        switch type {
        case .string: return .value(.string(text))
        case .integer: return YAMLScalarType.integer(text).map { .value(.integer($0)) } ?? .other("an integer out of range")
        case .float: return YAMLScalarType.float(text).map { .value(.number($0)) } ?? .other("a number it cannot read")
        case .boolean: return YAMLScalarType.boolean(text).map { .value(.boolean($0)) } ?? .other("a boolean it cannot read")
        default: return .other(describe(node))
        }
    }

    /// "a list", "null", … for messages.
    static func describe(_ node: SettingsNode) -> String {
        switch node {
        case .mapping: return "a mapping"
        case .sequence: return "a list"
        case .scalar(let text, let type, _):
            switch type {
            case .null: return "null"
            case .timestamp: return "a date"
            case .string: return "'\(text)'"
            case .integer: return "an integer"
            case .float: return "a number with a fraction"
            case .boolean: return "true or false"
            case .other(let tag): return "a value tagged \(tag)"
            }
        }
    }
}
