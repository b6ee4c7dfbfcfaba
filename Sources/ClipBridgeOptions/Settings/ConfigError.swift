// ClipBridge — the clipbridge command-line tool's option values.
// A settings file that cannot be used, and where.

/// A settings file that cannot be used, and where: printed as `path:line: message`
/// (`daemon.yaml:3: key 'max-size': expected a size in MiB, found a string`).
public struct ConfigError: Error, CustomStringConvertible, Equatable, Sendable {
    /// The file, as the user named it (or as it was found).
    public var path: String
    /// 1-based; 0 when the problem is the file as a whole.
    public var line: Int
    /// What is wrong, naming the key where there is one.
    public var message: String

    /// The problem `message` in the file at `path`, on `line` (0: the file as a whole).
    public init(path: String, line: Int, message: String) {
        self.path = path
        self.line = line
        self.message = message
    }

    public var description: String { line > 0 ? "\(path):\(line): \(message)" : "\(path): \(message)" }
}

/// Why a value given for a setting (an argument, or a scalar of the file) is not one it takes: the message,
/// which the file's reader prefixes with the file, the line and the key, and the command line with the option.
public struct SettingProblem: Error, CustomStringConvertible, Equatable, Sendable {
    /// What is wrong with the value.
    public var message: String

    /// A problem, said without the key or the option (`the command is empty`).
    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}
