// ClipBridge — the clipbridge command-line tool's option values.
// One setting of `clipbridge daemon`, declared once: its option, its file key, its values and its default.

/// One setting of the daemon, declared once: the option (`--max-size`) and the file key (`max-size`) share the
/// name, one ``SettingValue`` reads and checks what either gives, and the field of ``DaemonSettings`` it sets
/// starts from the default here. The command line's option, the file's reader, the layering and
/// `--check-config` are all derived from these (``DaemonSettings/all``).
///
/// A setting takes one value (`max-size`), one or none (`sync`: unset by default), or a list (`rule`): a list
/// option is repeated on the command line, and written as a YAML list (or a single value) in the file.
public struct DaemonSetting<Element: Sendable, Value: Sendable>: Sendable {
    /// The file key, and the long option's name.
    public let key: String
    /// Other file keys read as this one (`rules` for `rule`).
    public let aliases: [String]
    /// The short option, if any (`-s`).
    public let short: Character?
    /// The option's help, without the default (``helpText`` adds it).
    public let help: String
    /// The option's value name in the help (`mib`).
    public let valueName: String
    /// How one value (of a list: one element) is read and checked.
    public let element: SettingValue<Element>
    /// The value when neither the file nor the command line gives one.
    public let defaultValue: Value
    /// How the default reads in the help (nil: the default value, written as the file would have it).
    let defaultNote: String?
    /// The field of ``DaemonSettings`` this sets.
    let field: WritableKeyPath<DaemonSettings, Value> & Sendable
    /// How many values the setting takes.
    public let shape: Shape
    /// The value the given elements make (of a single value: the last one given).
    let make: @Sendable ([Element]) -> Value
    /// The elements a value is written as (none for an unset optional: the line is left out).
    let elements: @Sendable (Value) -> [Element]

    /// How many values a setting takes.
    public enum Shape: Sendable, Equatable {
        /// Exactly one; the default stands until one is given.
        case one
        /// One or none (none by default).
        case optional
        /// A list; `nonEmpty`: the file may not give an empty one.
        case list(nonEmpty: Bool)
    }

    /// The option's help with its default: `The largest flavour kept, in MiB (default: 256).`
    public var helpText: String {
        let note = defaultNote ?? {
            let written = elements(defaultValue).map { SettingsYAML.text(element.write($0)) }
            return written.isEmpty ? nil : written.joined(separator: ", ")
        }()
        guard let note, !note.isEmpty else { return help }
        return help.hasSuffix(".") ? "\(help.dropLast()) (default: \(note))." : "\(help) (default: \(note))"
    }

    /// Sets the field from the elements a source gave (a list may be empty: `rule: []` in a file). The
    /// command line calls this only for options it was given.
    public func apply(_ given: [Element], to settings: inout DaemonSettings) {
        settings[keyPath: field] = make(given)
    }

    /// The field's value in `settings`.
    public func value(in settings: DaemonSettings) -> Value {
        settings[keyPath: field]
    }
}

extension DaemonSetting where Value == Element {
    /// A setting that takes exactly one value.
    static func one(
        _ key: String, _ field: WritableKeyPath<DaemonSettings, Value> & Sendable, _ element: SettingValue<Element>,
        default defaultValue: Value, help: String, valueName: String, defaultNote: String? = nil
    ) -> Self {
        Self(key: key, aliases: [], short: nil, help: help, valueName: valueName, element: element,
             defaultValue: defaultValue, defaultNote: defaultNote, field: field, shape: .one,
             make: { $0.last ?? defaultValue }, elements: { [$0] })
    }
}

extension DaemonSetting {
    /// A setting that takes one value or none (none by default).
    static func optional(
        _ key: String, _ field: WritableKeyPath<DaemonSettings, Value> & Sendable, _ element: SettingValue<Element>,
        help: String, valueName: String
    ) -> Self where Value == Element? {
        Self(key: key, aliases: [], short: nil, help: help, valueName: valueName, element: element,
             defaultValue: nil, defaultNote: nil, field: field, shape: .optional,
             make: { $0.last }, elements: { $0.map { [$0] } ?? [] })
    }

    /// A setting that takes a list, repeated on the command line.
    static func list(
        _ key: String, _ field: WritableKeyPath<DaemonSettings, Value> & Sendable, _ element: SettingValue<Element>,
        default defaultValue: Value = [], help: String, valueName: String, defaultNote: String? = nil,
        short: Character? = nil, aliases: [String] = [], nonEmpty: Bool = false
    ) -> Self where Value == [Element] {
        Self(key: key, aliases: aliases, short: short, help: help, valueName: valueName, element: element,
             defaultValue: defaultValue, defaultNote: defaultNote, field: field, shape: .list(nonEmpty: nonEmpty),
             make: { $0 }, elements: { $0 })
    }
}
