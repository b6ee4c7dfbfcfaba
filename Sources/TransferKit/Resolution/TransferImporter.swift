// SPDX-License-Identifier: Apache-2.0

/// One way to build an `Item` from an offered content type.
///
/// Obtain importers with ``Transferable/resolvedImporter(forOfferedTypes:)`` (the best one) or
/// ``Transferable/resolvedImporters(forOfferedTypes:)`` (all that fit, best first). ``offeredType`` is the
/// type to fetch from the offerer; ``import(_:)`` then turns what arrived into a value.
///
/// ```swift
/// let offered: [UTType] = [.png, .utf8PlainText]            // from the clipboard owner, richest first
/// if let importer = DroppableItem.resolvedImporter(forOfferedTypes: offered) {
///     let bytes = try await fetch(importer.offeredType)
///     let item = try await importer.import(.data(bytes))
/// }
/// ```
public struct TransferImporter<Item: Transferable>: Sendable {
    /// The content type the representation declares (for a proxied importer, the proxy target's).
    public let contentType: UTType
    /// The offered type this importer was matched to: ``contentType`` itself or a type conforming to it.
    /// For importers listed without an offer (``Transferable/resolvedImporters()``) it equals
    /// ``contentType``.
    public let offeredType: UTType
    /// Whether the representation consumes a file (``FileRepresentation``) rather than bytes; such an
    /// importer prefers a `.file` payload but also accepts `.data`.
    public let isFileBacked: Bool
    /// Whether the representation was declared with `shouldAttemptToOpenInPlace: true`.
    public let attemptsToOpenInPlace: Bool
    /// Whether the importer goes through a ``ProxyRepresentation`` (at any depth).
    public let isProxied: Bool

    let run: @Sendable (ImportContext) async throws -> Item

    init(row: ImportRow<Item>, offeredType: UTType) {
        contentType = row.contentType
        self.offeredType = offeredType
        isFileBacked = row.isFileBacked
        attemptsToOpenInPlace = row.attemptsToOpenInPlace
        isProxied = row.isProxied
        run = row.run
    }

    /// Builds a value from a payload of ``offeredType``.
    ///
    /// A `.data` payload given to a file-backed representation is written to a temporary file first; a
    /// `.file` payload is copied to a temporary location unless the representation attempts to open in
    /// place and the payload allows access to the original. Temporary files are removed when the
    /// representation's importing closure returns, as on Apple platforms.
    ///
    /// - Throws: ``TransferError`` with code ``TransferError/Code/importFailed`` or
    ///   ``TransferError/Code/decodingFailed`` wrapping the underlying error, or `CancellationError`.
    public func `import`(_ payload: TransferPayload) async throws -> Item {
        try await run(ImportContext(payload: payload, offeredType: offeredType))
    }
}
