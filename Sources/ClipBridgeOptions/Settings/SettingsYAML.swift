// ClipBridge — the clipbridge command-line tool's option values.
// The settings written as a settings file would give them (`clipbridge daemon --check-config`).

/// Writing settings as YAML that reads back as the same settings: `--check-config` prints a file that can
/// be used as it is.
public enum SettingsYAML {
    /// One scalar: a number or a boolean as it is; a string plain when YAML reads it back as that string
    /// (`clipboard`, `image/png`), else double-quoted with escapes (`"image/*"`, `"yes"`, `"a\nb"`).
    public static func text(_ scalar: SettingScalar) -> String {
        switch scalar {
        case .integer(let number): return String(number)
        case .number(let number): return "\(number)"
        case .boolean(let flag): return flag ? "true" : "false"
        case .string(let text): return isPlain(text) ? text : quoted(text)
        }
    }

    /// Letters, digits and `._/-`, starting with a letter, and read back as a string (not `yes`, `null`).
    static func isPlain(_ text: String) -> Bool {
        guard let first = text.unicodeScalars.first, ("a"..."z").contains(first) || ("A"..."Z").contains(first) else {
            return false
        }
        let allowed = text.unicodeScalars.allSatisfy { scalar in
            ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
                || scalar == "." || scalar == "_" || scalar == "/" || scalar == "-"
        }
        return allowed && YAMLScalarType.resolve(text, tag: nil, plain: true) == .string
    }

    /// A double-quoted scalar. Escaped: `"` and `\`, and every character libyaml would not take as it is in
    /// a file (control characters, byte-order marks) or would fold as a line break (NEL, U+2028, U+2029).
    static func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\t": result += "\\t"
            case "\r": result += "\\r"
            case " "..."~", "\u{A0}"..."\u{2027}", "\u{202A}"..."\u{D7FF}", "\u{E000}"..."\u{FEFE}",
                 "\u{FF00}"..."\u{FFFD}", "\u{10000}"..."\u{10FFFF}":
                result.unicodeScalars.append(scalar)
            default:
                let hex = String(scalar.value, radix: 16, uppercase: true)
                result += "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
            }
        }
        return result + "\""
    }
}

extension DaemonSettings {
    /// The settings as a settings file gives them, one `key: value` line each (`--check-config`); read
    /// back, they give these settings.
    public var yamlLines: [String] {
        Self.all.compactMap { $0.yamlLine(of: self) }
    }
}
