// SPDX-License-Identifier: Apache-2.0

/// The error TransferKit throws.
///
/// Apple documents no public error type for CoreTransferable; this one follows the shape of NIO's
/// `FileSystemError`: a small extensible ``Code`` to switch on, a human-readable ``message``, and the
/// context needed to act on it (the ``contentType`` involved, the ``availableContentTypes`` when nothing
/// matched, and the ``underlying`` error a representation closure or a coder threw).
///
/// Errors a representation closure throws are wrapped (`exportFailed`, `importFailed`,
/// `decodingFailed`), except a `TransferError` (passed through unchanged, so proxies do not nest
/// wrappers) and `CancellationError` (which stays a `CancellationError`).
public struct TransferError: Error, Hashable, Sendable, CustomStringConvertible, CustomDebugStringConvertible {
    /// What went wrong, coarsely.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private let name: String
        private init(_ name: String) { self.name = name }

        /// No representation of the type can produce or accept the requested content type;
        /// ``TransferError/availableContentTypes`` lists the ones that could.
        public static let noCompatibleRepresentation = Code("noCompatibleRepresentation")

        /// A representation failed to produce its content (its exporting closure or encoder threw, or an
        /// exported file could not be read or copied).
        public static let exportFailed = Code("exportFailed")

        /// A representation failed to build a value (its importing closure threw, or the received file
        /// could not be staged).
        public static let importFailed = Code("importFailed")

        /// The bytes could not be decoded as the declared content type (a decoder threw, text was not
        /// valid in its encoding, an image's signature did not match).
        public static let decodingFailed = Code("decodingFailed")

        /// The code's name, e.g. `noCompatibleRepresentation`.
        public var description: String { name }
    }

    /// The kind of failure.
    public var code: Code
    /// A sentence describing the failure, naming the item type and content types involved.
    public var message: String
    /// The content type being exported, imported or decoded, when there was one.
    public var contentType: UTType?
    /// For ``Code/noCompatibleRepresentation``: the content types that were available, in order.
    public var availableContentTypes: [UTType]
    /// The error thrown by a representation closure, coder or the file system, if any.
    public var underlying: (any Error)?

    /// Creates an error. Representation closures may throw these to report a precise code.
    public init(
        _ code: Code,
        _ message: String,
        contentType: UTType? = nil,
        availableContentTypes: [UTType] = [],
        underlying: (any Error)? = nil
    ) {
        self.code = code
        self.message = message
        self.contentType = contentType
        self.availableContentTypes = availableContentTypes
        self.underlying = underlying
    }

    /// Errors are equal when their codes are (as every error of ClipBridge's modules).
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.code == rhs.code }

    /// Hashes the code only (consistent with `==`).
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }

    /// The message, followed by the underlying error when there is one.
    public var description: String {
        guard let underlying else { return message }
        return "\(message): \(underlying)"
    }

    /// The code, message, content types and underlying error.
    public var debugDescription: String {
        var parts = ["TransferError(\(code)): \(message)"]
        if let contentType { parts.append("content type: \(contentType.identifier)") }
        if !availableContentTypes.isEmpty {
            parts.append("available: " + availableContentTypes.map(\.identifier).joined(separator: ", "))
        }
        if let underlying { parts.append("underlying: \(String(reflecting: underlying))") }
        return parts.joined(separator: "; ")
    }
}

extension TransferError {
    /// Wraps an error thrown by a representation closure, leaving `TransferError` and
    /// `CancellationError` untouched.
    static func wrapping(
        _ error: any Error,
        as code: Code,
        _ message: @autoclosure () -> String,
        contentType: UTType
    ) -> any Error {
        if error is TransferError || error is CancellationError { return error }
        return TransferError(code, message(), contentType: contentType, underlying: error)
    }

    /// Runs a representation closure, wrapping what it throws.
    static func wrap<T>(
        _ code: Code,
        _ message: @autoclosure () -> String,
        contentType: UTType,
        _ body: () async throws -> T
    ) async throws -> T {
        do {
            return try await body()
        } catch {
            throw wrapping(error, as: code, message(), contentType: contentType)
        }
    }

    /// The error for "nothing can produce or accept this type".
    static func noRepresentation(
        _ item: Any.Type,
        _ verb: String,
        _ contentType: UTType?,
        available: [UTType]
    ) -> TransferError {
        let wanted = contentType.map { "content type \($0.identifier)" } ?? "any content type"
        let list = available.isEmpty ? "none" : available.map(\.identifier).joined(separator: ", ")
        return TransferError(
            .noCompatibleRepresentation,
            "\(item) has no representation that can \(verb) \(wanted) (available: \(list))",
            contentType: contentType,
            availableContentTypes: available
        )
    }
}
