// SPDX-License-Identifier: Apache-2.0

/// A declarative description of one way (or, through ``body``, several ways) to transfer a
/// ``Transferable`` item.
///
/// The framework's leaf representations — ``CodableRepresentation``, ``DataRepresentation``,
/// ``FileRepresentation`` and ``ProxyRepresentation`` — have `Body == Never`. Your own representation
/// types compose them in ``body``, the way SwiftUI views compose other views:
///
/// ```swift
/// struct TextAndJSON<Item: Transferable & Codable>: TransferRepresentation {
///     let text: @Sendable (Item) -> String
///     var body: some TransferRepresentation<Item> {
///         CodableRepresentation(contentType: .json)
///         ProxyRepresentation(exporting: text)
///     }
/// }
/// ```
public protocol TransferRepresentation<Item>: Sendable {
    /// The model type this representation transfers.
    associatedtype Item: Transferable

    /// The type of the composed representation; `Never` for the framework's leaf representations.
    associatedtype Body: TransferRepresentation

    /// The representations this one is made of.
    @TransferRepresentationBuilder<Self.Item>
    var body: Self.Body { get }
}

extension TransferRepresentation where Body == Never {
    /// Leaf representations have no body; the framework reads their content directly.
    ///
    /// Calling this is a programming error, as with SwiftUI's primitive views.
    public var body: Never {
        preconditionFailure("\(Self.self) is a primitive transfer representation and has no body")
    }
}
