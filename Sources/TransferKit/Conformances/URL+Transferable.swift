// SPDX-License-Identifier: Apache-2.0

/// `URL` transfers as a URL, and as text for receivers that only take text.
///
/// Export, in order: `public.file-url` (file URLs only), `public.url`, then the absolute string as
/// `String` does (`public.utf8-plain-text`, `public.plain-text`). The URL types carry the absolute
/// string in UTF-8, as Apple's pasteboard does. Import accepts the same types; URL payloads may be in
/// `text/uri-list` form (RFC 2483: `#` comment lines, CRLF separators), in which case the first URL is
/// taken. Text imports only when it is a single absolute URL (it must have a scheme).
extension URL: Transferable {
    /// File URL, URL, then text.
    public static var transferRepresentation: some TransferRepresentation {
        DataRepresentation(contentType: .fileURL) { url in
            Data(url.absoluteString.utf8)
        } importing: { data in
            let url = try URLParsing.firstURL(in: data, contentType: .fileURL)
            guard url.isFileURL else {
                throw TransferError(
                    .decodingFailed, "\(url.absoluteString) is not a file URL", contentType: .fileURL
                )
            }
            return url
        }
        .exportingCondition { url in url.isFileURL }
        DataRepresentation(contentType: .url) { url in
            Data(url.absoluteString.utf8)
        } importing: { data in
            try URLParsing.firstURL(in: data, contentType: .url)
        }
        ProxyRepresentation(exporting: \.absoluteString) { (string: String) in
            try URLParsing.url(fromText: string)
        }
    }
}

/// Parsing of URL payloads.
enum URLParsing {
    /// The first URL of a URL payload (one URL, or a `text/uri-list`).
    static func firstURL(in data: Data, contentType: UTType) throws -> URL {
        let text = try TextDecoding.utf8(data, contentType: contentType)
        let lines = text.split(whereSeparator: \.isNewline)
            .map { $0.trimming { $0.isWhitespace || $0 == "\u{0}" } }
            .filter { !$0.isEmpty && !$0.hasPrefix("#") }
        guard let first = lines.first, let url = URL(string: first), url.scheme != nil else {
            throw TransferError(
                .decodingFailed, "the \(contentType.identifier) content holds no absolute URL",
                contentType: contentType
            )
        }
        return url
    }

    /// A URL from text that is exactly one absolute URL (surrounding white space allowed).
    static func url(fromText text: String) throws -> URL {
        let trimmed = text.trimming(where: \.isWhitespace)
        guard !trimmed.isEmpty, !trimmed.contains(where: \.isWhitespace), let url = URL(string: trimmed),
            url.scheme != nil
        else {
            throw TransferError(
                .decodingFailed, "the text is not an absolute URL", contentType: .plainText
            )
        }
        return url
    }
}
