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
    ///
    /// Works on UTF-8 bytes: this runs for every tag lookup, and every MIME type of the grammar is ASCII.
    init?(_ string: String) {
        let bytes = Array(string.utf8)
        var pieces = Self.split(bytes[...], at: UInt8(ascii: ";"))
        let essence = Self.trim(pieces.removeFirst())
        guard let slash = essence.firstIndex(of: UInt8(ascii: "/")) else { return nil }
        let typeBytes = essence[..<slash]
        let subtypeBytes = essence[(slash + 1)...]
        guard Self.isToken(typeBytes), Self.isToken(subtypeBytes) else { return nil }
        type = Self.lowercasedString(typeBytes)
        subtype = Self.lowercasedString(subtypeBytes)
        parameters = []
        for rawPiece in pieces {
            let piece = Self.trim(rawPiece)
            if piece.isEmpty { continue }
            guard let equals = piece.firstIndex(of: UInt8(ascii: "=")) else { return nil }
            let nameBytes = Self.trim(piece[..<equals])
            var valueBytes = Self.trim(piece[(equals + 1)...])
            if valueBytes.count >= 2, valueBytes.first == UInt8(ascii: "\""), valueBytes.last == UInt8(ascii: "\"") {
                valueBytes = valueBytes.dropFirst().dropLast()
            }
            guard Self.isToken(nameBytes) else { return nil }
            let name = Self.lowercasedString(nameBytes)
            var value = String(decoding: valueBytes, as: UTF8.self)
            if name == "charset" { value = Self.canonicalCharset(Self.lowercasedString(valueBytes)) }
            parameters.append((name, value))
        }
    }

    private static func split(_ bytes: ArraySlice<UInt8>, at separator: UInt8) -> [ArraySlice<UInt8>] {
        var result: [ArraySlice<UInt8>] = []
        var start = bytes.startIndex
        for index in bytes.indices where bytes[index] == separator {
            result.append(bytes[start..<index])
            start = index + 1
        }
        result.append(bytes[start...])
        return result
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    private static func trim(_ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        var slice = bytes
        while let first = slice.first, isSpace(first) { slice = slice.dropFirst() }
        while let last = slice.last, isSpace(last) { slice = slice.dropLast() }
        return slice
    }

    private static func lowercasedString(_ bytes: ArraySlice<UInt8>) -> String {
        String(decoding: bytes.map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 0x20 : $0 }, as: UTF8.self)
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
    static func key(_ string: String) -> String? {
        isCanonicalEssence(string) ? string : MIMEType(string)?.canonical
    }

    /// Whether `string` is already its own canonical key: `type/subtype` of lower-case tokens, no
    /// parameters, no spaces. Every built-in tag and most X targets are; recognising them without the
    /// full parse (arrays, slices, new strings) is most of the cost of building the tag index at start-up.
    private static func isCanonicalEssence(_ string: String) -> Bool {
        var slashes = 0
        var previous: UInt8 = UInt8(ascii: "/")
        for byte in string.utf8 {
            if byte == UInt8(ascii: "/") {
                // An empty type (leading slash) or a second slash: not a canonical essence.
                if previous == UInt8(ascii: "/") || slashes == 1 { return false }
                slashes += 1
            } else if byte >= 0x41 && byte <= 0x5A {
                return false
            } else if !isTokenByte(byte) {
                return false
            }
            previous = byte
        }
        // An empty subtype (trailing slash) is not one either.
        return slashes == 1 && previous != UInt8(ascii: "/")
    }

    /// Charset names are case-insensitive (RFC 2046 §4.1.2, lower-cased by the caller); `utf8` is a
    /// frequent misspelling.
    private static func canonicalCharset(_ lowered: String) -> String {
        switch lowered {
        case "utf8": return "utf-8"
        case "utf16": return "utf-16"
        default: return lowered
        }
    }

    /// RFC 2045 token: printable ASCII without spaces and tspecials.
    private static func isToken(_ bytes: ArraySlice<UInt8>) -> Bool {
        !bytes.isEmpty && bytes.allSatisfy(isTokenByte)
    }

    /// A byte of an RFC 2045 token.
    private static func isTokenByte(_ byte: UInt8) -> Bool {
        guard byte > 0x20, byte < 0x7F else { return false }
        switch byte {
        case UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "@"),
            UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: ":"), UInt8(ascii: "\\"), UInt8(ascii: "\""),
            UInt8(ascii: "/"), UInt8(ascii: "["), UInt8(ascii: "]"), UInt8(ascii: "?"), UInt8(ascii: "="):
            return false
        default:
            return true
        }
    }
}
