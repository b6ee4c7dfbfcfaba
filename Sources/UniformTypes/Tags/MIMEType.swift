// SPDX-License-Identifier: Apache-2.0
// ClipBridge — UniformTypes

/// A parsed MIME type (RFC 2045 §5.1 / RFC 6838), used as the key of every MIME lookup.
///
/// X11 peers spell the same type many ways — `text/plain;charset=utf-8` (GTK),
/// `text/plain; charset=UTF-8` (Qt, Firefox), `text/plain;charset="utf-8"` — so lookups compare the
/// canonical form: type, subtype and parameter names lower-cased, whitespace dropped, quotes removed,
/// and `charset` values lower-cased with the common unhyphenated spellings (`utf8`, `utf16`) fixed.
struct MIMEType: Hashable, Sendable {
    /// `text` in `text/plain`.
    var type: String
    /// `plain` in `text/plain`.
    var subtype: String
    /// Parameters in their original order, canonicalised.
    var parameters: [(name: String, value: String)]

    /// Parses `string`; `nil` when it is not `type/subtype[;name=value]*`.
    init?(_ string: String) {
        var pieces = string.split(separator: ";", omittingEmptySubsequences: false).map {
            $0.trimmingWhitespace()
        }
        let essence = pieces.removeFirst()
        let halves = essence.split(separator: "/", omittingEmptySubsequences: false)
        guard halves.count == 2, Self.isToken(halves[0]), Self.isToken(halves[1]) else { return nil }
        type = halves[0].lowercased()
        subtype = halves[1].lowercased()
        parameters = []
        for piece in pieces where !piece.isEmpty {
            guard let equals = piece.firstIndex(of: "=") else { return nil }
            let name = piece[..<equals].trimmingWhitespace().lowercased()
            var value = piece[piece.index(after: equals)...].trimmingWhitespace()
            if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") {
                value = String(value.dropFirst().dropLast())
            }
            guard Self.isToken(Substring(name)) else { return nil }
            if name == "charset" { value = Self.canonicalCharset(value) }
            parameters.append((name, value))
        }
    }

    /// `type/subtype`, lower-cased, without parameters.
    var essence: String { "\(type)/\(subtype)" }

    /// The canonical spelling: `type/subtype;name=value;…`.
    var canonical: String {
        parameters.reduce(essence) { "\($0);\($1.name)=\($1.value)" }
    }

    /// The value of the `charset` parameter, canonicalised, if any.
    var charset: String? { parameters.first { $0.name == "charset" }?.value }

    static func == (lhs: MIMEType, rhs: MIMEType) -> Bool { lhs.canonical == rhs.canonical }
    func hash(into hasher: inout Hasher) { hasher.combine(canonical) }

    /// The canonical lookup key for a MIME string, or `nil` if it is malformed.
    static func key(_ string: String) -> String? { MIMEType(string)?.canonical }

    /// Charset names are case-insensitive (RFC 2046 §4.1.2); `utf8` is a frequent misspelling.
    private static func canonicalCharset(_ value: String) -> String {
        let lowered = value.lowercased()
        switch lowered {
        case "utf8": return "utf-8"
        case "utf16": return "utf-16"
        default: return lowered
        }
    }

    /// RFC 2045 token: printable ASCII without spaces and tspecials.
    private static func isToken(_ text: Substring) -> Bool {
        !text.isEmpty && text.unicodeScalars.allSatisfy { scalar in
            scalar.value > 0x20 && scalar.value < 0x7F && !"()<>@,;:\\\"/[]?=".unicodeScalars.contains(scalar)
        }
    }
}

extension StringProtocol {
    /// The text without leading and trailing spaces and tabs.
    func trimmingWhitespace() -> String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
        guard let first = firstIndex(where: { !isSpace($0) }) else { return "" }
        let last = lastIndex(where: { !isSpace($0) })!
        return String(self[first...last])
    }
}
