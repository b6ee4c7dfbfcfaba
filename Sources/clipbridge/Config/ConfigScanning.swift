// ClipBridge — the clipbridge command-line tool.
// The cursor the configuration file readers share.

/// A reader's position in a configuration file's text: its Unicode scalars, the index of the next one, and
/// the line that index is on, for errors that name it.
protocol ConfigScanning {
    var scalars: [Unicode.Scalar] { get }
    var index: Int { get set }
    /// 1-based.
    var line: Int { get set }
    /// The file, as errors name it.
    var path: String { get }
    /// How many arrays and tables the position is inside.
    var depth: Int { get set }
}

/// Arrays and tables nest at most this deep, so that a hostile file cannot exhaust the stack of the
/// recursive readers (100 000 `[` would).
let maximumConfigDepth = 64

extension ConfigScanning {
    func peek() -> Unicode.Scalar? {
        index < scalars.count ? scalars[index] : nil
    }

    mutating func advance() {
        index += 1
    }

    func startsWith(_ text: String) -> Bool {
        var offset = index
        for scalar in text.unicodeScalars {
            guard offset < scalars.count, scalars[offset] == scalar else { return false }
            offset += 1
        }
        return true
    }

    /// The next scalar, for messages: `'x'`, the end of the line, the end of the file.
    func describeNext() -> String {
        guard let scalar = peek() else { return "the end of the file" }
        if scalar == "\n" { return "the end of the line" }
        return "'\(scalar)'"
    }

    /// Enters an array or a table; `leave()` when it ends.
    mutating func enter() throws(ConfigError) {
        depth += 1
        guard depth <= maximumConfigDepth else { throw error("nested more than \(maximumConfigDepth) levels deep") }
    }

    mutating func leave() {
        depth -= 1
    }

    func error(_ message: String, at errorLine: Int? = nil) -> ConfigError {
        ConfigError(path: path, line: errorLine ?? line, message: message)
    }
}
