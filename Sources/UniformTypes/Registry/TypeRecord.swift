// SPDX-License-Identifier: Apache-2.0
// ClipBridge — UniformTypes

import FoundationEssentials

/// Everything the registry knows about one declared type.
///
/// One record per identifier, whatever its source: the built-in system table, a freedesktop
/// shared-mime-info package, a declaration (file or ``UTType/register(_:)``), or an in-process
/// `UTType(exportedAs:)` / `UTType(importedAs:)` with no declaration behind it.
struct TypeRecord: Sendable, Equatable {
    /// Where the record came from; decides `isDeclared` and which record wins a conflict.
    enum Origin: Sendable, Equatable {
        /// The built-in table of Apple's system types (`SystemDeclarations.swift`).
        case system
        /// A `<mime-type>` element of a freedesktop shared-mime-info package.
        case sharedMIMEInfo
        /// A `UTExportedTypeDeclarations` entry (file or ``UTType/register(_:)``).
        case exportedDeclaration
        /// A `UTImportedTypeDeclarations` entry (file or ``UTType/register(_:)``).
        case importedDeclaration
        /// `UTType(exportedAs:)` / `UTType(importedAs:)` for an identifier nothing declares. Apple leaves
        /// this undefined; we keep the type usable in-process but report `isDeclared == false`, because
        /// another process (the other end of the clipboard) will not know it.
        case undeclaredInProcess

        /// Rank when several types carry the same tag: lower wins.
        var lookupPriority: Int {
            switch self {
            case .system: 0
            case .exportedDeclaration, .importedDeclaration, .undeclaredInProcess: 1
            case .sharedMIMEInfo: 2
            }
        }

        /// Whether the type counts as declared (`UTType.isDeclared`).
        var isDeclaration: Bool { self != .undeclaredInProcess }
    }

    /// The identifier with its declared spelling.
    var identifier: String
    /// Direct parents, in declared order.
    var conformsTo: [String]
    /// Filename extensions without the leading dot, preferred first.
    var filenameExtensions: [String]
    /// MIME types, preferred first.
    var mimeTypes: [String]
    /// Plain English display name.
    var description: String?
    /// `UTTypeReferenceURL`.
    var referenceURL: URL?
    /// `UTTypeVersion`.
    var version: Int?
    /// Source of the record.
    var origin: Origin

    init(
        identifier: String,
        conformsTo: [String],
        filenameExtensions: [String] = [],
        mimeTypes: [String] = [],
        description: String? = nil,
        referenceURL: URL? = nil,
        version: Int? = nil,
        origin: Origin
    ) {
        self.identifier = identifier
        self.conformsTo = conformsTo
        self.filenameExtensions = filenameExtensions
        self.mimeTypes = mimeTypes
        self.description = description
        self.referenceURL = referenceURL
        self.version = version
        self.origin = origin
    }

    /// A row of the built-in system table.
    init(
        system identifier: String,
        conformsTo: [String],
        filenameExtensions: [String],
        mimeTypes: [String],
        description: String
    ) {
        self.init(
            identifier: identifier,
            conformsTo: conformsTo,
            filenameExtensions: filenameExtensions,
            mimeTypes: mimeTypes,
            description: description,
            origin: .system
        )
    }

    /// The tags of a class, preferred first.
    func tags(for tagClass: UTTagClass) -> [String] {
        switch tagClass {
        case .filenameExtension: filenameExtensions
        case .mimeType: mimeTypes
        default: []
        }
    }
}
