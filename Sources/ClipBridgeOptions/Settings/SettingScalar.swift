// ClipBridge — the clipbridge command-line tool's option values.
// One value as a source wrote it, before a setting reads it.

/// One value as a source wrote it: a scalar of the settings file (of the type YAML resolved it to) or a
/// command-line argument (typed by what its setting takes). A setting reads both through one
/// ``SettingValue``, so every check applies whatever the source.
public enum SettingScalar: Sendable, Equatable {
    case string(String)
    case integer(Int)
    case number(Double)
    case boolean(Bool)

    /// "a string", "an integer", … for messages.
    public var kindName: String {
        switch self {
        case .string: "a string"
        case .integer: "an integer"
        case .number: "a number with a fraction"
        case .boolean: "true or false"
        }
    }

    /// What was found, for messages: a string quoted (`'wide'`), anything else by its kind.
    public var found: String {
        if case .string(let text) = self { return "'\(text)'" }
        return kindName
    }
}
