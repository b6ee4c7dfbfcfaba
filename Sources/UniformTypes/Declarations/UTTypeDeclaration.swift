// SPDX-License-Identifier: Apache-2.0
// ClipBridge — UniformTypes

import FoundationEssentials

/// A type declaration: the Linux counterpart of one entry of an Info.plist's
/// `UTExportedTypeDeclarations` or `UTImportedTypeDeclarations` array.
///
/// On Apple platforms the system reads these from the application bundle. Linux has no such step, so a
/// program declares its types explicitly, in code or from a file, before it puts them on the clipboard:
///
/// ```swift
/// try UTType.register(UTTypeDeclaration(
///     identifier: "com.example.todo", conformsTo: [.json],
///     tags: [.filenameExtension: ["todo"], .mimeType: ["application/x-todo+json"]],
///     description: "To-do item"))
/// // or: try UTType.loadDeclarations(from: URL(fileURLWithPath: "Info.plist"))
/// ```
///
/// Linux-only API; it does not exist in Apple's UniformTypeIdentifiers.
public struct UTTypeDeclaration: Sendable, Hashable {
    /// Whether the program owns the type (`UTExportedTypeDeclarations`) or uses a type another program
    /// owns (`UTImportedTypeDeclarations`). An exported declaration wins over an imported one.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// The program owns the type.
        case exported
        /// Another program owns the type.
        case imported

        /// The Info.plist key of the array this kind of declaration lives in.
        public var propertyListKey: String {
            switch self {
            case .exported: "UTExportedTypeDeclarations"
            case .imported: "UTImportedTypeDeclarations"
            }
        }
    }

    /// `UTTypeIdentifier`: the reverse-DNS identifier being declared.
    public var identifier: String
    /// Exported or imported.
    public var kind: Kind
    /// `UTTypeConformsTo`: the direct parents, in order. They need not be declared yet.
    public var conformsTo: [UTType]
    /// `UTTypeTagSpecification`: tags by class, preferred first. Only ``UTTagClass/filenameExtension``
    /// and ``UTTagClass/mimeType`` reach ``UTType/tags``, as on Apple platforms.
    public var tags: [UTTagClass: [String]]
    /// `UTTypeDescription`: the display name (``UTType/localizedDescription``).
    public var description: String?
    /// `UTTypeReferenceURL`: a document that describes the type (``UTType/referenceURL``).
    public var referenceURL: URL?
    /// `UTTypeVersion`: the declaration's version (``UTType/version``).
    public var version: Int?

    /// Creates a declaration.
    ///
    /// - Parameters:
    ///   - identifier: The identifier to declare, such as `com.example.todo`.
    ///   - kind: ``Kind/exported`` (the default) if this program owns the type.
    ///   - conformsTo: Direct parents; ``UTType/data`` by default, as `UTType(exportedAs:)` assumes.
    ///   - tags: Filename extensions (no leading period) and MIME types, preferred first.
    ///   - description: Display name.
    ///   - referenceURL: Reference document.
    ///   - version: Declaration version.
    public init(
        identifier: String,
        kind: Kind = .exported,
        conformsTo: [UTType] = [.data],
        tags: [UTTagClass: [String]] = [:],
        description: String? = nil,
        referenceURL: URL? = nil,
        version: Int? = nil
    ) {
        self.identifier = identifier
        self.kind = kind
        self.conformsTo = conformsTo
        self.tags = tags
        self.description = description
        self.referenceURL = referenceURL
        self.version = version
    }

    /// Reads the declarations of an Info.plist-format file without registering them.
    ///
    /// The file is an XML (or binary) property list or a JSON document whose root dictionary holds
    /// `UTExportedTypeDeclarations` and/or `UTImportedTypeDeclarations` arrays, exported first in the
    /// result. Keys: `UTTypeIdentifier` (required), `UTTypeConformsTo` (string or array),
    /// `UTTypeDescription`, `UTTypeTagSpecification` (values string or array), `UTTypeReferenceURL`,
    /// `UTTypeVersion` (integer or integer string); icon keys are accepted and ignored.
    ///
    /// - Throws: ``UTTypeDeclarationError`` naming the file, the key path (such as
    ///   `UTExportedTypeDeclarations[1].UTTypeIdentifier`) and the reason.
    public static func declarations(contentsOf file: URL) throws -> [UTTypeDeclaration] {
        try DeclarationFileReader(file: file).read().map(\.declaration)
    }
}
