// SPDX-License-Identifier: Apache-2.0

// Apple's `CodableRepresentation` constrains its coders with Combine's `TopLevelEncoder` and
// `TopLevelDecoder`. Linux has no Combine, so TransferKit declares the two protocols with Combine's
// exact names and shapes, and conforms Foundation's JSON and property-list coders, so that
// `CodableRepresentation(contentType:encoder:decoder:)` accepts what it accepts on Apple platforms.

/// A type that encodes a value into a top-level output, such as `JSONEncoder` producing `Data`.
///
/// Same shape as Combine's `TopLevelEncoder`.
public protocol TopLevelEncoder {
    /// The type this encoder produces.
    associatedtype Output

    /// Encodes a value.
    func encode<T>(_ value: T) throws -> Self.Output where T: Encodable
}

/// A type that decodes a value from a top-level input, such as `JSONDecoder` reading `Data`.
///
/// Same shape as Combine's `TopLevelDecoder`.
public protocol TopLevelDecoder {
    /// The type this decoder reads.
    associatedtype Input

    /// Decodes a value of the given type.
    func decode<T>(_ type: T.Type, from: Self.Input) throws -> T where T: Decodable
}

extension JSONEncoder: TopLevelEncoder {}
extension JSONDecoder: TopLevelDecoder {}
extension PropertyListEncoder: TopLevelEncoder {}
extension PropertyListDecoder: TopLevelDecoder {}
