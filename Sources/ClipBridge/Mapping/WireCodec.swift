// SPDX-License-Identifier: Apache-2.0
// ClipBridge — from wire bytes to canonical bytes, and back

import FoundationEssentials
import UniformTypes
import X11Selection

/// How the bytes of one target are written on the wire, and how they become the *canonical* bytes of its
/// content type (the form importers and converters see: UTF-8 text, `text/uri-list` text, raw bytes).
/// Which target uses which codec is the table's to say (`TargetMapping.codec(for:)`).
enum WireCodec: Equatable {
    /// Bytes as they are (images, JSON, custom types, x-color).
    case bytes
    /// UTF-8 text (`UTF8_STRING`, `text/plain;charset=utf-8`); trailing NULs dropped.
    case utf8Text
    /// ISO-8859-1 text, as a charset label declares it (`text/plain;charset=iso-8859-1`).
    case latin1Text
    /// Text whose encoding the owner's label does not settle: UTF-8 when the bytes are valid UTF-8, else
    /// Latin-1 (Latin-1 text that is also valid multi-byte UTF-8, `Ã©` and the like, is all but unheard of).
    /// - `STRING` (ICCCM §2.6.2 says Latin-1): xsel 1.2 in a non-UTF-8 locale offers only STRING and TEXT and
    ///   fills both with the UTF-8 bytes it was given.
    /// - `text/plain` with no charset: Qt writes UTF-8, GTK ASCII, ClipBridge and xsel Latin-1.
    case utf8OrLatin1Text
    /// `TEXT` / `COMPOUND_TEXT`: the reply's property type says the encoding (ICCCM §2.7.1).
    case x11Text
    /// Text that may be UTF-16 (Firefox's `text/html`, `text/uri-list`; Qt detects the same way).
    case autodetectedText
    /// Always UTF-16 (`text/x-moz-url`, `text/plain;charset=utf-16` is left to the UTF-16 converter).
    case utf16Text
    /// Text in a named charset that glibc's iconv can decode (`text/plain;charset=iso-8859-15`).
    case charset(String)

    /// Canonical bytes from wire bytes; `propertyType` is the type the owner wrote (it matters for TEXT).
    /// Returns nil for `COMPOUND_TEXT` with non-ASCII content, which only Xlib can decode (the caller then
    /// asks the engine's `readText`).
    func decode(_ data: Data, propertyType: SelectionTarget) -> Data? {
        switch self {
        case .bytes:
            return data
        case .utf8Text:
            return Data(Self.trimmingNULs(String(decoding: data, as: UTF8.self)).utf8)
        case .latin1Text:
            return Data(Self.trimmingNULs(TextDecoding.latin1(data)).utf8)
        case .utf8OrLatin1Text:
            if let text = TextDecoding.utf8(data) { return Data(Self.trimmingNULs(text).utf8) }
            return Data(Self.trimmingNULs(TextDecoding.latin1(data)).utf8)
        case .x11Text:
            switch propertyType {
            case .utf8String: return WireCodec.utf8Text.decode(data, propertyType: propertyType)
            case .string: return WireCodec.utf8OrLatin1Text.decode(data, propertyType: propertyType)
            case .compoundText:
                // COMPOUND_TEXT is ASCII until its first escape sequence (ECMA-35); pure ASCII needs no Xlib.
                guard data.allSatisfy({ $0 < 0x80 && $0 != 0x1B }) else { return nil }
                return WireCodec.utf8Text.decode(data, propertyType: propertyType)
            default:
                // A type that names no encoding (xclip -t TEXT writes its input typed TEXT): as for STRING, UTF-8
                // when the bytes are, else Latin-1 — what ICCCM's TEXT falls back to. No escape sequence: an ISO
                // 2022 text under another type name is still left to Xlib.
                return data.contains(0x1B) ? nil : WireCodec.utf8OrLatin1Text.decode(data, propertyType: propertyType)
            }
        case .autodetectedText:
            return Data(TextDecoding.autodetected(data).utf8)
        case .utf16Text:
            return Data(Self.trimmingNULs(TextDecoding.utf16(data) ?? TextDecoding.autodetected(data)).utf8)
        case .charset(let charset):
            guard let text = CharsetDecoding.decode(data, charset: charset) else { return nil }
            return Data(Self.trimmingNULs(text).utf8)
        }
    }

    private static func trimmingNULs(_ text: String) -> String {
        var text = text
        while text.hasSuffix("\0") { text.removeLast() }
        return text
    }
}
