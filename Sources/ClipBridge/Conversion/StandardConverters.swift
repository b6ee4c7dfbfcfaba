// SPDX-License-Identifier: Apache-2.0
// ClipBridge — the converters every clipboard has

import FoundationEssentials
import UniformTypes

extension ConverterRegistry {
    /// The standard converters (GTK and Qt each do a subset of these, none does all):
    ///
    /// | from | to | cost | notes |
    /// |---|---|---|---|
    /// | UTF-16 text | UTF-8 text | 1 | BOM or little-endian |
    /// | plain text (no charset) | UTF-8 text | 1 | the bytes are already UTF-8 once read |
    /// | any other `public.text` (JSON, CSV, XML, source) | UTF-8 text | 2 | not HTML, RTF |
    /// | HTML | UTF-8 text | 3 | lossy: markup dropped |
    /// | URL list (`text/uri-list`) | UTF-8 text | 1 | `file://` URIs become paths |
    /// | URL list | gnome-copied-files | 1 | `copy` + the URIs; partial: file URIs only |
    /// | gnome-copied-files | URL list | 1 | |
    /// | `text/x-moz-url` | URL list | 1 | the URL lines, titles dropped |
    /// | `application/x-color` | UTF-8 text | 1 | `#rrggbb` (`#rrggbbaa` when translucent) |
    /// | UTF-8 text | `application/x-color` | 2 | partial: `#rgb`, `#rgba`, `#rrggbb`, `#rrggbbaa` only |
    /// | UTF-8 text | URL list | 2 | partial: every line an absolute path or a URI |
    public static let standard = ConverterRegistry(StandardConverters.all)
}

/// The converter implementations behind ``ConverterRegistry/standard``.
enum StandardConverters {
    static let all: [ContentConverter] = [
        utf16ToUTF8, plainToUTF8, textToUTF8, htmlToText, urlsToText, urlsToGnome, gnomeToURLs, mozURLToURLs,
        colorToText, textToColor, textToURLs,
    ]

    static let utf16ToUTF8 = ContentConverter(name: "UTF-16 → UTF-8", from: .utf16PlainText, to: .utf8PlainText) {
        guard let text = TextDecoding.utf16($0) else { throw invalid("UTF-16 text") }
        return Data(text.utf8)
    }

    static let plainToUTF8 = ContentConverter(
        name: "plain text → UTF-8", from: .plainText, to: .utf8PlainText,
        excluding: [.utf8PlainText, .utf16PlainText, .utf16ExternalPlainText]
    ) { data in
        // Reading already decoded the wire encoding (STRING is Latin-1 → UTF-8); what is left is UTF-8.
        Data(TextDecoding.autodetected(data).utf8)
    }

    static let textToUTF8 = ContentConverter(
        name: "text → plain text", from: .text, to: .utf8PlainText,
        excluding: [.plainText, .html, .rtf, .rtfd, .flatRTFD], cost: 2
    ) { data in
        guard let text = TextDecoding.utf8(data) else { throw invalid("UTF-8 text") }
        return Data(text.utf8)
    }

    static let htmlToText = ContentConverter(name: "HTML → plain text", from: .html, to: .utf8PlainText, cost: 3) {
        Data(HTMLText.plainText(fromHTML: TextDecoding.autodetected($0)).utf8)
    }

    static let urlsToText = ContentConverter(name: "URL list → paths as text", from: .url, to: .utf8PlainText) {
        let uris = URIList.parse(TextDecoding.autodetected($0))
        guard !uris.isEmpty else { throw invalid("URL list") }
        return Data(URIList.pathsText(uris).utf8)
    }

    static let urlsToGnome = ContentConverter(
        name: "URL list → gnome-copied-files", from: .url, to: TargetMapping.gnomeCopiedFilesType, isPartial: true
    ) {
        let uris = URIList.parse(TextDecoding.autodetected($0))
        guard !uris.isEmpty, uris.allSatisfy({ URIList.path(ofFileURI: $0) != nil }) else {
            throw invalid("list of local file URIs")
        }
        return Data(GnomeCopiedFiles(isCut: false, uris: uris).text.utf8)
    }

    static let gnomeToURLs = ContentConverter(
        name: "gnome-copied-files → URL list", from: TargetMapping.gnomeCopiedFilesType, to: .url
    ) {
        guard let files = GnomeCopiedFiles(TextDecoding.autodetected($0)) else { throw invalid("gnome-copied-files") }
        return Data(URIList.format(files.uris).utf8)
    }

    static let mozURLToURLs = ContentConverter(name: "x-moz-url → URL list", from: TargetMapping.mozURLType, to: .url) {
        // Lines alternate URL and title (Firefox `nsTransferable`); keep the URLs.
        let lines = TextDecoding.autodetected($0).split(whereSeparator: \.isNewline).map(String.init)
        let uris = stride(from: 0, to: lines.count, by: 2).map { lines[$0] }.filter { URIList.hasScheme($0) }
        guard !uris.isEmpty else { throw invalid("x-moz-url") }
        return Data(URIList.format(uris).utf8)
    }

    static let colorToText = ContentConverter(name: "x-color → #rrggbb", from: TargetMapping.colorType, to: .utf8PlainText) {
        guard let color = X11Color(wire: $0) else { throw invalid("application/x-color (8 bytes)") }
        return Data(color.hex.utf8)
    }

    static let textToColor = ContentConverter(
        name: "#rrggbb → x-color", from: .utf8PlainText, to: TargetMapping.colorType, cost: 2, isPartial: true
    ) {
        guard let color = X11Color(hex: TextDecoding.autodetected($0)) else { throw invalid("#rrggbb color") }
        return color.wire
    }

    static let textToURLs = ContentConverter(
        name: "paths as text → URL list", from: .utf8PlainText, to: .url, cost: 2, isPartial: true
    ) {
        guard let uris = URIList.uris(fromPathsOrURIs: TextDecoding.autodetected($0)) else {
            throw invalid("paths or URIs, one per line")
        }
        return Data(URIList.format(uris).utf8)
    }

    private static func invalid(_ expected: String) -> ClipboardError {
        ClipboardError(.conversionFailed, "the content is not \(expected)")
    }
}
