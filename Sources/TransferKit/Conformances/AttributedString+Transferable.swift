// SPDX-License-Identifier: Apache-2.0

/// `AttributedString` transfers as TransferKit's attributed-string JSON, then as plain text.
///
/// Apple transfers attributed strings with its own identifier and archive format, neither documented.
/// Linux's Foundation does not make `AttributedString` `Codable`, so TransferKit defines a small JSON
/// archive under the identifier `org.swift.foundation.attributed-string` (conforming to `public.data`):
///
/// ```json
/// {"text": "hi there",
///  "runs": [{"length": 2, "languageIdentifier": "en"}, {"length": 6, "link": "https://swift.org"}]}
/// ```
///
/// Run lengths count Unicode scalars. The Foundation attributes that exist on every platform — `link`
/// and `languageIdentifier` — survive the round trip; other attributes are not transferred. The
/// plain-text fallback exports the characters and imports text as an attribute-free string.
extension AttributedString: Transferable {
    /// Attributed JSON first, then plain text via `String`.
    public static var transferRepresentation: some TransferRepresentation {
        DataRepresentation(contentType: AttributedStringArchive.contentType) { string in
            try JSONEncoder().encode(AttributedStringArchive(string))
        } importing: { data in
            do {
                return try JSONDecoder().decode(AttributedStringArchive.self, from: data).attributedString()
            } catch {
                throw TransferError.wrapping(
                    error, as: .decodingFailed, "cannot decode an attributed string",
                    contentType: AttributedStringArchive.contentType
                )
            }
        }
        ProxyRepresentation { (string: AttributedString) in
            String(string.characters)
        } importing: { (text: String) in
            AttributedString(text)
        }
    }
}

/// The JSON form of an `AttributedString`.
struct AttributedStringArchive: Codable {
    /// TransferKit's content type for attributed strings.
    static let contentType = UTType(exportedAs: "org.swift.foundation.attributed-string", conformingTo: .data)

    struct Run: Codable {
        var length: Int
        var link: URL?
        var languageIdentifier: String?
    }

    var text: String
    var runs: [Run]

    init(_ string: AttributedString) {
        text = String(string.characters)
        runs = string.runs.map { run in
            Run(
                length: string.unicodeScalars[run.range].count,
                link: run.link,
                languageIdentifier: run.languageIdentifier
            )
        }
    }

    func attributedString() throws -> AttributedString {
        var result = AttributedString(text)
        let scalars = result.unicodeScalars
        guard runs.allSatisfy({ $0.length >= 0 }), runs.reduce(0, { $0 + $1.length }) == scalars.count else {
            throw TransferError(
                .decodingFailed, "the attributed string's run lengths do not add up to its text",
                contentType: Self.contentType
            )
        }
        var start = scalars.startIndex
        for run in runs {
            let end = scalars.index(start, offsetBy: run.length)
            result[start..<end].link = run.link
            result[start..<end].languageIdentifier = run.languageIdentifier
            start = end
        }
        return result
    }
}
