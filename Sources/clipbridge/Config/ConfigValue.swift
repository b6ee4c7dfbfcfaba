// ClipBridge — the clipbridge command-line tool.
// A configuration file's values, each with the line it was written on.

/// One value of a configuration file, and where it was written (for error messages).
struct ConfigValue: Sendable {
    enum Kind: Sendable {
        case string(String)
        case integer(Int)
        case float(Double)
        case boolean(Bool)
        case array([ConfigValue])
        case table(ConfigTable)
    }

    var kind: Kind
    /// 1-based.
    var line: Int

    /// "a string", "an integer", … for messages.
    var kindName: String {
        switch kind {
        case .string: "a string"
        case .integer: "an integer"
        case .float: "a number with a fraction"
        case .boolean: "true or false"
        case .array: "an array"
        case .table: "a table"
        }
    }
}

/// Keys and values in the order written; a key appears once.
struct ConfigTable: Sendable {
    struct Entry: Sendable {
        var key: String
        var value: ConfigValue
    }

    var entries: [Entry] = []

    subscript(key: String) -> ConfigValue? {
        get { entries.first { $0.key == key }?.value }
        set {
            if let index = entries.firstIndex(where: { $0.key == key }) {
                if let newValue { entries[index].value = newValue } else { entries.remove(at: index) }
            } else if let newValue {
                entries.append(Entry(key: key, value: newValue))
            }
        }
    }
}

/// A configuration file that cannot be used, and where: printed as `path:line: message`.
struct ConfigError: Error, CustomStringConvertible, Equatable {
    var path: String
    /// 1-based; 0 when the problem is the file as a whole.
    var line: Int
    var message: String

    var description: String { line > 0 ? "\(path):\(line): \(message)" : "\(path): \(message)" }
}
