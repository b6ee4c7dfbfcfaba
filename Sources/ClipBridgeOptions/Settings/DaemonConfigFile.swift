// ClipBridge — the clipbridge command-line tool's option values.
// Where `clipbridge daemon`'s settings file is, and reading it.

import FoundationEssentials
import Glibc

/// The daemon's settings file: `--config PATH`, else `$XDG_CONFIG_HOME/clipbridge/daemon.yaml` (or
/// `daemon.yml`, or `daemon.json`: JSON is read by the same YAML parser) — `~/.config` when XDG_CONFIG_HOME is
/// unset or relative, as the XDG base directory specification says. A file given with `--config` must exist;
/// the default one may not (then the defaults apply), but two default files at once is an error.
///
/// The TOML files of earlier versions (`daemon.toml`) are no longer read: one at the default place, or given
/// with `--config`, is an error that says how to convert it (``tomlConversion``).
public enum DaemonConfigFile {
    /// The largest file read: settings fit in a few kilobytes, and a bigger file is a mistake.
    public static let maximumBytes = 1 << 20

    /// The names looked for in `$XDG_CONFIG_HOME/clipbridge`, in this order.
    public static let defaultNames = ["daemon.yaml", "daemon.yml", "daemon.json"]

    /// The sed expression that turns the flat `key = value` lines of an old daemon.toml into YAML's
    /// `key: value`; the values (strings, numbers, booleans, arrays) and comments read the same in YAML.
    public static let tomlToYAML = #"s/^([^=#]+[^=#[:space:]])[[:space:]]*=[[:space:]]*/\1: /"#

    /// The command that converts the old file at `path` into `yamlPath`.
    public static func tomlConversion(from path: String, to yamlPath: String) -> String {
        "sed -E '\(tomlToYAML)' \(shellQuoted(path)) > \(shellQuoted(yamlPath))"
    }

    /// The file to read, or nil when there is none.
    public static func locate(explicit: String?) throws(ConfigError) -> String? {
        if let explicit {
            if explicit.lowercased().hasSuffix(".toml") { throw tomlError(explicit) }
            return explicit
        }
        let directory = configHome + "/clipbridge"
        let old = directory + "/daemon.toml"
        if access(old, F_OK) == 0 { throw tomlError(old) }
        let candidates = defaultNames.map { directory + "/" + $0 }.filter { access($0, F_OK) == 0 }
        guard candidates.count <= 1 else {
            throw ConfigError(path: candidates[1], line: 0, message: "both \(candidates[0]) and this file exist; keep one")
        }
        return candidates.first
    }

    /// The error for an old TOML file: how to convert it.
    static func tomlError(_ path: String) -> ConfigError {
        let yamlPath = (path.lowercased().hasSuffix(".toml") ? String(path.dropLast(5)) : path) + ".yaml"
        return ConfigError(path: path, line: 0, message: """
            settings files are YAML now, and TOML is no longer read. Convert this one (its `key = value` lines \
            become `key: value`; the values stay as they are), then remove it: \
            \(tomlConversion(from: path, to: yamlPath))
            """)
    }

    /// `$XDG_CONFIG_HOME`, or `~/.config`.
    public static var configHome: String {
        if let value = getenv("XDG_CONFIG_HOME").map({ String(cString: $0) }), value.hasPrefix("/") { return value }
        let home = getenv("HOME").map { String(cString: $0) } ?? ""
        return home + "/.config"
    }

    /// Reads the settings the file at `path` gives.
    public static func read(_ path: String) throws(ConfigError) -> SettingsLayer {
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
        return try SettingsFile.layer(fromYAML: text, path: path)
    }

    /// `'text'` for sh, its quotes escaped.
    static func shellQuoted(_ text: String) -> String {
        "'" + text.replacing("'", with: #"'\''"#) + "'"
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
