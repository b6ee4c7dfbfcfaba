// SPDX-License-Identifier: Apache-2.0
// ClipBridge — text/uri-list (RFC 2483 §5)

import FoundationEssentials
import UniformTypes

/// The `text/uri-list` format: one URI per line, lines end with CRLF, lines starting with `#` are comments
/// (RFC 2483 §5). GTK writes CRLF (`gdk_file_list_serializer`); some peers write bare LF, so reading accepts
/// both.
enum URIList {
    /// Parses the URIs in order, skipping comments and blank lines.
    static func parse(_ text: String) -> [String] {
        text.split(omittingEmptySubsequences: true, whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" })
            .map { $0.trimming { $0 == " " || $0 == "\t" } }
            .filter { !$0.isEmpty && !$0.hasPrefix("#") }
    }

    /// Formats URIs, each followed by CRLF.
    static func format(_ uris: [String]) -> String {
        uris.map { $0 + "\r\n" }.joined()
    }

    /// The URI of a local path (`/a b` → `file:///a%20b`).
    static func fileURI(forPath path: String) -> String {
        URL(fileURLWithPath: path).absoluteString
    }

    /// The local path of a `file://` URI (percent-decoded), or nil for other URIs, remote hosts, relative ones
    /// (`file:a`: RFC 8089 has none, and a local file is an absolute path) and URIs with control characters (RFC
    /// 3986 allows none; a NUL would cut the path short for a C reader). Found by the fuzzer (Fuzz/Corpus/
    /// fuzz-dropped-content/crash-relative-file-uri, crash-nul-in-file-uri).
    static func path(ofFileURI uri: String) -> String? {
        guard !uri.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }),
            let url = URL(string: uri), url.isFileURL
        else { return nil }
        if let host = url.host, !host.isEmpty, host != "localhost" { return nil }
        let path = url.path
        return path.hasPrefix("/") ? path : nil
    }

    /// Turns text that lists paths or URIs (one per line) into URIs; nil when a line is neither
    /// (plain prose must not become a uri-list).
    static func uris(fromPathsOrURIs text: String) -> [String]? {
        let lines = text.split(whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" })
            .map { $0.trimming { $0 == " " || $0 == "\t" } }
            .filter { !$0.isEmpty }
        guard !lines.isEmpty else { return nil }
        var uris: [String] = []
        for line in lines {
            if line.hasPrefix("/") {
                uris.append(fileURI(forPath: line))
            } else if hasScheme(line), !line.contains(" ") {
                uris.append(line)
            } else {
                return nil
            }
        }
        return uris
    }

    /// Text that a terminal or editor pastes for a uri-list: local paths for `file://` URIs, other URIs as they are.
    static func pathsText(_ uris: [String]) -> String {
        uris.map { path(ofFileURI: $0) ?? $0 }.joined(separator: "\n")
    }

    /// RFC 3986 §3.1: scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ) ":"
    static func hasScheme(_ text: String) -> Bool {
        guard let colon = text.firstIndex(of: ":"), colon != text.startIndex else { return false }
        let scheme = text[..<colon]
        guard let first = scheme.first, first.isASCII, first.isLetter else { return false }
        return scheme.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "+" || $0 == "-" || $0 == ".") }
    }
}

/// `x-special/gnome-copied-files`: the operation (`copy` or `cut`) on the first line, then one URI per line,
/// LF-separated, no trailing newline — what Nautilus, Nemo, Caja and Thunar read and write
/// (nautilus `nautilus-clipboard.c`, `convert_selection_data_to_str_list`).
struct GnomeCopiedFiles: Equatable {
    /// Whether the files are copied or moved on paste.
    var isCut: Bool
    /// The file URIs, in order.
    var uris: [String]

    /// Parses the format; nil when the first line is neither `copy` nor `cut`.
    init?(_ text: String) {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.trimming { $0 == "\r" || $0 == "\0" } }
        guard let operation = lines.first, operation == "copy" || operation == "cut" else { return nil }
        lines.removeFirst()
        isCut = operation == "cut"
        uris = lines.filter { !$0.isEmpty }
    }

    init(isCut: Bool, uris: [String]) {
        self.isCut = isCut
        self.uris = uris
    }

    /// The wire text.
    var text: String { ([isCut ? "cut" : "copy"] + uris).joined(separator: "\n") }
}
