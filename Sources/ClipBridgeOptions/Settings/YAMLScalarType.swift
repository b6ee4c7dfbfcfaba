// ClipBridge — the clipbridge command-line tool's option values.
// The type YAML 1.1 gives a scalar, as libyaml's own users (PyYAML, Yams) resolve it.

/// The type of a scalar: a quoted one is a string; a plain one is resolved by YAML 1.1's implicit types
/// (https://yaml.org/type/: null, bool, int, float, timestamp), so `64` is an integer, `"64"` a string, `yes`
/// and `on` booleans and `1:30` the sexagesimal integer 90. An explicit tag (`!!str 64`) wins.
public enum YAMLScalarType: Sendable, Equatable {
    /// A string.
    case string
    /// An integer.
    case integer
    /// A number with a fraction (or infinity, NaN).
    case float
    /// true or false (also yes/no, on/off).
    case boolean
    /// null, ~ or nothing.
    case null
    /// A date, or a date and time.
    case timestamp
    /// A tag of another kind (its name).
    case other(String)

    static func resolve(_ text: String, tag: String?, plain: Bool) -> YAMLScalarType {
        if let tag, tag != "!" {
            switch tag {
            case "tag:yaml.org,2002:str": return .string
            case "tag:yaml.org,2002:int": return .integer
            case "tag:yaml.org,2002:float": return .float
            case "tag:yaml.org,2002:bool": return .boolean
            case "tag:yaml.org,2002:null": return .null
            case "tag:yaml.org,2002:timestamp": return .timestamp
            default: return .other(tag)
            }
        }
        guard plain, tag == nil else { return .string }
        let bytes = Array(text.utf8)
        if nullForms.contains(text) { return .null }
        if booleanForms.contains(text) { return .boolean }
        if isInteger(bytes[...]) { return .integer }
        if isFloat(bytes[...]) { return .float }
        if isTimestamp(bytes) { return .timestamp }
        return .string
    }

    // The forms of https://yaml.org/type/ — null.html, bool.html (without the single letters y and n, as PyYAML
    // and Yams), int.html, float.html (also with an exponent and no dot, `1e+20`, as JSON writes numbers),
    // timestamp.html — matched by hand, in one pass over the bytes.
    static let nullForms: Set<String> = ["~", "null", "Null", "NULL", ""]
    static let booleanForms: Set<String> = [
        "yes", "Yes", "YES", "no", "No", "NO", "true", "True", "TRUE", "false", "False", "FALSE",
        "on", "On", "ON", "off", "Off", "OFF",
    ]

    private static func isDigit(_ byte: UInt8, radix: Int = 10) -> Bool {
        switch radix {
        case 2: byte == UInt8(ascii: "0") || byte == UInt8(ascii: "1")
        case 8: (UInt8(ascii: "0")...UInt8(ascii: "7")).contains(byte)
        case 16: (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
            || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(byte)
        default: (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
        }
    }

    /// Digits of `radix` and `_`, at least one byte.
    private static func isDigits(_ bytes: ArraySlice<UInt8>, radix: Int = 10) -> Bool {
        !bytes.isEmpty && bytes.allSatisfy { $0 == UInt8(ascii: "_") || isDigit($0, radix: radix) }
    }

    private static func droppingSign(_ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        guard let first = bytes.first, first == UInt8(ascii: "-") || first == UInt8(ascii: "+") else { return bytes }
        return bytes.dropFirst()
    }

    /// `:` groups after a first one of digits: `1:30`, `190:20:30` (each later group `[0-5]?[0-9]`).
    private static func isSexagesimal(_ bytes: ArraySlice<UInt8>) -> Bool {
        let groups = bytes.split(separator: UInt8(ascii: ":"), omittingEmptySubsequences: false)
        guard groups.count > 1, let first = groups.first, let lead = first.first, lead != UInt8(ascii: "0"),
            isDigits(first)
        else { return false }
        return groups.dropFirst().allSatisfy { group in
            (1...2).contains(group.count) && group.allSatisfy { isDigit($0) }
                && (group.count == 1 || group.first! <= UInt8(ascii: "5"))
        }
    }

    static func isInteger(_ text: ArraySlice<UInt8>) -> Bool {
        let bytes = droppingSign(text)
        guard let first = bytes.first, first != UInt8(ascii: "_") else { return false }
        if bytes.starts(with: Array("0b".utf8)) { return isDigits(bytes.dropFirst(2), radix: 2) }
        if bytes.starts(with: Array("0x".utf8)) { return isDigits(bytes.dropFirst(2), radix: 16) }
        if bytes.contains(UInt8(ascii: ":")) { return isSexagesimal(bytes) }
        if first == UInt8(ascii: "0") { return bytes.count == 1 || isDigits(bytes.dropFirst(), radix: 8) }
        return isDigits(bytes)
    }

    static func isFloat(_ text: ArraySlice<UInt8>) -> Bool {
        let bytes = droppingSign(text)
        let word = String(decoding: bytes, as: UTF8.self)
        if [".inf", ".Inf", ".INF"].contains(word) { return true }
        if [".nan", ".NaN", ".NAN"].contains(word) { return text.first != UInt8(ascii: "-") && text.first != UInt8(ascii: "+") }
        // Sexagesimal: `190:20:30.15`.
        if bytes.contains(UInt8(ascii: ":")) {
            guard let dot = bytes.firstIndex(of: UInt8(ascii: ".")) else { return false }
            let fraction = bytes[(dot + 1)...]
            return isSexagesimal(bytes[..<dot]) && (fraction.isEmpty || isDigits(fraction))
        }
        // Mantissa, then an optional exponent.
        var mantissa = bytes
        if let e = bytes.firstIndex(where: { $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") }) {
            let exponent = droppingSign(bytes[(e + 1)...])
            guard !exponent.isEmpty, exponent.allSatisfy({ isDigit($0) }) else { return false }
            mantissa = bytes[..<e]
        }
        guard let first = mantissa.first else { return false }
        if first == UInt8(ascii: ".") {
            let digits = mantissa.dropFirst()
            return !digits.isEmpty && digits.allSatisfy { isDigit($0) }
        }
        guard isDigit(first) else { return false }
        let parts = mantissa.split(separator: UInt8(ascii: "."), maxSplits: 1, omittingEmptySubsequences: false)
        guard isDigits(parts[0]) else { return false }
        return parts.count == 1 || parts[1].isEmpty || isDigits(parts[1])
    }

    /// A date (`2001-12-14`) or a date and time (`2001-12-14t21:59:43.10-05:00`, `2001-12-14 21:59:43.10 -5`):
    /// the date, then `T`, `t` or blanks and a time; what follows the time is not looked at.
    static func isTimestamp(_ bytes: [UInt8]) -> Bool {
        let parts = bytes.prefix { $0 != UInt8(ascii: "T") && $0 != UInt8(ascii: "t") && $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\t") }
        let fields = parts.split(separator: UInt8(ascii: "-"), omittingEmptySubsequences: false)
        guard fields.count == 3, fields[0].count == 4, (1...2).contains(fields[1].count), (1...2).contains(fields[2].count),
            fields.allSatisfy({ $0.allSatisfy { isDigit($0) } })
        else { return false }
        if parts.count == bytes.count { return fields[1].count == 2 && fields[2].count == 2 }
        let rest = bytes[parts.count...].drop { $0 == UInt8(ascii: "T") || $0 == UInt8(ascii: "t") || $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
        let clock = rest.prefix { $0 != UInt8(ascii: ".") && $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "Z") && $0 != UInt8(ascii: "+") && $0 != UInt8(ascii: "-") }
        let time = clock.split(separator: UInt8(ascii: ":"), omittingEmptySubsequences: false)
        return time.count == 3 && (1...2).contains(time[0].count) && time[1].count == 2 && time[2].count == 2
            && time.allSatisfy { $0.allSatisfy { isDigit($0) } }
    }

    /// The integer a plain scalar of type ``integer`` writes (binary, octal, decimal, hexadecimal or
    /// sexagesimal, with `_` separators); nil when out of range.
    static func integer(_ text: String) -> Int? {
        var digits = text.filter { $0 != "_" }
        var negative = false
        if let sign = digits.first, sign == "-" || sign == "+" {
            negative = sign == "-"
            digits.removeFirst()
        }
        let magnitude: Int?
        if digits.hasPrefix("0b") {
            magnitude = Int(digits.dropFirst(2), radix: 2)
        } else if digits.hasPrefix("0x") {
            magnitude = Int(digits.dropFirst(2), radix: 16)
        } else if digits.contains(":") {
            magnitude = digits.split(separator: ":").reduce(Int?(0)) { total, part in
                guard let total, let part = Int(part) else { return nil }
                let (shifted, overflow) = total.multipliedReportingOverflow(by: 60)
                let (sum, overflowSum) = shifted.addingReportingOverflow(part)
                return overflow || overflowSum ? nil : sum
            }
        } else if digits.count > 1, digits.hasPrefix("0") {
            magnitude = Int(digits.dropFirst(), radix: 8)
        } else {
            magnitude = Int(digits)
        }
        guard let magnitude else { return nil }
        return negative ? -magnitude : magnitude
    }

    /// The number a plain scalar of type ``float`` writes.
    static func float(_ text: String) -> Double? {
        let digits = text.filter { $0 != "_" }
        switch digits {
        case ".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF": return .infinity
        case "-.inf", "-.Inf", "-.INF": return -.infinity
        case ".nan", ".NaN", ".NAN": return .nan
        default: break
        }
        if digits.contains(":") {
            var negative = false
            var body = Substring(digits)
            if let sign = body.first, sign == "-" || sign == "+" {
                negative = sign == "-"
                body = body.dropFirst()
            }
            var total = 0.0
            for part in body.split(separator: ":") {
                guard let value = Double(part) else { return nil }
                total = total * 60 + value
            }
            return negative ? -total : total
        }
        return Double(digits)
    }

    /// The boolean a plain scalar of type ``boolean`` writes.
    static func boolean(_ text: String) -> Bool? {
        switch text.lowercased() {
        case "yes", "true", "on": true
        case "no", "false", "off": false
        default: nil
        }
    }
}
