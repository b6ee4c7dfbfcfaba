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

    /// The entries, in the file's order.
    private(set) var entries: [Entry] = []
    /// Where each key is in `entries`: a file is the user's to write, and a lookup per key over the entries made
    /// reading 8,000 keys take 29 s (found by the fuzzer's review).
    private var positions: [String: Int] = [:]

    subscript(key: String) -> ConfigValue? {
        get { positions[key].map { entries[$0].value } }
        set {
            if let index = positions[key] {
                if let newValue {
                    entries[index].value = newValue
                } else {
                    entries.remove(at: index)
                    positions[key] = nil
                    for position in index..<entries.count { positions[entries[position].key] = position }
                }
            } else if let newValue {
                positions[key] = entries.count
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
