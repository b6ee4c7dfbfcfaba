// SPDX-License-Identifier: Apache-2.0
// ClipBridge — UniformTypes

extension UTType {
    /// Creates the type this process exports (owns), as declared by `UTExportedTypeDeclarations`.
    ///
    /// Meant for a `static let` in an `extension UTType`. If a declaration for `identifier` is known
    /// (a system type, ``UTType/register(_:)`` or ``UTType/loadDeclarations(from:)``), that type is
    /// returned and `parentType` is ignored, as on Apple platforms. Otherwise the type is registered
    /// in-process, conforming to `parentType` (``data`` when `nil`), and works in this process with
    /// ``isDeclared`` `== false` — the signal that other applications will not know it.
    public init(exportedAs identifier: String, conformingTo parentType: UTType? = nil) {
        self.init(inProcessIdentifier: identifier, parentType: parentType)
    }

    /// Creates a type this process imports (uses but does not own), as declared by
    /// `UTImportedTypeDeclarations`.
    ///
    /// Apple recommends a `static var` computed property, because the system may prefer another
    /// type. Known declarations win; otherwise the type is registered in-process like
    /// ``init(exportedAs:conformingTo:)``, with ``isDeclared`` `== false`.
    public init(importedAs identifier: String, conformingTo parentType: UTType? = nil) {
        self.init(inProcessIdentifier: identifier, parentType: parentType)
    }

    private init(inProcessIdentifier identifier: String, parentType: UTType?) {
        let registry = TypeRegistry.shared
        if let record = registry.record(for: identifier) {
            self.init(knownIdentifier: record.identifier)
            return
        }
        if DynamicTypeIdentifier(identifier: identifier) != nil {
            // Apps cannot declare or claim dynamic types; hand the dynamic type back as it is.
            self.init(knownIdentifier: identifier.lowercased())
            return
        }
        let record = TypeRecord(
            identifier: identifier,
            conformsTo: [(parentType ?? .data).identifier],
            origin: .undeclaredInProcess
        )
        registry.insertIfAbsent(record)
        self.init(knownIdentifier: registry.existingRecord(for: identifier)?.identifier ?? identifier)
    }
}
