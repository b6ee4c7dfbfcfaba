// SPDX-License-Identifier: Apache-2.0
// ClipBridge — UniformTypes

import FoundationEssentials

/// The error thrown when a type declaration — a declaration file, a shared-mime-info package or a
/// ``UTTypeDeclaration`` passed to ``UTType/register(_:)`` — cannot be used.
///
/// It names the file, the key inside it and the reason, for example:
/// `Types.plist: UTExportedTypeDeclarations[1].UTTypeIdentifier: missing required string`.
/// Linux-only: on Apple platforms the system reads Info.plist declarations itself.
public struct UTTypeDeclarationError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong, independent of the file.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private let name: String
        private init(_ name: String) { self.name = name }

        /// The file could not be read (missing, unreadable, a directory without packages).
        public static let unreadableFile = Code("unreadableFile")
        /// The file is not a well-formed XML property list, JSON document or shared-mime-info package.
        public static let malformedFile = Code("malformedFile")
        /// A required key is missing.
        public static let missingKey = Code("missingKey")
        /// A key has a value of the wrong type or an invalid value (bad identifier, MIME type, URL…).
        public static let invalidValue = Code("invalidValue")
        /// The declaration contradicts one that is already known (for example it redeclares a system
        /// type, or two files export the same identifier differently).
        public static let conflictingDeclaration = Code("conflictingDeclaration")

        /// The code's name.
        public var description: String { name }
    }

    /// What went wrong.
    public var code: Code
    /// The file, if the declaration came from one.
    public var file: URL?
    /// The key path inside the file, such as `UTExportedTypeDeclarations[1].UTTypeIdentifier`.
    public var key: String?
    /// A human-readable reason.
    public var reason: String
    /// The error that caused this one (the file system's, a parser's), if any.
    public var underlying: (any Error)?

    /// Creates an error.
    public init(_ code: Code, file: URL? = nil, key: String? = nil, reason: String, underlying: (any Error)? = nil) {
        self.code = code
        self.file = file
        self.key = key
        self.reason = reason
        self.underlying = underlying
    }

    /// Errors are equal when their codes are (as every error of ClipBridge's modules).
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.code == rhs.code }

    /// Hashes the code only (consistent with `==`).
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }

    /// `file: key: reason: underlying`, leaving out what is unknown.
    public var description: String {
        var parts: [String] = []
        if let file { parts.append(file.path) }
        if let key { parts.append(key) }
        parts.append(reason)
        if let underlying { parts.append("\(underlying)") }
        return parts.joined(separator: ": ")
    }
}
