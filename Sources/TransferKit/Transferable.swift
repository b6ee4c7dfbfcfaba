// SPDX-License-Identifier: Apache-2.0

/// A type that describes how its values are exported to and imported from other processes — through the
/// clipboard, drag and drop or files — as a list of transfer representations.
///
/// Conform a model by listing its representations from most to least faithful; receivers take the
/// first one whose content type they understand:
///
/// ```swift
/// struct Todo: Codable, Transferable {
///     var text: String
///     var isDone: Bool
///
///     static var transferRepresentation: some TransferRepresentation {
///         CodableRepresentation(contentType: .todo)
///         ProxyRepresentation(exporting: \.text)
///     }
/// }
/// ```
///
/// Once a type conforms, the extension API (``exported(as:)``, ``init(importing:contentType:)-(Data,_)``,
/// ``exportedContentTypes(_:)`` …) and the resolution layer (``resolvedExporters(visibility:)``,
/// ``resolvedImporter(forOfferedTypes:)``) work for it without further code.
///
/// `Transferable` refines `Sendable` as in Apple's current SDKs; the requirement is `@preconcurrency` so
/// Swift 5 code with non-`Sendable` models still compiles, with warnings.
@preconcurrency
public protocol Transferable: Sendable {
    /// The type of the representation, usually inferred from ``transferRepresentation``.
    associatedtype Representation: TransferRepresentation

    /// The representations used to import and export values of this type, most preferred first.
    @TransferRepresentationBuilder<Self>
    static var transferRepresentation: Self.Representation { get }
}
