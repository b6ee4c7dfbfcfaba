// SPDX-License-Identifier: Apache-2.0

/// Several representations listed one after another, as produced by ``TransferRepresentationBuilder``.
///
/// You never create one yourself; it is the type behind a `transferRepresentation` or `body` that lists
/// more than one representation. `Value` is the tuple of the listed representations.
public struct TupleTransferRepresentation<Item, Value>: TransferRepresentation
where Item: Transferable, Value: Sendable {
    /// A list has no body; its representations are read directly.
    public typealias Body = Never

    /// The listed representations.
    let value: Value
    /// Captured by the builder, which still knows each element's static type.
    let resolve: @Sendable () -> [RepresentationEntry<Item>]

    init(_ value: Value, resolve: @escaping @Sendable () -> [RepresentationEntry<Item>]) {
        self.value = value
        self.resolve = resolve
    }
}

extension TupleTransferRepresentation: PrimitiveTransferRepresentation {
    func entries() -> [RepresentationEntry<Item>] { resolve() }
}
