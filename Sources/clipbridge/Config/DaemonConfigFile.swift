// ClipBridge — the clipbridge command-line tool.
// Where `clipbridge daemon`'s configuration file is, and reading it.

import FoundationEssentials
import Glibc

/// The daemon's configuration file: `--config PATH`, else `$XDG_CONFIG_HOME/clipbridge/daemon.toml` or
/// `daemon.json` (`~/.config` when XDG_CONFIG_HOME is unset or relative, as the XDG base directory
/// specification says). TOML unless the name ends in `.json`. A file given with `--config` must exist; the
/// default one may not exist (then the defaults apply), but both default files at once is an error.
enum DaemonConfigFile {
    /// The largest file read: settings fit in a few kilobytes, and a bigger file is a mistake.
    static let maximumBytes = 1 << 20

    /// The file to read, or nil when there is none.
    static func locate(explicit: String?) throws(ConfigError) -> String? {
        if let explicit { return explicit }
        let directory = configHome + "/clipbridge"
        let candidates = ["daemon.toml", "daemon.json"].map { directory + "/" + $0 }.filter { access($0, F_OK) == 0 }
        guard candidates.count <= 1 else {
            throw ConfigError(path: candidates[1], line: 0, message: "both \(candidates[0]) and this file exist; keep one")
        }
        return candidates.first
    }

    /// `$XDG_CONFIG_HOME`, or `~/.config`.
    static var configHome: String {
        if let value = getenv("XDG_CONFIG_HOME").map({ String(cString: $0) }), value.hasPrefix("/") { return value }
        let home = getenv("HOME").map { String(cString: $0) } ?? ""
        return (home.isEmpty ? "" : home) + "/.config"
    }

    /// Reads and parses the file at `path`.
    static func read(_ path: String) throws(ConfigError) -> ConfigTable {
        var info = stat()
        guard stat(path, &info) == 0, access(path, R_OK) == 0 else {
            throw ConfigError(path: path, line: 0, message: "cannot be read: \(String(cString: strerror(errno)))")
        }
        guard info.st_mode & S_IFMT == S_IFREG || info.st_mode & S_IFMT == S_IFCHR else {
            throw ConfigError(path: path, line: 0, message: "is not a file")
        }
        guard info.st_size <= maximumBytes else {
            throw ConfigError(path: path, line: 0, message: "\(info.st_size) bytes is too large for a configuration file")
        }
        let data = try readBounded(path)
        guard let text = String(validating: data, as: UTF8.self) else {
            throw ConfigError(path: path, line: 0, message: "is not UTF-8 text")
        }
        if path.lowercased().hasSuffix(".json") {
            return try JSONReader.read(text, path: path)
        }
        return try TOMLReader.read(text, path: path)
    }

    /// The file's bytes, at most ``maximumBytes`` (read(2) in a loop: `/dev/null` and pipes report no size).
    private static func readBounded(_ path: String) throws(ConfigError) -> Data {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw ConfigError(path: path, line: 0, message: "cannot be read: \(String(cString: strerror(errno)))")
        }
        defer { close(descriptor) }
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw ConfigError(path: path, line: 0, message: "cannot be read: \(String(cString: strerror(errno)))")
            }
            if count == 0 { return data }
            data.append(contentsOf: buffer[..<count])
            guard data.count <= maximumBytes else {
                throw ConfigError(path: path, line: 0, message: "is too large for a configuration file (over \(maximumBytes) bytes)")
            }
        }
    }
}
