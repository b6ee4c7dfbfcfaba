// ClipBridge — the clipbridge command-line tool.
// Reading TOML configuration files (TOML 1.0, without dates: no setting of ours is a date).

/// Reads a TOML document into a ``ConfigTable`` whose every value knows its line, so that a setting with a
/// bad value is reported at the line it was written on.
///
/// Covers what configuration files use of TOML 1.0: comments; bare, quoted and dotted keys; tables and
/// arrays of tables; basic, literal and multi-line strings with every escape; decimal, hexadecimal, octal
/// and binary integers (underscores allowed); floats (with `inf`, `nan`); booleans; arrays and inline
/// tables. Dates and times are refused with a message saying so. A key defined twice, a table defined twice
/// and a value that ends in the middle of a line are errors, as the specification requires. Arrays and
/// inline tables nest at most `maximumConfigDepth` deep. One pass over the text: linear in its length.
struct TOMLReader: ConfigScanning {
    let scalars: [Unicode.Scalar]
    var index = 0
    var line = 1
    let path: String
    var depth = 0

    /// Reads `text`; `path` names the file in errors.
    static func read(_ text: String, path: String) throws(ConfigError) -> ConfigTable {
        var reader = TOMLReader(scalars: Array(text.unicodeScalars), path: path)
        return try reader.document()
    }

    private init(scalars: [Unicode.Scalar], path: String) {
        self.scalars = scalars
        self.path = path
    }

    // MARK: - Document

    /// Tables opened by a header (`[a.b]`) or as arrays of tables; a header may open each once.
    private var explicitTables: Set<[String]> = []
    /// Tables and arrays of tables defined by inline syntax or plain arrays, which headers may not extend.
    private var sealed: Set<[String]> = []

    private mutating func document() throws(ConfigError) -> ConfigTable {
        var root = ConfigTable()
        var current: [String] = []
        while true {
            skipBlankAndComments()
            guard let scalar = peek() else { break }
            if scalar == "[" {
                current = try header(into: &root)
            } else {
                let (key, value, keyLine) = try keyValue()
                try insert(value, at: current + key, into: &root, line: keyLine)
                try endOfLine()
            }
        }
        return root
    }

    /// `[a.b]` or `[[a.b]]`: the path later keys go under.
    private mutating func header(into root: inout ConfigTable) throws(ConfigError) -> [String] {
        let headerLine = line
        advance()
        let isArray = peek() == "["
        if isArray { advance() }
        skipSpaces()
        let key = try dottedKey()
        skipSpaces()
        try expect("]", "to close the table header")
        if isArray { try expect("]", "to close the array-of-tables header") }
        try endOfLine()
        if isArray {
            guard !sealed.contains(key) else { throw error("\(Self.display(key)) is already defined as a plain array", at: headerLine) }
            try appendTable(at: key, into: &root, line: headerLine)
            return key
        }
        guard !explicitTables.contains(key), !sealed.contains(key) else {
            throw error("the table [\(Self.display(key))] is defined twice", at: headerLine)
        }
        explicitTables.insert(key)
        try withTable(at: key, in: &root, line: headerLine) { _ throws(ConfigError) in }
        return key
    }

    /// `key = value`: the dotted key, its value, and the line the key is on.
    private mutating func keyValue() throws(ConfigError) -> (key: [String], value: ConfigValue, line: Int) {
        let keyLine = line
        let key = try dottedKey()
        skipSpaces()
        try expect("=", "after the key \(Self.display(key))")
        skipSpaces()
        // Each dot opens a table around the value: counted like the arrays and inline tables around it, so that
        // dotted keys (inside nested inline tables, too) cannot nest the document deeper than maximumConfigDepth
        // (a regression input of Fuzz/fuzz-toml).
        for _ in key.dropFirst() { try enter() }
        defer { for _ in key.dropFirst() { leave() } }
        return (key, try value(), keyLine)
    }

    /// Puts `value` at the full dotted `key` of the document; a table or array given as a value is sealed
    /// (no header may extend it later).
    private mutating func insert(_ value: ConfigValue, at key: [String], into root: inout ConfigTable, line: Int)
        throws(ConfigError)
    {
        if case .table = value.kind { sealed.insert(key) }
        if case .array = value.kind { sealed.insert(key) }
        try put(value, at: key, into: &root, line: line)
    }

    /// Puts `value` at the dotted `full` key below `root`, creating the tables on the way; a key already
    /// there is an error.
    private func put(_ value: ConfigValue, at full: [String], into root: inout ConfigTable, line: Int)
        throws(ConfigError)
    {
        let displayName = Self.display(full)
        let errorPath = path
        try withTable(at: Array(full.dropLast()), in: &root, line: line) { table throws(ConfigError) in
            guard table[full.last!] == nil else {
                throw ConfigError(path: errorPath, line: line, message: "key '\(displayName)' is defined twice")
            }
            table[full.last!] = value
        }
    }

    /// Runs `body` on the table at `path`, creating the missing tables (and entering the last element of an
    /// array of tables).
    private func withTable(
        at tablePath: [String], in table: inout ConfigTable, line: Int, _ body: (inout ConfigTable) throws(ConfigError) -> Void
    ) throws(ConfigError) {
        guard let first = tablePath.first else {
            try body(&table)
            return
        }
        var child = table[first] ?? ConfigValue(kind: .table(ConfigTable()), line: line)
        switch child.kind {
        case .table(var inner):
            try withTable(at: Array(tablePath.dropFirst()), in: &inner, line: line, body)
            child.kind = .table(inner)
        case .array(var elements):
            guard var last = elements.last, case .table(var inner) = last.kind else {
                throw error("\(Self.display([first])) is not a table", at: line)
            }
            try withTable(at: Array(tablePath.dropFirst()), in: &inner, line: line, body)
            last.kind = .table(inner)
            elements[elements.count - 1] = last
            child.kind = .array(elements)
        default:
            throw error("\(Self.display([first])) is \(child.kindName), not a table", at: line)
        }
        table[first] = child
    }

    private func appendTable(at key: [String], into root: inout ConfigTable, line: Int) throws(ConfigError) {
        let errorPath = path
        let displayName = Self.display(key)
        try withTable(at: Array(key.dropLast()), in: &root, line: line) { table throws(ConfigError) in
            var array = table[key.last!] ?? ConfigValue(kind: .array([]), line: line)
            guard case .array(var elements) = array.kind else {
                throw ConfigError(path: errorPath, line: line, message: "\(displayName) is \(array.kindName), not an array of tables")
            }
            elements.append(ConfigValue(kind: .table(ConfigTable()), line: line))
            array.kind = .array(elements)
            table[key.last!] = array
        }
    }

    // MARK: - Keys

    private mutating func dottedKey() throws(ConfigError) -> [String] {
        var parts = [try simpleKey()]
        while true {
            let save = (index, line)
            skipSpaces()
            guard peek() == "." else {
                (index, line) = save
                return parts
            }
            advance()
            skipSpaces()
            parts.append(try simpleKey())
            // A key of thousands of parts (a header's too) made the recursive `withTable` exhaust the stack, and
            // copying the path at each level took quadratic time and memory (Fuzz/fuzz-toml).
            guard parts.count <= maximumConfigDepth else { throw error("a key of more than \(maximumConfigDepth) parts") }
        }
    }

    private mutating func simpleKey() throws(ConfigError) -> String {
        switch peek() {
        case "\"": return try basicString()
        case "'": return try literalString()
        default:
            var key = ""
            while let scalar = peek(), Self.isBareKeyScalar(scalar) {
                key.unicodeScalars.append(scalar)
                advance()
            }
            guard !key.isEmpty else { throw error("expected a key, found \(describeNext())") }
            return key
        }
    }

    private static func isBareKeyScalar(_ scalar: Unicode.Scalar) -> Bool {
        ("A"..."Z").contains(scalar) || ("a"..."z").contains(scalar) || ("0"..."9").contains(scalar)
            || scalar == "_" || scalar == "-"
    }

    // MARK: - Values

    private mutating func value() throws(ConfigError) -> ConfigValue {
        let valueLine = line
        guard let scalar = peek() else { throw error("expected a value, found the end of the file") }
        let kind: ConfigValue.Kind
        switch scalar {
        case "\"": kind = .string(startsWith("\"\"\"") ? try multilineString(quote: "\"", basic: true) : try basicString())
        case "'": kind = .string(startsWith("'''") ? try multilineString(quote: "'", basic: false) : try literalString())
        case "[": kind = .array(try array())
        case "{": kind = .table(try inlineTable())
        case "t" where startsWith("true"): index += 4; kind = .boolean(true)
        case "f" where startsWith("false"): index += 5; kind = .boolean(false)
        default: kind = try number()
        }
        return ConfigValue(kind: kind, line: valueLine)
    }

    private mutating func array() throws(ConfigError) -> [ConfigValue] {
        try enter()
        defer { leave() }
        advance()
        var elements: [ConfigValue] = []
        while true {
            skipBlankAndComments()
            if peek() == "]" {
                advance()
                return elements
            }
            elements.append(try value())
            skipBlankAndComments()
            if peek() == "," {
                advance()
            } else if peek() != "]" {
                throw error("expected ',' or ']' in the array, found \(describeNext())")
            }
        }
    }

    private mutating func inlineTable() throws(ConfigError) -> ConfigTable {
        try enter()
        defer { leave() }
        advance()
        var table = ConfigTable()
        skipSpaces()
        if peek() == "}" {
            advance()
            return table
        }
        while true {
            skipSpaces()
            let (key, value, keyLine) = try keyValue()
            // An inline table is complete as written: nothing seals what is inside it.
            try put(value, at: key, into: &table, line: keyLine)
            skipSpaces()
            if peek() == "}" {
                advance()
                return table
            }
            // TOML 1.0: inline tables are on one line, without a trailing comma.
            try expect(",", "or '}' in the inline table")
        }
    }

    private mutating func number() throws(ConfigError) -> ConfigValue.Kind {
        var token = ""
        while let scalar = peek(), !" \t\r\n,]}#".unicodeScalars.contains(scalar) {
            token.unicodeScalars.append(scalar)
            advance()
        }
        guard !token.isEmpty else { throw error("expected a value, found \(describeNext())") }
        if let kind = Self.number(token) { return kind }
        if token.count >= 10, token.dropFirst(4).first == "-" || token.contains(":") {
            throw error("dates and times are not used in this file ('\(token)')")
        }
        throw error("'\(token)' is not a TOML value (a string needs quotes)")
    }

    /// A TOML integer or float, or nil.
    static func number(_ token: String) -> ConfigValue.Kind? {
        switch token {
        case "inf", "+inf": return .float(.infinity)
        case "-inf": return .float(-.infinity)
        case "nan", "+nan", "-nan": return .float(.nan)
        default: break
        }
        for (prefix, radix) in [("0x", 16), ("0o", 8), ("0b", 2)] where token.hasPrefix(prefix) {
            let digits = token.dropFirst(2)
            guard validUnderscores(digits), let value = Int(digits.replacing("_", with: ""), radix: radix) else { return nil }
            return .integer(value)
        }
        guard validUnderscores(token[...]) else { return nil }
        let plain = token.replacing("_", with: "")
        let unsigned = plain.hasPrefix("+") || plain.hasPrefix("-") ? plain.dropFirst() : plain[...]
        guard let first = unsigned.first, first.isASCII, first.isNumber else { return nil }
        // No leading zeros (TOML 1.0), except a lone 0 or 0.x.
        if unsigned.count > 1, first == "0", unsigned.dropFirst().first?.isNumber == true { return nil }
        if unsigned.allSatisfy({ $0.isASCII && $0.isNumber }) {
            return Int(plain).map { .integer($0) }
        }
        guard unsigned.allSatisfy({ $0.isASCII && ($0.isNumber || "eE+-.".contains($0)) }),
            !unsigned.hasSuffix("."), !unsigned.contains(".e"), !unsigned.contains(".E"),
            let value = Double(plain)
        else { return nil }
        return .float(value)
    }

    /// Underscores only between digits.
    private static func validUnderscores(_ token: Substring) -> Bool {
        let characters = Array(token)
        for (offset, character) in characters.enumerated() where character == "_" {
            guard offset > 0, offset < characters.count - 1, characters[offset - 1].isHexDigit,
                characters[offset + 1].isHexDigit
            else { return false }
        }
        return true
    }

    // MARK: - Strings

    private mutating func basicString() throws(ConfigError) -> String {
        advance()
        var result = ""
        while true {
            guard let scalar = peek(), scalar != "\n" else { throw error("the string is not closed on its line") }
            advance()
            switch scalar {
            case "\"": return result
            case "\\": result.unicodeScalars.append(try escape())
            default:
                guard Self.allowedInString(scalar) else { throw error("a control character in a string must be escaped") }
                result.unicodeScalars.append(scalar)
            }
        }
    }

    /// A `"""` (basic: escapes and line-ending backslashes) or `'''` (literal) string; a newline right
    /// after the opening delimiter is not part of it.
    private mutating func multilineString(quote: Unicode.Scalar, basic: Bool) throws(ConfigError) -> String {
        let delimiter = String(repeating: String(quote), count: 3)
        index += 3
        skipNewlineAtStart()
        var result = ""
        while true {
            guard let scalar = peek() else { throw error("the multi-line string is not closed") }
            if startsWith(delimiter) {
                index += 3
                // Up to two quotes may end the content right before the closing delimiter.
                var extra = 0
                while peek() == quote, extra < 2 {
                    result.unicodeScalars.append(quote)
                    advance()
                    extra += 1
                }
                return result
            }
            advance()
            switch scalar {
            case "\\" where basic:
                // A backslash at the end of a line trims the line break and the whitespace after it.
                let save = (index, line)
                skipSpaces()
                if peek() == "\n" || startsWith("\r\n") {
                    skipBlankLines()
                } else {
                    (index, line) = save
                    result.unicodeScalars.append(try escape())
                }
            default:
                if scalar == "\n" { line += 1 }
                guard Self.allowedInString(scalar) || scalar == "\n" || scalar == "\r" else {
                    throw error("a control character in a string must be escaped")
                }
                result.unicodeScalars.append(scalar)
            }
        }
    }

    private mutating func literalString() throws(ConfigError) -> String {
        advance()
        var result = ""
        while true {
            guard let scalar = peek(), scalar != "\n" else { throw error("the string is not closed on its line") }
            advance()
            if scalar == "'" { return result }
            guard Self.allowedInString(scalar) else { throw error("a literal string cannot hold control characters") }
            result.unicodeScalars.append(scalar)
        }
    }

    private mutating func escape() throws(ConfigError) -> Unicode.Scalar {
        guard let scalar = peek() else { throw error("the string ends inside an escape") }
        advance()
        switch scalar {
        case "b": return "\u{08}"
        case "t": return "\t"
        case "n": return "\n"
        case "f": return "\u{0C}"
        case "r": return "\r"
        case "e": return "\u{1B}"
        case "\"": return "\""
        case "\\": return "\\"
        case "u", "U":
            let count = scalar == "u" ? 4 : 8
            var hex = ""
            for _ in 0..<count {
                guard let digit = peek(), digit.properties.isASCIIHexDigit else {
                    throw error("\\\(scalar) needs \(count) hexadecimal digits")
                }
                hex.unicodeScalars.append(digit)
                advance()
            }
            guard let value = UInt32(hex, radix: 16), let decoded = Unicode.Scalar(value) else {
                throw error("\\\(scalar)\(hex) is not a Unicode scalar value")
            }
            return decoded
        default:
            throw error("'\\\(scalar)' is not a TOML escape")
        }
    }

    private static func allowedInString(_ scalar: Unicode.Scalar) -> Bool {
        scalar == "\t" || (scalar.value >= 0x20 && scalar.value != 0x7F)
    }

    private mutating func skipNewlineAtStart() {
        if peek() == "\n" {
            advance()
            line += 1
        } else if startsWith("\r\n") {
            index += 2
            line += 1
        }
    }

    // MARK: - Scanning

    private mutating func skipSpaces() {
        while peek() == " " || peek() == "\t" { advance() }
    }

    private mutating func skipBlankLines() {
        while let scalar = peek(), scalar == " " || scalar == "\t" || scalar == "\r" || scalar == "\n" {
            if scalar == "\n" { line += 1 }
            advance()
        }
    }

    /// Whitespace, newlines and comments.
    private mutating func skipBlankAndComments() {
        while true {
            skipBlankLines()
            guard peek() == "#" else { return }
            while let scalar = peek(), scalar != "\n" { advance() }
        }
    }

    /// After a value or header: spaces, an optional comment, then a newline or the end.
    private mutating func endOfLine() throws(ConfigError) {
        skipSpaces()
        if peek() == "#" {
            while let scalar = peek(), scalar != "\n" { advance() }
        }
        if peek() == "\r" { advance() }
        guard let scalar = peek() else { return }
        guard scalar == "\n" else { throw error("expected the end of the line, found \(describeNext())") }
        advance()
        line += 1
    }

    private mutating func expect(_ scalar: Unicode.Scalar, _ context: String) throws(ConfigError) {
        guard peek() == scalar else { throw error("expected '\(scalar)' \(context), found \(describeNext())") }
        advance()
    }

    static func display(_ key: [String]) -> String {
        key.map { $0.allSatisfy { isBareKeyScalarCharacter($0) } && !$0.isEmpty ? $0 : "\"\($0)\"" }.joined(separator: ".")
    }

    private static func isBareKeyScalarCharacter(_ character: Character) -> Bool {
        character.unicodeScalars.count == 1 && isBareKeyScalar(character.unicodeScalars.first!)
    }
}
