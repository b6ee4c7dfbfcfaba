import ClipBridge
import FoundationEssentials
import UniformTypes
import SelectionCore

/// What a history line says of a copy, and the text it is found by: decided from the flavours' names and the
/// first bytes of each, the way a person would describe the copy.
///
/// - A list of files (`text/uri-list` of `file:` URIs): `[2 files: a.txt, b.png]` — before the text, which a
///   file manager also offers (the paths).
/// - An image (a flavour of an `image/…` type whose header reads): `[image 1920×1080 PNG 2.1 MB]` — before the
///   text, which a browser's "Copy Image" also offers (the image's HTML).
/// - Text: the best text flavour (`TargetMapping.preferredTextTarget`), as `paste` would decode it, whitespace
///   collapsed to single spaces, cut at ``maximumCharacters``.
/// - Anything else: the first content type's name and the size, `[com.example.todo 120 B]`.
struct EntrySummary: Sendable, Equatable {
    /// The line shown.
    var line: String
    /// The text indexed for search (the whole text, up to ``indexedBytes``, and file names).
    var searchText: String

    /// The longest text line, in characters.
    static let maximumCharacters = 100
    /// The most bytes of one flavour looked at for the line and the index.
    static let indexedBytes = 1 << 20

    /// One flavour as the summary sees it.
    struct Flavour: Sendable {
        var target: SelectionTarget
        var type: SelectionTarget
        var byteCount: Int
        /// The first bytes (up to ``indexedBytes``; all of them when smaller).
        var prefix: Data
    }

    init(line: String, searchText: String) {
        // One line whatever a peer named its files or targets: line breaks and control characters show as spaces
        // (a picker would take them for several entries).
        self.line = String(String.UnicodeScalarView(line.unicodeScalars.map {
            $0.properties.generalCategory == .control || $0.properties.isWhitespace && $0 != " " ? " " : $0
        }))
        self.searchText = searchText
    }

    init(_ flavours: [Flavour]) {
        let total = flavours.reduce(0) { $0 + $1.byteCount }
        let text = Self.text(flavours)
        if let files = Self.files(flavours) {
            let names = files.map { $0.split(separator: "/").last.map(String.init) ?? $0 }
            let noun = files.count == 1 ? "1 file" : "\(files.count) files"
            self.init(line: "[\(noun): \(Self.cut(names.joined(separator: ", ")))]", searchText: names.joined(separator: "\n"))
            return
        }
        if let (header, flavour) = Self.image(flavours) {
            self.init(
                line: "[image \(header.width)×\(header.height) \(header.format) \(Self.size(flavour.byteCount))]",
                searchText: text ?? "")
            return
        }
        if let text {
            let collapsed = Self.collapsed(text)
            self.init(line: collapsed.isEmpty ? "[blank text \(Self.size(total))]" : Self.cut(collapsed), searchText: text)
            return
        }
        let first = flavours.first { !$0.target.rawValue.hasPrefix("x-kde-") }?.target.rawValue ?? "nothing"
        self.init(line: "[\(first) \(Self.size(total))]", searchText: "")
    }

    /// The text of the best text flavour, decoded as `paste` would; nil when there is none.
    private static func text(_ flavours: [Flavour]) -> String? {
        guard let target = TargetMapping.preferredTextTarget(in: flavours.map(\.target)),
            let flavour = flavours.first(where: { $0.target == target })
        else { return nil }
        let utf8 = TargetMapping.canonicalText(flavour.prefix, target: target, propertyType: flavour.type) ?? flavour.prefix
        // A prefix may end inside a character: decoding replaces the broken tail.
        return String(decoding: utf8, as: UTF8.self)
    }

    /// The paths of a file list (every URI a `file:` one), or nil.
    private static func files(_ flavours: [Flavour]) -> [String]? {
        guard let list = flavours.first(where: { $0.target.rawValue == "text/uri-list" }) else { return nil }
        let uris = String(decoding: list.prefix, as: UTF8.self)
            .split(whereSeparator: \.isNewline)
            .map { $0.trimming { $0 == " " || $0 == "\t" || $0 == "\r" } }
            .filter { !$0.isEmpty && !$0.hasPrefix("#") }
        guard !uris.isEmpty, uris.allSatisfy({ $0.hasPrefix("file:") }) else { return nil }
        return uris.map { Self.path(ofFileURI: Substring($0)) }
    }

    /// The path of a `file:` URI (`file:///a`, `file://host/a`, `file:/a`), percent-decoded.
    static func path(ofFileURI uri: Substring) -> String {
        var rest = uri.dropFirst("file:".count)
        if rest.hasPrefix("//") {
            rest = rest.dropFirst(2)
            rest = rest.firstIndex(of: "/").map { rest[$0...] } ?? ""
        }
        var bytes: [UInt8] = []
        var utf8 = rest.utf8[...]
        while let byte = utf8.popFirst() {
            if byte == UInt8(ascii: "%"), utf8.count >= 2,
                let value = UInt8(String(decoding: utf8.prefix(2), as: UTF8.self), radix: 16)
            {
                bytes.append(value)
                utf8 = utf8.dropFirst(2)
            } else {
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The first image flavour whose header reads.
    private static func image(_ flavours: [Flavour]) -> (ImageHeader, Flavour)? {
        for flavour in flavours where flavour.target.rawValue.lowercased().hasPrefix("image/") {
            if let header = ImageHeader(flavour.prefix.prefix(64 << 10)) { return (header, flavour) }
        }
        return nil
    }

    /// Runs of white space (new lines, tabs) as one space, trimmed.
    static func collapsed(_ text: String) -> String {
        var result = ""
        var pendingSpace = false
        for character in text.prefix(maximumCharacters * 8) {
            if character.isWhitespace || character.unicodeScalars.allSatisfy({ $0.properties.generalCategory == .control }) {
                pendingSpace = !result.isEmpty
                continue
            }
            if pendingSpace { result.append(" ") }
            pendingSpace = false
            result.append(character)
            if result.count > maximumCharacters { break }
        }
        return result
    }

    /// `text` cut to ``maximumCharacters``, with an ellipsis when it was longer.
    static func cut(_ text: String) -> String {
        text.count > maximumCharacters ? String(text.prefix(maximumCharacters - 1)) + "…" : text
    }

    /// A byte count for people: `120 B`, `4.2 KB`, `2.1 MB`, `1.3 GB` (powers of 1000, as file managers show).
    static func size(_ bytes: Int) -> String {
        if bytes < 1000 { return "\(bytes) B" }
        let units = ["KB", "MB", "GB", "TB"]
        var value = Double(bytes) / 1000
        var unit = 0
        while value >= 999.95 && unit < units.count - 1 {
            value /= 1000
            unit += 1
        }
        let tenths = Int((value * 10).rounded())
        return "\(tenths / 10).\(tenths % 10) \(units[unit])"
    }
}
