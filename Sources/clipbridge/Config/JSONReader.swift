// ClipBridge — the clipbridge command-line tool.
// Reading JSON configuration files (RFC 8259), keeping each value's line.

/// Reads a JSON document whose top level is an object into a ``ConfigTable`` whose every value knows its
/// line. Strict RFC 8259: no comments, no trailing commas; `null` is refused (no setting takes it), and so is
/// a key given twice. Nesting is limited (`maximumConfigDepth`), so a hostile file cannot exhaust the stack. One pass:
/// linear in the length of the text.
struct JSONReader: ConfigScanning {
    let scalars: [Unicode.Scalar]
    var index = 0
    var line = 1
    var depth = 0
    let path: String

    /// Reads `text`; `path` names the file in errors.
    static func read(_ text: String, path: String) throws(ConfigError) -> ConfigTable {
        var reader = JSONReader(scalars: Array(text.unicodeScalars), path: path)
        reader.skipWhitespace()
        guard reader.peek() == "{" else { throw reader.error("the file must hold one JSON object, found \(reader.describeNext())") }
        let value = try reader.value()
        reader.skipWhitespace()
        guard reader.peek() == nil else { throw reader.error("unexpected \(reader.describeNext()) after the object") }
        guard case .table(let table) = value.kind else { throw reader.error("the file must hold one JSON object") }
        return table
    }

    private init(scalars: [Unicode.Scalar], path: String) {
        self.scalars = scalars
        self.path = path
    }

    private mutating func value() throws(ConfigError) -> ConfigValue {
        skipWhitespace()
        let valueLine = line
        guard let scalar = peek() else { throw error("expected a value, found the end of the file") }
        let kind: ConfigValue.Kind
        switch scalar {
        case "{": kind = .table(try object())
        case "[": kind = .array(try array())
        case "\"": kind = .string(try string())
        case "t" where startsWith("true"): index += 4; kind = .boolean(true)
        case "f" where startsWith("false"): index += 5; kind = .boolean(false)
        case "n" where startsWith("null"): throw error("null is not a value any setting takes")
        default: kind = try number()
        }
        return ConfigValue(kind: kind, line: valueLine)
    }

    private mutating func object() throws(ConfigError) -> ConfigTable {
        try enter()
        defer { leave() }
        advance()
        var table = ConfigTable()
        skipWhitespace()
        if peek() == "}" {
            advance()
            return table
        }
        while true {
            skipWhitespace()
            let keyLine = line
            guard peek() == "\"" else { throw error("expected a key in quotes, found \(describeNext())") }
            let key = try string()
            skipWhitespace()
            guard peek() == ":" else { throw error("expected ':' after the key \"\(key)\", found \(describeNext())") }
            advance()
            let value = try self.value()
            guard table[key] == nil else { throw error("the key \"\(key)\" is given twice", at: keyLine) }
            table[key] = value
            skipWhitespace()
            switch peek() {
            case ",": advance()
            case "}": advance(); return table
            default: throw error("expected ',' or '}' in the object, found \(describeNext())")
            }
        }
    }

    private mutating func array() throws(ConfigError) -> [ConfigValue] {
        try enter()
        defer { leave() }
        advance()
        var elements: [ConfigValue] = []
        skipWhitespace()
        if peek() == "]" {
            advance()
            return elements
        }
        while true {
            elements.append(try value())
            skipWhitespace()
            switch peek() {
            case ",": advance()
            case "]": advance(); return elements
            default: throw error("expected ',' or ']' in the array, found \(describeNext())")
            }
        }
    }

    private mutating func string() throws(ConfigError) -> String {
        advance()
        var result = ""
        while true {
            guard let scalar = peek(), scalar != "\n" else { throw error("the string is not closed on its line") }
            advance()
            switch scalar {
            case "\"": return result
            case "\\":
                guard let escaped = peek() else { throw error("the string ends inside an escape") }
                advance()
                switch escaped {
                case "\"", "\\", "/": result.unicodeScalars.append(escaped)
                case "b": result.unicodeScalars.append("\u{08}")
                case "f": result.unicodeScalars.append("\u{0C}")
                case "n": result.unicodeScalars.append("\n")
                case "r": result.unicodeScalars.append("\r")
                case "t": result.unicodeScalars.append("\t")
                case "u": result.unicodeScalars.append(try unicodeEscape())
                default: throw error("'\\\(escaped)' is not a JSON escape")
                }
            default:
                guard scalar.value >= 0x20 else { throw error("a control character in a string must be escaped") }
                result.unicodeScalars.append(scalar)
            }
        }
    }

    /// A `\u` escape and its four hexadecimal digits, a UTF-16 surrogate pair (two escapes) included.
    private mutating func unicodeEscape() throws(ConfigError) -> Unicode.Scalar {
        let high = try hex4()
        if (0xD800..<0xDC00).contains(high) {
            guard startsWith("\\u") else { throw error("a lone UTF-16 surrogate in \\u escapes") }
            index += 2
            let low = try hex4()
            guard (0xDC00..<0xE000).contains(low),
                let scalar = Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))
            else { throw error("an invalid UTF-16 surrogate pair in \\u escapes") }
            return scalar
        }
        guard let scalar = Unicode.Scalar(high) else { throw error("a lone UTF-16 surrogate in \\u escapes") }
        return scalar
    }

    private mutating func hex4() throws(ConfigError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let digit = peek(), digit.properties.isASCIIHexDigit, let nibble = UInt32(String(digit), radix: 16) else {
                throw error("\\u needs 4 hexadecimal digits")
            }
            value = value << 4 | nibble
            advance()
        }
        return value
    }

    /// RFC 8259 §6: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
    private mutating func number() throws(ConfigError) -> ConfigValue.Kind {
        var token = ""
        while let scalar = peek(), "+-.eE0123456789".unicodeScalars.contains(scalar) {
            token.unicodeScalars.append(scalar)
            advance()
        }
        guard !token.isEmpty else { throw error("expected a value, found \(describeNext())") }
        let digits = token.hasPrefix("-") ? token.dropFirst() : token[...]
        let integerPart = digits.prefix { $0.isNumber }
        guard !integerPart.isEmpty, integerPart == "0" || !integerPart.hasPrefix("0") else {
            throw error("'\(token)' is not a JSON number")
        }
        if digits.allSatisfy(\.isNumber), let value = Int(token) { return .integer(value) }
        guard let value = Double(token), value.isFinite, !token.hasSuffix("."), !token.contains(".e"), !token.contains(".E")
        else { throw error("'\(token)' is not a JSON number") }
        return .float(value)
    }

    private mutating func skipWhitespace() {
        while let scalar = peek(), scalar == " " || scalar == "\t" || scalar == "\r" || scalar == "\n" {
            if scalar == "\n" { line += 1 }
            advance()
        }
    }

}
