// SPDX-License-Identifier: Apache-2.0

/// Decoding of the plain-text family of content types, shared by `String`, `URL` and `AttributedString`.
enum TextDecoding {
    /// `public.utf8-plain-text`: strict UTF-8 (a leading byte-order mark is dropped). Invalid bytes are an
    /// error rather than U+FFFD, so a mislabelled payload is reported instead of silently corrupted.
    static func utf8(_ data: Data, contentType: UTType = .utf8PlainText) throws -> String {
        var bytes = data[...]
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        guard let string = String(validating: bytes, as: UTF8.self) else {
            throw TransferError(
                .decodingFailed, "the \(contentType.identifier) content is not valid UTF-8",
                contentType: contentType
            )
        }
        return string
    }

    /// `public.plain-text` with no declared encoding: UTF-8 when the bytes are valid UTF-8, else
    /// ISO 8859-1. X11's legacy `STRING` and many `text/plain` producers use Latin-1 (ICCCM §2.6.2), and
    /// Latin-1 maps every byte, so this never fails.
    static func plainText(_ data: Data) -> String {
        if let string = try? utf8(data, contentType: .plainText) { return string }
        return String(data.map { Character(Unicode.Scalar($0)) })
    }

    /// `public.utf16-plain-text`: UTF-16 in native byte order, honouring a byte-order mark if present.
    static func utf16(_ data: Data, contentType: UTType = .utf16PlainText) throws -> String {
        try utf16(data, contentType: contentType, defaultBigEndian: UInt16(1).bigEndian == 1)
    }

    /// `public.utf16-external-plain-text`: UTF-16 with a byte-order mark, big-endian when it has none
    /// (the Unicode standard's default for unmarked external UTF-16).
    static func utf16External(_ data: Data) throws -> String {
        try utf16(data, contentType: .utf16ExternalPlainText, defaultBigEndian: true)
    }

    private static func utf16(_ data: Data, contentType: UTType, defaultBigEndian: Bool) throws -> String {
        guard data.count.isMultiple(of: 2) else {
            throw TransferError(
                .decodingFailed, "the \(contentType.identifier) content has an odd number of bytes",
                contentType: contentType
            )
        }
        var bytes = Array(data)
        var bigEndian = defaultBigEndian
        if bytes.starts(with: [0xFE, 0xFF]) {
            bigEndian = true
            bytes.removeFirst(2)
        } else if bytes.starts(with: [0xFF, 0xFE]) {
            bigEndian = false
            bytes.removeFirst(2)
        }
        var units: [UInt16] = []
        units.reserveCapacity(bytes.count / 2)
        for index in stride(from: 0, to: bytes.count, by: 2) {
            let first = UInt16(bytes[index])
            let second = UInt16(bytes[index + 1])
            units.append(bigEndian ? first << 8 | second : second << 8 | first)
        }
        guard let string = String(validating: units, as: UTF16.self) else {
            throw TransferError(
                .decodingFailed, "the \(contentType.identifier) content is not valid UTF-16",
                contentType: contentType
            )
        }
        return string
    }
}
