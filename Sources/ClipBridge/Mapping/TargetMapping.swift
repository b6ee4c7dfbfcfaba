// SPDX-License-Identifier: Apache-2.0
// ClipBridge — the one table: UTType ↔ X11 selection targets, both ways, with each target's wire encoding

import FoundationEssentials
import UniformTypes
import X11Selection

/// The one table that maps content types to X11 selection targets and back, and says how each target's
/// bytes are written on the wire (its `WireCodec` and property format).
///
/// Targets known by name are the rows of `rows`: each says what the target means, how its bytes decode to
/// the canonical bytes of that type, and its property format. Every other name follows the rules below.
/// (The legacy text encodings a ClipBridge owner *writes* — STRING as Latin-1, COMPOUND_TEXT and TEXT — are
/// ICCCM §2.7.1 rules of the engine, `SelectionOffer.textRepresentations(_:)`; their reading is here.)
///
/// - **Plain text** (`.utf8PlainText`, `.plainText`, `.text`) is offered as the whole text family,
///   `text/plain;charset=utf-8`, `UTF8_STRING`, `COMPOUND_TEXT`, `TEXT`, `STRING`, `text/plain` — the union of
///   GTK's and Qt's text targets. `UTF8_STRING` and `text/plain;charset=utf-8` read back as `.utf8PlainText`,
///   the others as `.plainText`.
/// - **HTML**: `text/html` both ways (UTF-16 detected on reading, as Firefox writes it).
/// - **URLs and files** (`.url`, `.fileURL`): `text/uri-list` (CRLF lines, RFC 2483), read back as `.url`.
/// - **File-manager and toolkit formats**: `x-special/gnome-copied-files`, `application/x-kde-cutselection`,
///   `text/x-moz-url` (UTF-16) and `application/x-color` (format 16) keep their names, as dynamic types of
///   those MIME types.
/// - **Images, JSON, CSV, RTF, PDF, any declared type**: the preferred MIME type (`image/png`,
///   `application/json`, `text/csv`, `text/rtf`, `application/pdf`, a custom type's declared MIME type),
///   read back as the type declared for that MIME type.
/// - **A custom type with no MIME type**: its identifier (`com.example.todo`), so two ClipBridge apps always
///   understand each other; read back as the type with that identifier when this process knows it.
/// - **Anything else** read from a peer becomes a dynamic type — MIME names by MIME type, other names by atom
///   name — and is never dropped (GTK drops names without a '/').
public enum TargetMapping {
    /// The text family in offer order: `text/plain;charset=utf-8`, `UTF8_STRING`, `COMPOUND_TEXT`, `TEXT`,
    /// `STRING`, `text/plain` (GTK advertises the first five, Qt `UTF8_STRING`, `STRING`, `TEXT`, `text/plain`).
    public static let textTargets: [SelectionTarget] = [
        .utf8PlainText, .utf8String, .compoundText, .text, .string, .plainText,
    ]
    /// `text/uri-list`: URLs, one per CRLF-terminated line.
    public static let uriList: SelectionTarget = "text/uri-list"
    /// `x-special/gnome-copied-files`: `copy` or `cut`, then file URIs (GNOME, Cinnamon, MATE, Xfce file managers).
    public static let gnomeCopiedFiles: SelectionTarget = "x-special/gnome-copied-files"
    /// `application/x-kde-cutselection`: `1` when the URL list was cut (KDE).
    public static let kdeCutSelection: SelectionTarget = "application/x-kde-cutselection"
    /// `text/x-moz-url`: UTF-16 URL and title lines (Firefox, Qt).
    public static let mozURL: SelectionTarget = "text/x-moz-url"
    /// `application/x-color`: 4 × uint16 RGBA, property format 16 (GTK, Qt).
    public static let color: SelectionTarget = "application/x-color"
    /// `x-kde-passwordManagerHint`: `secret` marks content clipboard managers must not keep.
    public static let passwordManagerHint: SelectionTarget = SelectionOffer.passwordManagerHint
    /// `text/html`.
    public static let html: SelectionTarget = "text/html"
    /// `application/x-clipbridge-items`: a ClipBridge owner's whole item list (several items copied at once).
    public static let itemsTarget: SelectionTarget = "application/x-clipbridge-items"

    // MARK: - The rows

    /// What the table knows of one target.
    struct Row: Sendable {
        /// The type the target means when read. A function, so that asking a row for its codec does not build
        /// the type registry (`UTType(mimeType:)` does; the bare paste decodes text without it).
        var meaning: @Sendable () -> UTType
        /// How its bytes become the type's canonical bytes.
        var codec: WireCodec
        /// The property format it is written in (ICCCM §2.7: 8, 16 or 32).
        var format: Int = 8
        /// False for targets that describe or accompany content rather than carry it.
        var carriesContent = true
        /// True for names read as the type but never offered for it (Qt's PIXMAP and Netpbm names).
        var isReadOnly = false

        /// The type the target means when read.
        var contentType: UTType { meaning() }
    }

    /// `x-special/gnome-copied-files`'s type: the dynamic type of its MIME name, so the same in every process.
    static let gnomeCopiedFilesType = UTType(mimeType: "x-special/gnome-copied-files") ?? .data
    /// `application/x-kde-cutselection`'s type.
    static let kdeCutSelectionType = UTType(mimeType: "application/x-kde-cutselection") ?? .data
    /// `text/x-moz-url`'s type.
    static let mozURLType = UTType(mimeType: "text/x-moz-url") ?? .data
    /// `application/x-color`'s type: 4 × uint16 RGBA (GTK `GdkRGBA`, Qt `QColor`).
    static let colorType = UTType(mimeType: "application/x-color") ?? .data
    /// `application/x-clipbridge-items`'s type.
    static let itemsType = UTType(mimeType: "application/x-clipbridge-items") ?? .data

    /// A Netpbm format's type, by its freedesktop MIME type.
    static func netpbmType(_ mimeType: String) -> UTType {
        UTType(mimeType: mimeType, conformingTo: .image) ?? .image
    }

    /// The targets known by name.
    static let rows: [SelectionTarget: Row] = [
        // The text family. UTF-8 by name; STRING is Latin-1 by ICCCM §2.6.2, but xsel fills it with UTF-8,
        // and bare text/plain is UTF-8 from Qt, ASCII from GTK, Latin-1 from xsel; TEXT and COMPOUND_TEXT
        // are decoded by the reply's property type (ICCCM §2.7.1).
        .utf8String: Row(meaning: { .utf8PlainText }, codec: .utf8Text),
        .utf8PlainText: Row(meaning: { .utf8PlainText }, codec: .utf8Text),
        .compoundText: Row(meaning: { .plainText }, codec: .x11Text),
        .text: Row(meaning: { .plainText }, codec: .x11Text),
        .string: Row(meaning: { .plainText }, codec: .utf8OrLatin1Text),
        .plainText: Row(meaning: { .plainText }, codec: .utf8OrLatin1Text),
        // UTF-16 from Firefox, detected as Qt does.
        uriList: Row(meaning: { .url }, codec: .autodetectedText),
        html: Row(meaning: { .html }, codec: .autodetectedText),
        mozURL: Row(meaning: { mozURLType }, codec: .utf16Text),
        color: Row(meaning: { colorType }, codec: .bytes, format: 16),
        gnomeCopiedFiles: Row(meaning: { gnomeCopiedFilesType }, codec: .bytes),
        kdeCutSelection: Row(meaning: { kdeCutSelectionType }, codec: .bytes),
        itemsTarget: Row(meaning: { itemsType }, codec: .bytes, carriesContent: false),
        passwordManagerHint: Row(meaning: { AtomTypes.type(forAtomName: passwordManagerHint.rawValue) }, codec: .bytes,
            carriesContent: false),
        // Qt answers PIXMAP with PPM file data (its X11 MIME table maps image/ppm ↔ PIXMAP), not the pixmap ID
        // ICCCM §2.6.2 specifies; read as PPM (a real pixmap ID then fails to decode, cleanly). Qt's own
        // image/ppm, image/pgm and image/pbm names are the Netpbm formats. ClipBridge never offers them.
        "PIXMAP": Row(meaning: { netpbmType("image/x-portable-pixmap") }, codec: .bytes, isReadOnly: true),
        "image/ppm": Row(meaning: { netpbmType("image/x-portable-pixmap") }, codec: .bytes, isReadOnly: true),
        "image/pgm": Row(meaning: { netpbmType("image/x-portable-graymap") }, codec: .bytes, isReadOnly: true),
        "image/pbm": Row(meaning: { netpbmType("image/x-portable-bitmap") }, codec: .bytes, isReadOnly: true),
        // Side-effect targets (ICCCM §2.6.3) and GTK's placeholder: they answer with nothing to paste.
        "INSERT_SELECTION": Row(meaning: { .data }, codec: .bytes, carriesContent: false),
        "INSERT_PROPERTY": Row(meaning: { .data }, codec: .bytes, carriesContent: false),
        "_GTK_TEXT_BUFFER_CONTENTS_DUMMY": Row(meaning: { .data }, codec: .bytes, carriesContent: false),
    ]

    /// Targets that carry content: not the engine's meta targets, nor the rows that only accompany content
    /// (the password hint, the item list, side-effect targets).
    static func isContentTarget(_ target: SelectionTarget) -> Bool {
        !target.isMetaTarget && target != .incr && rows[target]?.carriesContent != false
    }

    /// The content targets of a TARGETS list, in its order, each once (meta targets, the password hint and the
    /// item list removed): what a paste chooses among.
    package static func contentTargets(in targets: [SelectionTarget]) -> [SelectionTarget] {
        var seen = Set<SelectionTarget>()
        return targets.filter { isContentTarget($0) && seen.insert($0).inserted }
    }

    /// The property format a target is written in: its row's, else 8.
    static func format(for target: SelectionTarget) -> Int {
        rows[target]?.format ?? 8
    }

    /// How a target's bytes decode: its row's codec; else, for `text/…` names, the codec of their `charset`
    /// parameter (UTF-8 and Latin-1 by name, UTF-16 left to the converters, any charset iconv decodes); else
    /// the bytes as they are.
    static func codec(for target: SelectionTarget) -> WireCodec {
        if let row = rows[target] { return row.codec }
        guard let charset = TextReadOrder.textCharset(of: target), !charset.isEmpty else { return .bytes }
        switch charset {
        case "utf-8", "utf8": return .utf8Text
        case "iso-8859-1", "latin1", "latin-1", "us-ascii", "ascii": return .latin1Text
        case "utf-16", "utf-16le", "utf-16be", "ucs-2": return .bytes  // public.utf16-plain-text: the converter decodes
        default:
            return CharsetDecoding.isSupported(charset) ? .charset(charset) : .bytes
        }
    }

    /// The canonical UTF-8 of a text-family target's wire bytes, exactly as ``Clipboard`` pastes it:
    /// `STRING` from Latin-1, `TEXT` by the reply's property type, `text/plain` UTF-8 or else Latin-1, a named
    /// charset through iconv; trailing NULs dropped. Nil when only Xlib can decode the bytes (COMPOUND_TEXT
    /// beyond ASCII: read those with `X11Connection/readText(_:timeout:)`) or the charset is unknown.
    ///
    /// - Parameters:
    ///   - bytes: the property's bytes as read.
    ///   - target: the target that was asked for.
    ///   - propertyType: the type the owner wrote (it decides the encoding of `TEXT`).
    public static func canonicalText(_ bytes: Data, target: SelectionTarget, propertyType: SelectionTarget) -> Data? {
        codec(for: target).decode(bytes, propertyType: propertyType)
    }

    // MARK: - Best text

    /// The target to read when text is wanted: `TextReadOrder`'s best (UTF-8 first, then
    /// `COMPOUND_TEXT`, `STRING`, `TEXT`, other charsets, bare `text/plain`), else any other plain-text type in
    /// the owner's order. Nil when nothing offered is plain text.
    ///
    /// Linear in the number of targets; the type registry is consulted only when no target is named
    /// `text/plain…` or in the X text family.
    public static func preferredTextTarget(in offered: [SelectionTarget]) -> SelectionTarget? {
        TextReadOrder.best(in: offered)
            ?? offered.first { isContentTarget($0) && contentType(for: $0).conforms(to: .plainText) }
    }

    // MARK: - UTType → targets

    /// The X targets offered for a content type, primary first.
    ///
    /// Text gives the whole text family; URLs and file URLs give `text/uri-list`; a type with a MIME type
    /// gives that MIME type (declared custom types included); a custom type without one gives its identifier.
    public static func targets(for contentType: UTType) -> [SelectionTarget] {
        if contentType == .utf8PlainText || contentType == .plainText || contentType == .text {
            return textTargets
        }
        if contentType.conforms(to: .url) { return [uriList] }
        if let name = AtomTypes.atomName(of: contentType) { return [SelectionTarget(rawValue: name)] }
        if let mime = contentType.preferredMIMEType { return [SelectionTarget(rawValue: mime)] }
        return [SelectionTarget(rawValue: contentType.identifier)]
    }

    // MARK: - target → UTType

    /// The content type a target means; never nil.
    ///
    /// Names with a '/' are MIME types (`image/x-MS-bmp` → `.bmp` through UniformTypes' aliases; unknown
    /// ones → a dynamic type that keeps the MIME type); other names are identifiers when known in this
    /// process (`com.example.todo`), else dynamic types of the atom name.
    public static func contentType(for target: SelectionTarget) -> UTType {
        if let row = rows[target] { return row.contentType }
        let name = target.rawValue
        if name.contains("/"), let type = UTType(mimeType: name) { return type }
        if let type = UTType(name) { return type }
        return AtomTypes.type(forAtomName: name)
    }

    /// Resolves a name a person typed: a uniform type identifier (`public.png`, `com.example.todo`), a MIME
    /// type (`image/png`), an X target name (`UTF8_STRING`, `STRING`), or a filename extension (`png`, `.png`).
    /// nil when it is none of those.
    public static func contentType(named name: String) -> UTType? {
        let trimmed = name.trimming { $0 == " " || $0 == "\t" }
        guard !trimmed.isEmpty else { return nil }
        let target = SelectionTarget(rawValue: trimmed)
        if textTargets.contains(target) || target == uriList { return contentType(for: target) }
        if trimmed.contains("/") { return UTType(mimeType: trimmed) }
        if let type = UTType(trimmed) { return type }
        let bare = trimmed.hasPrefix(".") ? String(trimmed.dropFirst()) : trimmed
        if !bare.contains("."), let type = UTType(filenameExtension: bare), !type.isDynamic { return type }
        return nil
    }

    // MARK: - Matching

    /// True when an offered `target` can feed an importer of `importType`: either the table maps the target
    /// to a type that conforms to `importType`, or `importType` itself is offered under that target (how a
    /// custom type nothing declares here still matches its identifier-named target).
    static func target(_ target: SelectionTarget, satisfies importType: UTType) -> Bool {
        if contentType(for: target).conforms(to: importType) { return true }
        return targets(for: importType).contains(target)
    }
}
