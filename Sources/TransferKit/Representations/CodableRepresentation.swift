// SPDX-License-Identifier: Apache-2.0

/// Transfers a `Codable` item as encoded bytes — JSON by default.
///
/// ```swift
/// extension UTType {
///     static var todo: UTType { UTType(exportedAs: "com.example.todo") }
/// }
///
/// struct Todo: Codable, Transferable {
///     var text: String
///     static var transferRepresentation: some TransferRepresentation {
///         CodableRepresentation(contentType: .todo)
///     }
/// }
/// ```
///
/// Supply other coders for other formats, e.g. `encoder: PropertyListEncoder(), decoder:
/// PropertyListDecoder()`. An encoder error is reported as ``TransferError/Code/exportFailed``, a decoder
/// error as ``TransferError/Code/decodingFailed``; both keep the coder's error as
/// ``TransferError/underlying``.
@preconcurrency
public struct CodableRepresentation<Item, Encoder, Decoder>: TransferRepresentation
where
    Item: Transferable, Item: Decodable, Item: Encodable, Encoder: TopLevelEncoder, Encoder: Sendable,
    Decoder: TopLevelDecoder, Decoder: Sendable, Encoder.Output == Data, Decoder.Input == Data
{
    /// A leaf representation; no body.
    public typealias Body = Never

    let contentType: UTType
    let encoder: Encoder
    let decoder: Decoder

    /// Creates a representation that encodes with a default `JSONEncoder` and decodes with a default
    /// `JSONDecoder`.
    ///
    /// - Parameters:
    ///   - itemType: The item type; usually omitted and inferred from the enclosing conformance.
    ///   - contentType: The content type of the encoded bytes.
    public init(for itemType: Item.Type = Item.self, contentType: UTType)
    where Encoder == JSONEncoder, Decoder == JSONDecoder {
        self.init(for: itemType, contentType: contentType, encoder: JSONEncoder(), decoder: JSONDecoder())
    }

    /// Creates a representation that uses the given coders.
    ///
    /// - Parameters:
    ///   - itemType: The item type; usually omitted and inferred from the enclosing conformance.
    ///   - contentType: The content type of the encoded bytes.
    ///   - encoder: Encodes an item into the bytes that are exported.
    ///   - decoder: Decodes imported bytes into an item.
    public init(for itemType: Item.Type = Item.self, contentType: UTType, encoder: Encoder, decoder: Decoder) {
        self.contentType = contentType
        self.encoder = encoder
        self.decoder = decoder
    }
}

extension CodableRepresentation: PrimitiveTransferRepresentation {
    func entries() -> [RepresentationEntry<Item>] {
        let contentType = contentType
        let encoder = encoder
        let decoder = decoder
        let leaf = LeafEntry<Item>(
            contentType: contentType,
            isFileBacked: false,
            exporter: { item in
                try await TransferError.wrap(
                    .exportFailed, "cannot encode \(Item.self) as \(contentType.identifier)",
                    contentType: contentType
                ) {
                    .data(try encoder.encode(item))
                }
            },
            importer: { context in
                let data = try loadImportedData(context, contentType: contentType, item: Item.self)
                return try await TransferError.wrap(
                    .decodingFailed, "cannot decode \(Item.self) from \(context.offeredType.identifier)",
                    contentType: context.offeredType
                ) {
                    try decoder.decode(Item.self, from: data)
                }
            }
        )
        return [RepresentationEntry(leaf)]
    }
}

/// The bytes of an import payload, reading a file payload; a file that cannot be read is an import
/// failure.
func loadImportedData(_ context: ImportContext, contentType: UTType, item: Any.Type) throws -> Data {
    do {
        return try context.payload.loadData()
    } catch {
        throw TransferError(
            .importFailed, "cannot read the file offered as \(context.offeredType.identifier) for \(item)",
            contentType: context.offeredType, underlying: error
        )
    }
}
