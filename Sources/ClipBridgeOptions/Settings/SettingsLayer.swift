// ClipBridge — the clipbridge command-line tool's option values.
// The values one source gives, laid over the settings beneath: defaults < file < command line.

/// The values one source gave for some settings (the file, the command line), in the order given, laid over
/// the settings beneath it with ``applied(to:)``: `DaemonSettings()`, then the file's layer, then the command
/// line's is how the daemon's settings are made.
public struct SettingsLayer: Sendable {
    private var changes: [@Sendable (inout DaemonSettings) -> Void] = []

    /// Nothing given.
    public init() {}

    /// Whether the source gave nothing.
    public var isEmpty: Bool { changes.isEmpty }

    /// Gives `setting` the elements `given` (the last value of a single-valued setting wins).
    public mutating func set<Element, Value>(_ setting: DaemonSetting<Element, Value>, to given: [Element]) {
        changes.append { setting.apply(given, to: &$0) }
    }

    /// `settings` with this layer's values over them.
    public func applied(to settings: DaemonSettings) -> DaemonSettings {
        var result = settings
        for change in changes { change(&result) }
        return result
    }
}
