// SPDX-License-Identifier: Apache-2.0
// ClipBridge — what a drop carries, decoded from the target it was read as

import FoundationEssentials
import UniformTypes
import X11Selection

/// What a drop brought, decoded from the bytes of the one target it was read as: what `clipbridge drop` prints.
///
/// The URL formats drag sources write are all understood:
/// - `text/uri-list` (RFC 2483 §5: CRLF or LF lines, `#` comments, percent-encoded `file://` URIs decoded to
///   local paths; a `file://` URI of another host stays a URI);
/// - `text/x-moz-url` (Firefox, Chromium, Qt: UTF-16, URL and title on alternate lines);
/// - `_NETSCAPE_URL` (URL, then the title, on two lines).
public enum DroppedContent: Sendable, Equatable {
    /// Local files, as absolute paths.
    case paths([String])
    /// URLs that are not local files (and `file://` URIs of other hosts), in order.
    case urls([String])
    /// Text.
    case text(String)
    /// Bytes of any other type, for a file.
    case data(Data, type: SelectionTarget)

    /// The targets read as URLs, best first.
    public static let urlTargets: [SelectionTarget] = ["text/uri-list", "text/x-moz-url", "_NETSCAPE_URL"]

    /// Which of the `offered` targets to read.
    ///
    /// - `accepting` (MIME types or target names, in the caller's order of preference): the first of them
    ///   offered, compared without case; nil when none is.
    /// - Otherwise, with `takesData`, an image first: a browser offers an image dragged from a page both as its
    ///   URL and as the image (Firefox: `text/x-moz-url`, `text/uri-list` and `image/png` among 20 types), and the
    ///   image is what is wanted in a folder. Then URLs (a dragged file or link is what it names), then — with
    ///   `takesData` — the richest offered type that is neither a URL nor text, then text in
    ///   `TextReadOrder` (what a paste would read).
    public static func preferredTarget(
        offered: [SelectionTarget], accepting: [SelectionTarget] = [], takesData: Bool
    ) -> SelectionTarget? {
        func offeredMatch(_ wanted: SelectionTarget) -> SelectionTarget? {
            offered.first { $0.rawValue.lowercased() == wanted.rawValue.lowercased() }
        }
        if !accepting.isEmpty { return accepting.lazy.compactMap(offeredMatch).first }
        if takesData, let image = offered.first(where: { $0.rawValue.lowercased().hasPrefix("image/") && !isSideChannel($0) }) {
            return image
        }
        if let url = urlTargets.lazy.compactMap(offeredMatch).first { return url }
        if takesData {
            let urls = Set(urlTargets.map { $0.rawValue.lowercased() })
            if let data = offered.first(where: {
                !$0.isMetaTarget && !urls.contains($0.rawValue.lowercased()) && TextReadOrder.rank(of: $0) == nil
                    && !Self.isSideChannel($0)
            }) {
                return data
            }
        }
        return TextReadOrder.best(in: offered)
    }

    /// Targets that describe the drag rather than carry its data (toolkit bookkeeping).
    static func isSideChannel(_ target: SelectionTarget) -> Bool {
        let name = target.rawValue
        return name == "DELETE" || name == "SAVE_TARGETS" || name.hasPrefix("_GTK_") || name.hasPrefix("_QT_")
            || name == "application/x-qt-image" || name == "XdndDirectSave0"
    }

    /// Decodes `data`, read as `target` and written by the source as `propertyType` (the type decides a `TEXT`
    /// reply's encoding). Text decodes as a paste decodes it (``TargetMapping/canonicalText(_:target:propertyType:)``);
    /// what only Xlib converts (`COMPOUND_TEXT` beyond Latin-1) falls back to UTF-8, else Latin-1.
    public static func decode(_ data: Data, as target: SelectionTarget, propertyType: SelectionTarget? = nil) -> DroppedContent {
        switch target.rawValue.lowercased() {
        case "text/uri-list":
            return locations(URIList.parse(TextDecoding.utf8(data) ?? TextDecoding.latin1(data)))
        case "text/x-moz-url":
            let text = TextDecoding.utf16(data) ?? TextDecoding.autodetected(data)
            let lines = text.split(whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }).map(String.init)
            // URL, title, URL, title…: the even lines.
            return locations(stride(from: 0, to: lines.count, by: 2).map { lines[$0] }.filter { !$0.isEmpty })
        case "_netscape_url":
            let text = TextDecoding.utf8(data) ?? TextDecoding.latin1(data)
            let first = text.split(whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }).first.map(String.init)
            return locations(first.map { [$0] } ?? [])
        default:
            guard TextReadOrder.rank(of: target) != nil else { return .data(data, type: target) }
            if let canonical = TargetMapping.canonicalText(data, target: target, propertyType: propertyType ?? target) {
                return .text(String(decoding: canonical, as: UTF8.self))
            }
            return .text(TextDecoding.utf8(data) ?? TextDecoding.latin1(data))
        }
    }

    /// Local paths when every URI is a local file, else the URIs as they are.
    private static func locations(_ uris: [String]) -> DroppedContent {
        let paths = uris.map(URIList.path(ofFileURI:))
        if !paths.isEmpty, paths.allSatisfy({ $0 != nil }) { return .paths(paths.compactMap { $0 }) }
        return .urls(uris)
    }

    /// A file name for data of `target`: `drop-N` with the type's usual extension, made of safe characters only
    /// (nothing the drag source said goes into it).
    public static func fileName(index: Int, type target: SelectionTarget) -> String {
        let mime = target.rawValue.split(separator: ";").first.map(String.init) ?? target.rawValue
        let fileExtension = UTType(mimeType: mime)?.preferredFilenameExtension ?? "bin"
        let safe = fileExtension.unicodeScalars.allSatisfy { $0.properties.isAlphabetic || ("0"..."9").contains($0) }
        return "drop-\(index)." + (safe && !fileExtension.isEmpty ? fileExtension : "bin")
    }
}
