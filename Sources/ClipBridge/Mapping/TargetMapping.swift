// SPDX-License-Identifier: Apache-2.0
// ClipBridge — THE table: UTType ↔ X11 selection targets, both ways

import FoundationEssentials
import UniformTypes
import X11Selection

/// The one table that maps content types to X11 selection targets and back.
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

    /// Targets that carry no content of their own: the engine's meta targets, the password hint, the item list.
    static func isContentTarget(_ target: SelectionTarget) -> Bool {
        !target.isMetaTarget && target != passwordManagerHint && target != itemsTarget && target != .incr
            && target != "INSERT_SELECTION" && target != "INSERT_PROPERTY"
            && target != "_GTK_TEXT_BUFFER_CONTENTS_DUMMY"
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
        WireCodec.codec(for: target).decode(bytes, propertyType: propertyType)
    }

    // MARK: - Best text

    /// The target to read when text is wanted, chosen by what each target means, not by the owner's order:
    /// `UTF8_STRING`, then `text/plain;charset=utf-8` (exact UTF-8, what xclip and GTK pick), then
    /// `COMPOUND_TEXT`, `STRING` (Latin-1), `TEXT` (decoded by the reply's type), `text/plain` with another
    /// charset, bare `text/plain` (no charset: GTK 3 fills it with ASCII escapes and CRLF), then any other
    /// plain-text type in the owner's order. Nil when nothing offered is plain text.
    ///
    /// Why not the owner's order: xsel lists TEXT first and answers it with UTF-8 bytes typed STRING;
    /// Xfce's clipboard manager, restoring a GTK 3 copy, lists bare `text/plain` first.
    ///
    /// Linear in the number of targets; the type registry is consulted only when no target is named
    /// `text/plain…` or in the X text family.
    public static func preferredTextTarget(in offered: [SelectionTarget]) -> SelectionTarget? {
        var best: (rank: Int, target: SelectionTarget)?
        for target in offered {
            guard let rank = textRank(target), rank < (best?.rank ?? .max) else { continue }
            best = (rank, target)
        }
        return best?.target
            ?? offered.first { isContentTarget($0) && contentType(for: $0).conforms(to: .plainText) }
    }

    /// A text target's place in ``preferredTextTarget(in:)``'s order, by its name alone; nil for any other
    /// target.
    static func textRank(_ target: SelectionTarget) -> Int? {
        switch target {
        case .utf8String: return 0
        case .compoundText: return 2
        case .string: return 3
        case .text: return 4
        default: break
        }
        let name = target.rawValue.lowercased()
        if name == "text/plain" { return 6 }
        if name.hasPrefix("text/plain;") || name.hasPrefix("text/plain ") {
            return WireCodec.codec(for: target) == .utf8Text ? 1 : 5
        }
        return nil
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
        switch target {
        case .utf8String, .utf8PlainText: return .utf8PlainText
        case .string, .text, .compoundText, .plainText: return .plainText
        case uriList: return .url
        default: break
        }
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
