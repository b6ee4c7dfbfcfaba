// SPDX-License-Identifier: Apache-2.0

/// `String` transfers as plain text.
///
/// Export: `public.utf8-plain-text`, then `public.plain-text` (both UTF-8 bytes, no terminator).
/// Import: UTF-8 text (strict), UTF-16 and external UTF-16 text (byte-order mark honoured), and any other
/// plain text (UTF-8, else ISO 8859-1). Apple does not document the exact list; this is the plain-text
/// family Apple's pasteboard uses for strings.
extension String: Transferable {
    /// UTF-8 text first, then generic plain text; imports the whole plain-text family.
    public static var transferRepresentation: some TransferRepresentation {
        DataRepresentation(contentType: .utf8PlainText) { string in
            Data(string.utf8)
        } importing: { data in
            try TextDecoding.utf8(data)
        }
        DataRepresentation(contentType: .plainText) { string in
            Data(string.utf8)
        } importing: { data in
            TextDecoding.plainText(data)
        }
        DataRepresentation(importedContentType: .utf16PlainText) { data in
            try TextDecoding.utf16(data)
        }
        DataRepresentation(importedContentType: .utf16ExternalPlainText) { data in
            try TextDecoding.utf16External(data)
        }
    }
}
