// SPDX-License-Identifier: Apache-2.0
// ClipBridge — UniformTypes

import FoundationEssentials
import Synchronization

// Linux-only: the programmatic and file-based counterparts of the Info.plist step that Apple
// platforms perform at install time. Nothing here exists in Apple's UniformTypeIdentifiers.
extension UTType {
    /// Declares a type in this process, as an Info.plist `UTExportedTypeDeclarations` or
    /// `UTImportedTypeDeclarations` entry would on Apple platforms, and returns it.
    ///
    /// The type is then declared (``isDeclared``), resolvable by identifier and by its tags. Rules:
    /// system types cannot be redeclared; an exported declaration replaces an imported one or an
    /// in-process `UTType(exportedAs:)`; an imported declaration never replaces an exported one (the
    /// exported type is returned); declaring the same thing twice is harmless.
    ///
    /// - Throws: ``UTTypeDeclarationError`` with code `.invalidValue` (bad identifier or tag) or
    ///   `.conflictingDeclaration`.
    @discardableResult
    public static func register(_ declaration: UTTypeDeclaration) throws -> UTType {
        let located = DeclarationFileReader.Located(declaration: declaration, keyPath: "UTTypeDeclaration")
        try DeclarationValidation.checkIdentifier(declaration.identifier, file: nil, key: "identifier")
        for (tagClass, tags) in declaration.tags {
            for (index, tag) in tags.enumerated() {
                let key = "tags[\(tagClass)][\(index)]"
                try DeclarationValidation.checkTag(tag, tagClass: tagClass, file: nil, key: key)
            }
        }
        return try TypeRegistry.shared.register([located], file: nil)[0]
    }

    /// Reads an Info.plist-format file (XML or binary property list, or JSON) and declares every type in
    /// its `UTExportedTypeDeclarations` and `UTImportedTypeDeclarations` arrays.
    ///
    /// All or nothing: if any entry is invalid or conflicts, nothing is registered.
    ///
    /// - Returns: The declared types, exported first, in file order.
    /// - Throws: ``UTTypeDeclarationError`` naming the file, the key path (for example
    ///   `UTExportedTypeDeclarations[1].UTTypeIdentifier`) and the reason.
    @discardableResult
    public static func loadDeclarations(from file: URL) throws -> [UTType] {
        let located = try DeclarationFileReader(file: file).read()
        return try TypeRegistry.shared.register(located, file: file)
    }
}

extension TypeRegistry {
    /// Registers declarations atomically: every conflict is checked before anything is inserted.
    func register(_ declarations: [DeclarationFileReader.Located], file: URL?) throws -> [UTType] {
        try state.withLock { state throws(UTTypeDeclarationError) -> [UTType] in
            var staged = state.records
            var toInsert: [TypeRecord] = []
            var result: [UTType] = []
            for item in declarations {
                let declaration = item.declaration
                let key = declaration.identifier.lowercased()
                let record = TypeRecord(declaration)
                let identifierKey = file == nil ? "identifier" : "\(item.keyPath).UTTypeIdentifier"
                if let existing = staged[key] {
                    switch (existing.origin, record.origin) {
                    case (.system, _):
                        throw UTTypeDeclarationError(
                            .conflictingDeclaration,
                            file: file,
                            key: identifierKey,
                            reason: "\"\(existing.identifier)\" is a system type and cannot be redeclared"
                        )
                    case (.exportedDeclaration, .importedDeclaration), (.importedDeclaration, .importedDeclaration):
                        // The owner's (or the first) declaration stands, as on Apple platforms.
                        result.append(UTType(knownIdentifier: existing.identifier))
                        continue
                    case (.exportedDeclaration, .exportedDeclaration) where existing != record:
                        throw UTTypeDeclarationError(
                            .conflictingDeclaration,
                            file: file,
                            key: identifierKey,
                            reason: "\"\(existing.identifier)\" is already exported with a different declaration"
                        )
                    default:
                        break  // replaces shared-mime-info, in-process and imported records
                    }
                }
                staged[key] = record
                toInsert.removeAll { $0.identifier.lowercased() == key }
                toInsert.append(record)
                result.append(UTType(knownIdentifier: record.identifier))
            }
            for record in toInsert {
                Self.insert(record, into: &state)
            }
            return result
        }
    }
}

extension TypeRecord {
    /// The record of a declaration; tag classes other than the two standard ones are dropped.
    init(_ declaration: UTTypeDeclaration) {
        self.init(
            identifier: declaration.identifier,
            conformsTo: declaration.conformsTo.map(\.identifier),
            filenameExtensions: declaration.tags[.filenameExtension] ?? [],
            mimeTypes: declaration.tags[.mimeType] ?? [],
            description: declaration.description,
            referenceURL: declaration.referenceURL,
            version: declaration.version,
            origin: declaration.kind == .exported ? .exportedDeclaration : .importedDeclaration
        )
    }
}
