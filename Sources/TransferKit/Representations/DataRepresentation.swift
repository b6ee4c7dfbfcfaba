// SPDX-License-Identifier: Apache-2.0

/// Transfers an item as bytes in memory, with your own conversion to and from `Data`.
///
/// ```swift
/// DataRepresentation(contentType: .commaSeparatedText) { archive in
///     try archive.toCSV()
/// } importing: { data in
///     try ProfilesArchive(csvData: data)
/// }
/// ```
///
/// Use the `exportedContentType:` or `importedContentType:` initializer for a one-way representation.
/// Errors thrown by the closures are reported as ``TransferError/Code/exportFailed`` and
/// ``TransferError/Code/importFailed`` with the closure's error as ``TransferError/underlying``.
public struct DataRepresentation<Item>: TransferRepresentation where Item: Transferable {
    /// A leaf representation; no body.
    public typealias Body = Never

    let contentType: UTType
    let exporting: (@Sendable (Item) async throws -> Data)?
    let importing: (@Sendable (Data) async throws -> Item)?

    /// Creates a representation that both exports and imports.
    ///
    /// - Parameters:
    ///   - contentType: The content type of the bytes.
    ///   - exporting: Produces the bytes for an item.
    ///   - importing: Builds an item from received bytes.
    public init(
        contentType: UTType,
        exporting: @escaping @Sendable (Item) async throws -> Data,
        importing: @escaping @Sendable (Data) async throws -> Item
    ) {
        self.contentType = contentType
        self.exporting = exporting
        self.importing = importing
    }

    /// Creates an import-only representation.
    ///
    /// - Parameters:
    ///   - importedContentType: The content type accepted (subtypes are accepted too).
    ///   - importing: Builds an item from received bytes.
    public init(importedContentType: UTType, importing: @escaping @Sendable (Data) async throws -> Item) {
        contentType = importedContentType
        exporting = nil
        self.importing = importing
    }

    /// Creates an export-only representation.
    ///
    /// - Parameters:
    ///   - exportedContentType: The content type produced.
    ///   - exporting: Produces the bytes for an item.
    public init(exportedContentType: UTType, exporting: @escaping @Sendable (Item) async throws -> Data) {
        contentType = exportedContentType
        self.exporting = exporting
        importing = nil
    }
}

extension DataRepresentation: PrimitiveTransferRepresentation {
    func entries() -> [RepresentationEntry<Item>] {
        let contentType = contentType
        var leaf = LeafEntry<Item>(contentType: contentType, isFileBacked: false)
        if let exporting {
            leaf.exporter = { item in
                try await TransferError.wrap(
                    .exportFailed, "cannot export \(Item.self) as \(contentType.identifier)",
                    contentType: contentType
                ) {
                    .data(try await exporting(item))
                }
            }
        }
        if let importing {
            leaf.importer = { context in
                let data = try loadImportedData(context, contentType: contentType, item: Item.self)
                return try await TransferError.wrap(
                    .importFailed, "cannot import \(Item.self) from \(context.offeredType.identifier)",
                    contentType: context.offeredType
                ) {
                    try await importing(data)
                }
            }
        }
        return [RepresentationEntry(leaf)]
    }
}
