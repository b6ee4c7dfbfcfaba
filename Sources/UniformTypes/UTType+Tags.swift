// SPDX-License-Identifier: Apache-2.0
// ClipBridge — UniformTypes

extension UTType {
    /// The type's tag specification: tags by class, preferred first.
    ///
    /// Only the standard classes (``UTTagClass/filenameExtension`` and ``UTTagClass/mimeType``) are kept.
    public var tags: [UTTagClass: [String]] {
        var result: [UTTagClass: [String]] = [:]
        for tagClass in [UTTagClass.filenameExtension, .mimeType] {
            let values: [String]
            if let dynamic = dynamicIdentifier {
                values = dynamic.tags(for: tagClass.rawValue)
            } else {
                values = record?.tags(for: tagClass) ?? []
            }
            if !values.isEmpty { result[tagClass] = values }
        }
        return result
    }

    /// The preferred filename extension (no leading period), the first tag of class
    /// ``UTTagClass/filenameExtension``.
    public var preferredFilenameExtension: String? { tags[.filenameExtension]?.first }

    /// The preferred MIME type, the first tag of class ``UTTagClass/mimeType``.
    public var preferredMIMEType: String? { tags[.mimeType]?.first }

    /// Creates the type for a filename extension (without the leading period) that conforms to
    /// `supertype`.
    ///
    /// Matching ignores letter case. When no declared type fits, the result is a dynamic type that
    /// conforms to `supertype`; `nil` only for an invalid extension (empty, or containing `/`).
    public init?(filenameExtension: String, conformingTo supertype: UTType = .data) {
        self.init(tag: filenameExtension, tagClass: .filenameExtension, conformingTo: supertype)
    }

    /// Creates the type for a MIME type that conforms to `supertype`.
    ///
    /// Matching ignores letter case, spaces and quoting, and understands parameters:
    /// `text/plain;charset=utf-8` and `text/plain; charset="UTF-8"` give ``utf8PlainText``,
    /// `text/plain;charset=utf-16` gives ``utf16PlainText``, and other parameters of a known type are
    /// ignored (`text/html; charset=utf-8` gives ``html``). Common aliases resolve too (`image/jpg`,
    /// `image/pjpeg`, `image/x-png`, `application/x-javascript`, `application/x-pdf`, …). Text in any
    /// other charset gives a dynamic type that keeps the charset and conforms to ``plainText``. When no
    /// declared type fits, the result is a dynamic type; `nil` only for a malformed MIME type.
    public init?(mimeType: String, conformingTo supertype: UTType = .data) {
        self.init(tag: mimeType, tagClass: .mimeType, conformingTo: supertype)
    }

    /// Creates the type for a tag of any class that conforms to `supertype` (`nil`: no requirement).
    ///
    /// When no declared type carries the tag, the result is a dynamic type for it.
    public init?(tag: String, tagClass: UTTagClass, conformingTo supertype: UTType?) {
        guard let first = Self.types(tag: tag, tagClass: tagClass, conformingTo: supertype).first else {
            return nil
        }
        self = first
    }

    /// All types that carry `tag` and conform to `supertype` (`nil`: no requirement), best first.
    ///
    /// When no declared type fits, the array holds one dynamic type; it is empty only for invalid
    /// input.
    public static func types(tag: String, tagClass: UTTagClass, conformingTo supertype: UTType?) -> [UTType] {
        guard let lookup = TagLookup(tag: tag, tagClass: tagClass) else { return [] }
        let declared = lookup.declaredTypes().filter { supertype.map($0.conforms(to:)) ?? true }
        if !declared.isEmpty { return declared }
        return [lookup.dynamicType(conformingTo: supertype)]
    }
}

/// One tag lookup: validation, canonical key, parameter handling, aliases, dynamic fallback.
struct TagLookup {
    /// The tag as it should be stored in a dynamic type.
    let tag: String
    let tagClass: UTTagClass
    /// Parsed MIME type, for the MIME class.
    let mime: MIMEType?

    init?(tag: String, tagClass: UTTagClass) {
        let trimmed = tag.trimmingWhitespace()
        guard !trimmed.isEmpty else { return nil }
        self.tagClass = tagClass
        switch tagClass {
        case .mimeType:
            guard let parsed = MIMEType(trimmed) else { return nil }
            mime = parsed
            self.tag = parsed.canonical
        case .filenameExtension:
            // Apple documents extensions without the period; a leading one is tolerated and dropped.
            let bare = trimmed.hasPrefix(".") ? String(trimmed.dropFirst()) : trimmed
            guard !bare.isEmpty, !bare.contains("/"), !bare.contains("\0") else { return nil }
            mime = nil
            self.tag = bare.lowercased()
        default:
            mime = nil
            self.tag = trimmed
        }
    }

    /// Declared types carrying the tag (or an alias of it), best first.
    func declaredTypes() -> [UTType] {
        let registry = TypeRegistry.shared
        switch tagClass {
        case .filenameExtension:
            return registry.identifiers(forTagKey: tag, tagClass: tagClass, aliases: TagAliases.filenameExtensions)
                .map(UTType.init(knownIdentifier:))
        case .mimeType:
            guard let mime else { return [] }
            // Exact spelling first, then the type with only its charset (GTK sends
            // `text/plain;charset=utf-8`, mail-style peers add `format=flowed`).
            var keys = [mime.canonical]
            if let charset = mime.charset, mime.parameters.count > 1 {
                keys.append("\(mime.essence);charset=\(charset)")
            }
            for key in keys {
                let found = registry.identifiers(forTagKey: key, tagClass: .mimeType, aliases: TagAliases.mimeTypes)
                if !found.isEmpty { return found.map(UTType.init(knownIdentifier:)) }
            }
            // Parameters that name no declared type: look up the bare type. Plain text is the exception:
            // its charset decides how to decode the bytes, so a charset we have no type for must not be
            // dropped (it becomes a dynamic type that keeps it; see `impliedParent`).
            if mime.parameters.isEmpty || isTextInUndeclaredCharset { return [] }
            return registry.identifiers(forTagKey: mime.essence, tagClass: .mimeType, aliases: TagAliases.mimeTypes)
                .map(UTType.init(knownIdentifier:))
        default:
            return []
        }
    }

    /// `text/plain` with a charset other than US-ASCII that no declared type names.
    private var isTextInUndeclaredCharset: Bool {
        guard let mime, mime.essence == "text/plain", let charset = mime.charset else { return false }
        return !["us-ascii", "ascii", "ansi_x3.4-1968"].contains(charset)
    }

    /// A parent the dynamic type should have whatever the caller asked: text in an undeclared charset
    /// is still plain text.
    private var impliedParent: UTType? { isTextInUndeclaredCharset ? .plainText : nil }

    /// The dynamic type for the tag, conforming to `supertype` (or to the implied parent when that
    /// is more specific and still satisfies `supertype`).
    func dynamicType(conformingTo supertype: UTType?) -> UTType {
        var parent = supertype
        if let implied = impliedParent, supertype.map(implied.conforms(to:)) ?? true {
            parent = implied
        }
        let dynamic = DynamicTypeIdentifier(tag: tag, tagClass: tagClass.rawValue, conformingTo: parent?.identifier)
        return UTType(knownIdentifier: dynamic.identifier)
    }
}
