import FoundationEssentials

/// The pure text conversions of the text targets (ICCCM 2.7.1). COMPOUND_TEXT and TEXT go through Xlib
/// (`XDisplay.encodeText` / `decodeText`) and are not here.
package enum TextEncodings {
    /// ISO-8859-1 bytes of `text`, or nil when a character lies outside Latin-1 (U+0000–U+00FF).
    /// Never substitutes: the caller decides what to do (the offer then omits STRING).
    package static func latin1(_ text: String) -> Data? {
        var bytes = Data()
        bytes.reserveCapacity(text.unicodeScalars.count)
        for scalar in text.unicodeScalars {
            guard scalar.value <= 0xFF else { return nil }
            bytes.append(UInt8(scalar.value))
        }
        return bytes
    }

    /// COMPOUND_TEXT for text Xlib would encode as plain ISO-8859-1 bytes, computed without Xlib; nil for
    /// any other text (the caller then asks Xlib). Compound Text starts with ASCII in GL and the right half
    /// of Latin-1 in GR, so text made of tab, newline, printable ASCII and U+00A0–U+00FF is its own
    /// encoding — byte for byte what `Xutf8TextListToTextProperty(XCompoundTextStyle)` returns (checked in
    /// the tests against Xlib). Other controls are left to Xlib, which drops them. Xlib's conversion
    /// switches the locale and loads its converters, a visible cost in a short-lived server.
    static func compoundTextWithoutXlib(_ text: String) -> Data? {
        var bytes = Data()
        bytes.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            let value = scalar.value
            guard value == 0x09 || value == 0x0A || (0x20...0x7E).contains(value) || (0xA0...0xFF).contains(value)
            else { return nil }
            bytes.append(UInt8(value))
        }
        return bytes
    }

    /// Decodes ISO-8859-1 (every byte is the code point of the same value).
    static func fromLatin1(_ bytes: Data) -> String {
        var scalars = String.UnicodeScalarView()
        scalars.reserveCapacity(bytes.count)
        for byte in bytes {
            scalars.append(Unicode.Scalar(byte))
        }
        return String(scalars)
    }

    /// Decodes UTF-8, or nil when the bytes are not valid UTF-8.
    static func fromUTF8(_ bytes: Data) -> String? {
        String(validating: bytes, as: UTF8.self)
    }

    /// How `readText` decodes the reply of a text target.
    enum Decoding: Equatable {
        case utf8
        case latin1
        /// COMPOUND_TEXT, or TEXT whose reply type is COMPOUND_TEXT: Xlib converts.
        case xlib
    }

    /// The text targets `readText` tries among `offered`, in `TextReadOrder`: every text target
    /// it can decode (the X text family, UTF-8 and bare `text/plain`); `text/plain` in another charset is left
    /// to the clipboard layer's charset converters.
    static func readOrder(_ offered: [SelectionTarget]) -> [SelectionTarget] {
        TextReadOrder.ranked(offered).filter { target in
            guard let charset = TextReadOrder.plainTextCharset(of: target) else { return true }
            return isUTF8(charset) || charset.isEmpty
        }
    }

    /// How to decode a reply of `type` for `target`: by the reply's type where it names an encoding (TEXT's
    /// owner chooses one), else by the target.
    static func decoding(target: SelectionTarget, type: SelectionTarget) -> Decoding {
        if let decoding = named(by: type) { return decoding }
        if let decoding = named(by: target) { return decoding }
        return target == .text ? .xlib : .latin1
    }

    /// The decoding a type's name states, or nil when it states none (bare `text/plain`, an unknown name).
    private static func named(by type: SelectionTarget) -> Decoding? {
        switch type {
        case .utf8String: return .utf8
        case .compoundText: return .xlib
        case .string: return .latin1
        default: return TextReadOrder.plainTextCharset(of: type).flatMap { isUTF8($0) ? .utf8 : nil }
        }
    }

    private static func isUTF8(_ charset: String) -> Bool { charset == "utf-8" || charset == "utf8" }
}
