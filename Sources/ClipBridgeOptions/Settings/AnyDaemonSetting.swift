// ClipBridge — the clipbridge command-line tool's option values.
// What the file's reader and `--check-config` do with any setting, whatever its type.


/// A ``DaemonSetting`` of any type, as the table of settings holds it: what reading the file and writing it
/// back need.
public protocol AnyDaemonSetting: Sendable {
    /// The file key.
    var key: String { get }
    /// Other keys read as this one.
    var aliases: [String] { get }
    /// Reads the value a file gives the key into `layer`; the error names the key (and the line, from the node).
    func read(_ node: SettingsNode, key: String, path: String, into layer: inout SettingsLayer) throws(ConfigError)
    /// The setting's line in a settings file (`max-size: 512`); nil when it is left out (an unset optional).
    func yamlLine(of settings: DaemonSettings) -> String?
}

extension DaemonSetting: AnyDaemonSetting {
    public func read(_ node: SettingsNode, key: String, path: String, into layer: inout SettingsLayer) throws(ConfigError) {
        func failure(_ message: String, at place: SettingsNode = node) -> ConfigError {
            ConfigError(path: path, line: place.line, message: "key '\(key)': \(message)")
        }
        func one(_ node: SettingsNode) throws(ConfigError) -> Element {
            switch SettingsFile.scalar(node) {
            case .value(let scalar):
                do { return try element.value(of: scalar) } catch { throw failure(error.message, at: node) }
            case .other(let found):
                throw failure("expected \(element.expects), found \(found)", at: node)
            }
        }
        let given: [Element]
        switch (shape, node) {
        case (.list(let nonEmpty), .sequence(let sequence, _)):
            var elements: [Element] = []
            elements.reserveCapacity(sequence.count)
            for item in sequence { elements.append(try one(item)) }
            if nonEmpty && elements.isEmpty { throw failure("name at least one") }
            given = elements
        case (.list, .mapping):
            throw failure("expected \(element.expects) or a list of them, found a mapping")
        default:
            given = [try one(node)]
        }
        layer.set(self, to: given)
    }

    public func yamlLine(of settings: DaemonSettings) -> String? {
        let written = elements(value(in: settings)).map { SettingsYAML.text(element.write($0)) }
        switch shape {
        case .one, .optional:
            return written.first.map { "\(key): \($0)" }
        case .list:
            return "\(key): [\(written.joined(separator: ", "))]"
        }
    }
}
