import ClipBridge
import X11Selection

/// How a selection's types cross between X targets and Wayland MIME types, both ways, as pure decisions: what the
/// other side is offered, in the owner's order, and where each offered type's bytes come from.
///
/// Text is the one family named differently on each side. X has `UTF8_STRING`, `STRING` (ISO-8859-1, ICCCM 2.6.2),
/// `TEXT` and `COMPOUND_TEXT`; Wayland clients use `text/plain;charset=utf-8` (GTK 4, Qt 5's QtWayland, wl-clipboard)
/// and bare `text/plain`, and many also list the X names (wl-copy offers `TEXT`, `STRING`, `UTF8_STRING` as MIME
/// types, with the same UTF-8 bytes). The compositors' own XWayland sync maps `UTF8_STRING` ↔
/// `text/plain;charset=utf-8` and `TEXT` ↔ `text/plain` (wlroots `xwayland/selection/incoming.c`,
/// `source_get_targets`, and `selection.c`, `xwm_mime_type_to_atom`) and drops every other X name without a '/'
/// — `STRING` included, so an X client that asks for it gets nothing. Here the text family is produced from the
/// best text the owner has, converted where the encodings differ, and every other type crosses by name, unchanged
/// — MIME names (images, `text/html`, `text/uri-list`, `x-special/gnome-copied-files`), custom types, and X names
/// too (another X display on the far side of the compositor reads them back).
public enum WaylandTypeMapping {
    /// Wayland's UTF-8 text type.
    public static let utf8Text = "text/plain;charset=utf-8"
    /// Wayland's bare text type (UTF-8 in practice: GTK 4, Qt and wl-clipboard write the same bytes as for
    /// `utf8Text`).
    public static let plainText = "text/plain"

    /// The names of X's text family, as targets and as the MIME types Wayland clients list them under.
    static let xTextNames: Set<String> = ["UTF8_STRING", "STRING", "TEXT", "COMPOUND_TEXT"]

    // MARK: Wayland → X

    /// How an X target is produced from the Wayland owner's data.
    public enum XConversion: Sendable, Equatable {
        /// The Wayland type's bytes, unchanged, with this property type.
        case verbatim(type: SelectionTarget)
        /// The Wayland UTF-8 text as ISO-8859-1 (`STRING`); refused when a character lies outside Latin-1
        /// (nothing is substituted: the requestor falls back to `UTF8_STRING`).
        case latin1
        /// `TEXT`: ISO-8859-1 typed `STRING` when every character fits, else the UTF-8 typed `UTF8_STRING` (the owner
        /// picks TEXT's encoding, ICCCM 2.7.1; Xlib reads a UTF8_STRING-typed reply since XFree86 4).
        case text
    }

    /// One X target offered for a Wayland owner: the Wayland type read for it, and the conversion.
    public struct XRepresentation: Sendable, Equatable {
        /// The X target offered.
        public var target: SelectionTarget
        /// The Wayland type read for it.
        public var mimeType: String
        /// How the bytes read become the target's.
        public var conversion: XConversion

        /// A representation.
        public init(target: SelectionTarget, mimeType: String, conversion: XConversion) {
            self.target = target
            self.mimeType = mimeType
            self.conversion = conversion
        }
    }

    /// The X targets a Wayland owner's `types` (in its order) are offered as. The text family — `UTF8_STRING`,
    /// `TEXT`, `STRING` — stands where the owner's first text type stood, read from its best UTF-8 type.
    public static func xOffer(forWayland types: [String]) -> [XRepresentation] {
        let textSource = [utf8Text, "text/plain;charset=UTF-8", "UTF8_STRING", plainText].first(where: types.contains)
        var offer: [XRepresentation] = []
        var seen = Set<SelectionTarget>()
        func add(_ target: SelectionTarget, _ mimeType: String, _ conversion: XConversion) {
            if seen.insert(target).inserted { offer.append(XRepresentation(target: target, mimeType: mimeType, conversion: conversion)) }
        }
        for type in types {
            if let textSource, isText(type) {
                add(.utf8String, textSource, .verbatim(type: .utf8String))
                add(.text, textSource, .text)
                add(.string, textSource, .latin1)
            }
            // The X names of the text family are produced above, from UTF-8, whatever bytes a Wayland owner keeps under
            // them; everything else crosses by name.
            if !xTextNames.contains(type) {
                add(SelectionTarget(rawValue: type), type, .verbatim(type: SelectionTarget(rawValue: type)))
            }
        }
        return offer
    }

    // MARK: X → Wayland

    /// How a Wayland type is produced from the X owner's data.
    public enum WaylandConversion: Sendable, Equatable {
        /// The X target's reply, unchanged.
        case verbatim
        /// The owner's best text target (`PasteLadder.bestText`), as UTF-8: streamed unchanged when that is
        /// `UTF8_STRING`, else read whole and decoded (`TargetMapping.canonicalText`).
        case utf8Text(from: SelectionTarget)
    }

    /// One Wayland type offered for an X owner: the X target read for it, and the conversion.
    public struct WaylandRepresentation: Sendable, Equatable {
        /// The Wayland type offered.
        public var mimeType: String
        /// The X target read for it.
        public var target: SelectionTarget
        /// How the bytes read become the type's.
        public var conversion: WaylandConversion

        /// A representation.
        public init(mimeType: String, target: SelectionTarget, conversion: WaylandConversion) {
            self.mimeType = mimeType
            self.target = target
            self.conversion = conversion
        }
    }

    /// The Wayland types an X owner's `targets` (in its order, already less what cannot cross) are offered as.
    /// Text — `text/plain;charset=utf-8`, `text/plain`, and `UTF8_STRING` for clients that look for the X name — stands
    /// where the owner's first text target stood.
    public static func waylandOffer(forX targets: [SelectionTarget]) -> [WaylandRepresentation] {
        let bestText = PasteLadder.bestText(in: targets)
        var offer: [WaylandRepresentation] = []
        var seen = Set<String>()
        func add(_ mimeType: String, _ target: SelectionTarget, _ conversion: WaylandConversion) {
            if seen.insert(mimeType).inserted {
                offer.append(WaylandRepresentation(mimeType: mimeType, target: target, conversion: conversion))
            }
        }
        for target in targets {
            if let bestText, isText(target.rawValue) {
                for mimeType in [utf8Text, plainText, "UTF8_STRING"] {
                    add(mimeType, bestText, .utf8Text(from: bestText))
                }
                // X's legacy text names are not offered to Wayland by name: their bytes are not UTF-8.
                continue
            }
            add(target.rawValue, target, .verbatim)
        }
        return offer
    }

    /// Whether kept flavours named `types` (a history entry) are served on Wayland under their own names, byte-exact —
    /// or named by the translation from X (``waylandOffer(forX:)``). Flavours that include Wayland's UTF-8 text type
    /// were made for Wayland clients (recorded there: wl-copy's `TEXT` and `STRING` carry the same UTF-8 bytes), or by
    /// an X app whose text Wayland clients find under that name: as they are. Text under X's names only (xclip,
    /// xterm: `STRING` in ISO-8859-1) would offer a Wayland client nothing it reads as text: translated. Flavours
    /// without text are the same either way.
    public static func servesAsKept(_ types: [String]) -> Bool {
        types.contains { $0.lowercased() == utf8Text } || !types.contains { isText($0) }
    }

    /// Whether `name` (a target or a MIME type) is text of the family each side produces from its best text.
    static func isText(_ name: String) -> Bool {
        xTextNames.contains(name) || name == plainText || name.lowercased() == utf8Text
            || TargetMapping.textTargets.contains(SelectionTarget(rawValue: name))
    }
}
