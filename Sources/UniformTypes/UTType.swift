// SPDX-License-Identifier: Apache-2.0
// ClipBridge — UniformTypes

import FoundationEssentials

/// A structure that represents a type of data to load, send, or receive — Apple's `UTType`, on Linux.
///
/// A type is identified by a reverse-DNS *uniform type identifier* such as `public.png`, and sits in a
/// conformance hierarchy (`public.png` → `public.image` → `public.data` → `public.item`). The API is
/// name-for-name Apple's UniformTypeIdentifiers, so code written for Apple platforms compiles unchanged:
///
/// ```swift
/// let type = UTType(mimeType: "image/png")!        // .png
/// type.conforms(to: .image)                        // true
/// type.preferredFilenameExtension                  // "png"
/// UTType(mimeType: "application/x-foo")!.isDynamic // true: a `dyn.` type that round-trips
/// ```
///
/// The value is just the identifier; everything else is looked up in a process-wide, thread-safe
/// registry that holds the built-in system types, declarations (``UTType/register(_:)``,
/// ``UTType/loadDeclarations(from:)``) and, where the system has it, the freedesktop shared-mime-info
/// database. Identifiers compare case-insensitively, as on Apple platforms.
public struct UTType: Sendable {
    /// The type's uniform type identifier, for example `public.jpeg`.
    public let identifier: String

    /// The identifier lower-cased (the registry's key), computed once: equality, hashing and conformance
    /// compare it, and a clipboard owner may offer a million distinct types, each compared with every
    /// converter's — lower-casing both sides per comparison was most of that time.
    let key: String

    /// Wraps an identifier the caller knows to be valid (built-in constants, registry results).
    init(knownIdentifier identifier: String) {
        self.identifier = identifier
        self.key = TypeRegistry.lowercasedKey(identifier)
    }

    /// Creates a type for a uniform type identifier the system knows.
    ///
    /// Declared types (system, declaration files, `UTType(exportedAs:)` in this process,
    /// shared-mime-info) and `dyn.` identifiers of dynamic types are known; anything else gives `nil`.
    /// The result carries the declared spelling of the identifier even if `identifier` differs in case.
    public init?(_ identifier: String) {
        if let record = TypeRegistry.shared.record(for: identifier) {
            self.init(knownIdentifier: record.identifier)
        } else if DynamicTypeIdentifier(identifier: identifier) != nil {
            self.init(knownIdentifier: identifier.lowercased())
        } else {
            return nil
        }
    }

    /// Creates a type for an identifier, optionally keeping an identifier nothing declares.
    ///
    /// With `allowUndeclared: true`, a syntactically valid identifier the system does not know gives a
    /// type that is neither dynamic nor declared and has no conformances or tags (Apple's iOS 27
    /// behaviour); `nil` only for a string that is not a valid identifier. With `false`, the same as
    /// ``init(_:)``.
    public init?(identifier: String, allowUndeclared: Bool) {
        if let known = UTType(identifier) {
            self = known
        } else if allowUndeclared, Self.isValidIdentifier(identifier) {
            self.init(knownIdentifier: identifier)
        } else {
            return nil
        }
    }

    /// Whether a string is a syntactically valid uniform type identifier: non-empty, made of ASCII
    /// letters, digits, `-` and `.`, or non-ASCII Unicode characters, with no empty component.
    static func isValidIdentifier(_ identifier: String) -> Bool {
        guard !identifier.isEmpty, !identifier.hasPrefix("."), !identifier.hasSuffix("."),
            !identifier.contains("..")
        else { return false }
        return identifier.unicodeScalars.allSatisfy { scalar in
            scalar.value >= 0x80 || scalar == "-" || scalar == "."
                || ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
        }
    }

    // MARK: - Kind

    /// The registry record, if the type is declared (or exported in-process without a declaration).
    var record: TypeRecord? { TypeRegistry.shared.existingRecord(for: identifier) }

    /// The decoded identifier, if this is a dynamic type.
    var dynamicIdentifier: DynamicTypeIdentifier? {
        identifier.hasPrefix("dyn.") ? DynamicTypeIdentifier(identifier: identifier) : nil
    }

    /// Whether the system synthesized this type (a `dyn.` identifier) because nothing declares its tag.
    ///
    /// A type is never both dynamic and declared.
    public var isDynamic: Bool { dynamicIdentifier != nil }

    /// Whether a declaration of this type is known: a system type, a declaration file or
    /// ``UTType/register(_:)``, or shared-mime-info.
    ///
    /// A type created with `UTType(exportedAs:)` for an identifier nothing declares works in this
    /// process but reports `false` here: other applications on the clipboard will not know it (the
    /// most common cross-application failure). Declare it with ``UTType/register(_:)`` or a
    /// declaration file to fix that.
    public var isDeclared: Bool { record?.origin.isDeclaration ?? false }

    /// Whether the identifier is in the reserved `public.` domain. Public types are never dynamic.
    public var isPublic: Bool { identifier.lowercased().hasPrefix("public.") }

    /// A plain English name of the type, such as "PNG image"; dynamic types never have one.
    public var localizedDescription: String? { record?.description }

    /// The version the declaration gives (`UTTypeVersion`), usually `nil`.
    public var version: Int? { record?.version }

    /// The reference document URL the declaration gives (`UTTypeReferenceURL`); not validated.
    public var referenceURL: URL? { record?.referenceURL }

    // MARK: - Conformance

    /// Identifiers of the direct parents.
    var directParents: [String] {
        if let dynamic = dynamicIdentifier { return dynamic.conformsTo }
        return record?.conformsTo ?? []
    }

    /// All ancestors, lower-cased key → spelled identifier.
    private var ancestorTable: [String: String] {
        if key.hasPrefix("dyn.") { return TypeRegistry.shared.ancestors(ofDynamic: identifier, key: key) }
        return TypeRegistry.shared.ancestors(ofKey: key)
    }

    /// The set of all types this type conforms to, directly and indirectly (not including itself).
    ///
    /// To test a single relationship, ``conforms(to:)`` is cheaper.
    public var supertypes: Set<UTType> {
        Set(ancestorTable.values.map(UTType.init(knownIdentifier:)))
    }

    /// This type's conformances read once, for asking many ``conforms(to:)`` questions of one type: a
    /// converter search asks it of every converter, for each of the (possibly a million) offered types.
    package var conformances: Conformances { Conformances(key: key, ancestors: ancestorTable) }

    /// The identifier as the registry keys it (lower-cased): equal for equal types.
    package var registryKey: String { key }

    /// Whether this type is `type` or conforms to it, directly or indirectly.
    public func conforms(to type: UTType) -> Bool {
        key == type.key || ancestorTable[type.key] != nil
    }

    /// Whether `type` conforms to this type and is not equal to it.
    public func isSupertype(of type: UTType) -> Bool {
        self != type && type.conforms(to: self)
    }

    /// Whether this type conforms to `type` and is not equal to it.
    public func isSubtype(of type: UTType) -> Bool {
        self != type && conforms(to: type)
    }
}

extension UTType: Hashable {
    /// Types are equal when their identifiers are equal, ignoring letter case.
    public static func == (lhs: UTType, rhs: UTType) -> Bool {
        lhs.key == rhs.key
    }

    /// Hashes the lower-cased identifier, consistent with ``==(_:_:)``.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(key)
    }
}

/// What one type conforms to, read from the registry once (``UTType/conformances``).
package struct Conformances: Sendable {
    let key: String
    let ancestors: [String: String]

    /// Whether the type is `type` or conforms to it: the same answer as ``UTType/conforms(to:)``.
    package func include(_ type: UTType) -> Bool {
        key == type.key || ancestors[type.key] != nil
    }

    /// The ``UTType/registryKey`` of the type and of every type it conforms to.
    package var keys: [String] { [key] + ancestors.keys }
}
