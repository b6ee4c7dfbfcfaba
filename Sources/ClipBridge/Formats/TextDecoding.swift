// SPDX-License-Identifier: Apache-2.0
// ClipBridge — text encodings met on the X11 clipboard

import FoundationEssentials

/// Decoders for the text encodings X11 peers actually write.
///
/// - `STRING` is ISO-8859-1 (ICCCM §2.6.2), so every byte maps to the code point of the same value.
/// - Firefox and Chromium write `text/html` and `text/x-moz-url` as UTF-16 (little-endian, usually with no
///   byte-order mark); Qt detects them by a BOM or by zero bytes (`qxcbmime.cpp`, `mimeConvertToFormat`),
///   and so do we.
enum TextDecoding {
    /// ISO-8859-1 bytes as a String; never fails.
    static func latin1(_ data: Data) -> String {
        String(decoding: data.map { UInt16($0) }, as: UTF16.self)
    }

    /// UTF-16 with an optional byte-order mark; little-endian when there is none (what Firefox writes on x86).
    static func utf16(_ data: Data) -> String? {
        var bytes = [UInt8](data)
        var bigEndian = false
        if bytes.count >= 2 {
            if bytes[0] == 0xFF, bytes[1] == 0xFE {
                bytes.removeFirst(2)
            } else if bytes[0] == 0xFE, bytes[1] == 0xFF {
                bytes.removeFirst(2)
                bigEndian = true
            } else {
                bigEndian = looksBigEndian(bytes)
            }
        }
        guard bytes.count % 2 == 0 else { return nil }
        var units: [UInt16] = []
        units.reserveCapacity(bytes.count / 2)
        var index = 0
        while index < bytes.count {
            let first = UInt16(bytes[index])
            let second = UInt16(bytes[index + 1])
            units.append(bigEndian ? (first << 8 | second) : (second << 8 | first))
            index += 2
        }
        var text = ""
        var iterator = units.makeIterator()
        var decoder = UTF16()
        loop: while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar): text.unicodeScalars.append(scalar)
            case .emptyInput: break loop
            case .error: return nil
            }
        }
        return text
    }

    /// True when the bytes look like UTF-16: a byte-order mark, or a zero byte in the first few code units
    /// (ASCII text in UTF-16 has one zero byte per character; UTF-8 text never contains zero bytes).
    static func looksLikeUTF16(_ data: Data) -> Bool {
        guard data.count >= 2 else { return false }
        let head = data.prefix(2)
        if head == Data([0xFF, 0xFE]) || head == Data([0xFE, 0xFF]) { return true }
        return data.count % 2 == 0 && data.prefix(64).contains(0)
    }

    /// Text in UTF-8, or UTF-16 when it looks like UTF-16, as a String; invalid UTF-8 is repaired with U+FFFD
    /// rather than refused, because a partly broken paste is more useful than none.
    static func autodetected(_ data: Data) -> String {
        // Some owners NUL-terminate text (xsel reads with strlen, old Motif apps append a NUL), in either
        // encoding: every trailing NUL goes, as for UTF-8 (UTF-16 kept all but one, found by the fuzzing review).
        var text = looksLikeUTF16(data) ? utf16(data) ?? String(decoding: data, as: UTF8.self) : String(decoding: data, as: UTF8.self)
        while text.hasSuffix("\0") { text.removeLast() }
        return text
    }

    /// Strict UTF-8 decoding; nil for invalid input.
    static func utf8(_ data: Data) -> String? {
        String(validating: data, as: UTF8.self)
    }

    /// UTF-16 little-endian bytes without a byte-order mark (what Firefox and Qt put in `text/x-moz-url`).
    static func utf16LittleEndian(_ text: String) -> Data {
        var data = Data(capacity: text.utf16.count * 2)
        for unit in text.utf16 {
            data.append(UInt8(unit & 0xFF))
            data.append(UInt8(unit >> 8))
        }
        return data
    }

    private static func looksBigEndian(_ bytes: [UInt8]) -> Bool {
        // ASCII-range text: "a\0" (LE) vs "\0a" (BE). Count zeros at even and odd positions.
        var evenZeros = 0
        var oddZeros = 0
        for (offset, byte) in bytes.prefix(64).enumerated() where byte == 0 {
            if offset % 2 == 0 { evenZeros += 1 } else { oddZeros += 1 }
        }
        return evenZeros > oddZeros
    }
}
