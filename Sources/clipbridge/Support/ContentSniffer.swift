// ClipBridge — the clipbridge command-line tool.
// Content detection that never hides text.
//
// wl-copy asks libmagic for one MIME type and offers only that: PHP source becomes application/x-php
// and no GUI app can paste it (bugaevc/wl-clipboard#289), text that starts with "MM" becomes
// image/x-3ds (#266), PEM certificates become unpasteable (orbit-online/clipboard-wrapper). Here the
// sniffer only recognises binary formats by their full, unambiguous signatures, and separately
// decides whether the bytes are text; a caller offers the text family whenever they are.

/// What the first bytes of a payload look like.
struct ContentSniffer: Sendable {
    /// The MIME type of a binary format recognised by its signature, if any.
    var binaryMIMEType: String?
    /// True when the bytes read as text (valid UTF-8, no NUL, only ordinary control characters).
    var isTextLike: Bool

    /// Sniffs `prefix`, the first bytes of a payload whose full size is `size`.
    init(prefix: [UInt8], size: Int) {
        binaryMIMEType = Self.signature(of: prefix)
        // Decided independently of the signature: bytes that read as text are offered as text even
        // when they also start like some binary format.
        isTextLike = Self.looksLikeText(prefix, isComplete: prefix.count == size)
    }

    /// Signatures with at least four fixed bytes (or a structural check), so ordinary text never
    /// matches: "MM" alone is not TIFF, "BM" alone is not BMP.
    static func signature(of bytes: [UInt8]) -> String? {
        func starts(_ magic: [UInt8], at offset: Int = 0) -> Bool {
            bytes.count >= offset + magic.count && Array(bytes[offset..<offset + magic.count]) == magic
        }
        if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return "image/png" }
        if starts([0xFF, 0xD8, 0xFF]) { return "image/jpeg" }
        if starts(Array("GIF87a".utf8)) || starts(Array("GIF89a".utf8)) { return "image/gif" }
        if starts(Array("RIFF".utf8)) && starts(Array("WEBP".utf8), at: 8) { return "image/webp" }
        if starts([0x49, 0x49, 0x2A, 0x00]) || starts([0x4D, 0x4D, 0x00, 0x2A]) { return "image/tiff" }
        if starts(Array("ftyp".utf8), at: 4), bytes.count >= 12 {
            let brand = String(decoding: bytes[8..<12], as: UTF8.self)
            if brand == "avif" || brand == "avis" { return "image/avif" }
            if ["heic", "heix", "mif1", "msf1"].contains(brand) { return "image/heic" }
        }
        if starts([0x42, 0x4D]), bytes.count >= 14, bytes[6...9].allSatisfy({ $0 == 0 }) { return "image/bmp" }
        if starts([0x00, 0x00, 0x01, 0x00]) && bytes.count >= 6 && bytes[4] != 0 && bytes[5] == 0 {
            return "image/vnd.microsoft.icon"
        }
        if starts(Array("%PDF-".utf8)) { return "application/pdf" }
        if starts([0x50, 0x4B, 0x03, 0x04]) { return "application/zip" }
        if starts([0x1F, 0x8B, 0x08]) { return "application/gzip" }
        if starts([0xFD, 0x37, 0x7A, 0x58, 0x5A, 0x00]) { return "application/x-xz" }
        if starts(Array("OggS".utf8)) && starts([0x00], at: 4) { return "audio/ogg" }
        if starts(Array("fLaC".utf8)) && bytes.count > 4 && bytes[4] & 0x7F == 0 { return "audio/flac" }
        if starts(Array("ID3".utf8)) && bytes.count > 4 && (2...4).contains(bytes[3]) && bytes[4] == 0 {
            return "audio/mpeg"
        }
        if starts([0x1A, 0x45, 0xDF, 0xA3]) { return "video/webm" }
        if starts(Array("ftyp".utf8), at: 4) { return "video/mp4" }
        return nil
    }

    /// Valid UTF-8 with no NUL and no control characters other than tab, newlines, form feed, backspace
    /// and escape (terminal colour codes). A multi-byte sequence cut by the end of an incomplete prefix
    /// is not held against the text.
    static func looksLikeText(_ bytes: [UInt8], isComplete: Bool) -> Bool {
        var index = 0
        let count = bytes.count
        while index < count {
            let byte = bytes[index]
            if byte < 0x80 {
                if byte < 0x20 && ![0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x08, 0x1B].contains(byte) { return false }
                if byte == 0x7F { return false }
                index += 1
                continue
            }
            let length: Int
            switch byte {
            case 0xC2...0xDF: length = 2
            case 0xE0...0xEF: length = 3
            case 0xF0...0xF4: length = 4
            default: return false
            }
            if index + length > count { return !isComplete }
            for continuation in bytes[(index + 1)..<(index + length)] where continuation & 0xC0 != 0x80 { return false }
            // Overlong forms and surrogates (RFC 3629 §4).
            let second = bytes[index + 1]
            if byte == 0xE0 && second < 0xA0 { return false }
            if byte == 0xED && second > 0x9F { return false }
            if byte == 0xF0 && second < 0x90 { return false }
            if byte == 0xF4 && second > 0x8F { return false }
            index += length
        }
        return true
    }
}
