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
}

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

    func error(_ message: String, at errorLine: Int? = nil) -> ConfigError {
        ConfigError(path: path, line: errorLine ?? line, message: message)
    }
}
