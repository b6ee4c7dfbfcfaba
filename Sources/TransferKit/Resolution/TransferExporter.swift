// SPDX-License-Identifier: Apache-2.0

/// One way to export a particular value: a content type and the work that produces it.
///
/// Obtain exporters with ``Transferable/resolvedExporters(visibility:)``; they come in the value's
/// declaration order (most preferred first) with `exportingCondition` already evaluated for the
/// value, representations hidden from the requested audience removed, and proxies expanded in place
/// (a `ProxyRepresentation` to `String` contributes `String`'s types at its position). An exporter keeps
/// the value it was resolved for; calling ``export()`` does the actual encoding.
///
/// ```swift
/// for exporter in profile.resolvedExporters() {
///     print(exporter.contentType.identifier)        // com.example.profile, public.utf8-plain-text, …
/// }
/// let bytes = try await profile.resolvedExporters()[0].exportData()
/// ```
public struct TransferExporter: Sendable {
    /// The content type this exporter produces.
    public let contentType: UTType
    /// The effective visibility: the narrowest of the `visibility(_:)` modifiers on the path to the
    /// representation (including those around a proxy and inside the proxied type).
    public internal(set) var visibility: TransferRepresentationVisibility
    /// The name set with `suggestedFileName(_:)` (the outermost one wins), or nil.
    public internal(set) var suggestedFileName: String?
    /// Whether the representation produces a file (``FileRepresentation``) rather than bytes.
    public let isFileBacked: Bool
    /// Whether an export-only ``FileRepresentation`` was declared with `shouldAllowToOpenInPlace: true`.
    public let allowsOpeningInPlace: Bool
    /// Whether the exporter was contributed by a ``ProxyRepresentation`` (at any depth).
    public internal(set) var isProxied: Bool

    let run: @Sendable () async throws -> TransferPayload

    init(
        contentType: UTType,
        visibility: TransferRepresentationVisibility,
        suggestedFileName: String?,
        isFileBacked: Bool,
        allowsOpeningInPlace: Bool,
        isProxied: Bool,
        export: @escaping @Sendable () async throws -> TransferPayload
    ) {
        self.contentType = contentType
        self.visibility = visibility
        self.suggestedFileName = suggestedFileName
        self.isFileBacked = isFileBacked
        self.allowsOpeningInPlace = allowsOpeningInPlace
        self.isProxied = isProxied
        self.run = export
    }

    /// Produces the payload: bytes for data and codable representations, a file for file
    /// representations. A file returned here belongs to the exporting code; do not delete it.
    ///
    /// - Throws: ``TransferError`` with code ``TransferError/Code/exportFailed`` wrapping the
    ///   representation's own error, or `CancellationError`.
    public func export() async throws -> TransferPayload {
        try await run()
    }

    /// Produces the payload's bytes, reading the exported file when the representation is file-backed.
    ///
    /// - Throws: As ``export()``; reading an exported file that cannot be read is ``TransferError/Code/exportFailed``.
    public func exportData() async throws -> Data {
        let payload = try await export()
        do {
            return try payload.loadData()
        } catch {
            throw TransferError(
                .exportFailed,
                "cannot read the file exported as \(contentType.identifier)",
                contentType: contentType,
                underlying: error
            )
        }
    }
}
