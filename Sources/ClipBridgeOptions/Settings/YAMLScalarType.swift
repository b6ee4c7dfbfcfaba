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
        if text.wholeMatch(of: nullForm) != nil { return .null }
        if text.wholeMatch(of: booleanForm) != nil { return .boolean }
        if text.wholeMatch(of: integerForm) != nil { return .integer }
        if text.wholeMatch(of: floatForm) != nil { return .float }
        if text.wholeMatch(of: timestampForm) != nil { return .timestamp }
        return .string
    }

    // https://yaml.org/type/null.html, bool.html (without the single letters y and n, as PyYAML and Yams),
    // int.html, float.html, timestamp.html.
    nonisolated(unsafe) static let nullForm = /~|null|Null|NULL|/
    nonisolated(unsafe) static let booleanForm = /yes|Yes|YES|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF/
    nonisolated(unsafe) static let integerForm =
        /[-+]?0b[0-1_]+|[-+]?0[0-7_]+|[-+]?(?:0|[1-9][0-9_]*)|[-+]?0x[0-9a-fA-F_]+|[-+]?[1-9][0-9_]*(?::[0-5]?[0-9])+/
    // Floats also with an exponent and no dot (`1e+20`, `25e-1`), as JSON writes them and Yams reads them.
    nonisolated(unsafe) static let floatForm =
        /[-+]?(?:\.[0-9]+|[0-9][0-9_]*(?:\.[0-9_]*)?)(?:[eE][-+]?[0-9]+)?|[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]*|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN)/
    nonisolated(unsafe) static let timestampForm =
        /[0-9]{4}-[0-9]{2}-[0-9]{2}|[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}(?:[Tt]|[ \t]+)[0-9]{1,2}:[0-9]{2}:[0-9]{2}(?:\.[0-9]*)?(?:[ \t]*(?:Z|[-+][0-9]{1,2}(?::[0-9]{2})?))?/

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
