// SPDX-License-Identifier: Apache-2.0

// The containers behind the builder's control-flow support. Apple's builder has no `if`, `switch` or
// `for`, so these have no Apple counterpart; they are public only because builder methods return them,
// and underscored like SwiftUI's `_ConditionalContent`.

/// The result of an `if` without `else` in a representation builder.
public struct _OptionalTransferRepresentation<Wrapped>: TransferRepresentation
where Wrapped: TransferRepresentation {
    /// The wrapped representation's item.
    public typealias Item = Wrapped.Item
    /// Read directly; no body.
    public typealias Body = Never

    let wrapped: Wrapped?

    init(_ wrapped: Wrapped?) { self.wrapped = wrapped }
}

extension _OptionalTransferRepresentation: PrimitiveTransferRepresentation {
    func entries() -> [RepresentationEntry<Item>] {
        wrapped.map { RepresentationResolver.entries(of: $0) } ?? []
    }
}

/// The result of an `if`/`else` or `switch` in a representation builder: one of two representations.
public struct _EitherTransferRepresentation<TrueContent, FalseContent>: TransferRepresentation
where TrueContent: TransferRepresentation, FalseContent: TransferRepresentation, TrueContent.Item == FalseContent.Item {
    /// The branches' common item.
    public typealias Item = TrueContent.Item
    /// Read directly; no body.
    public typealias Body = Never

    enum Storage: Sendable {
        case first(TrueContent)
        case second(FalseContent)
    }

    let storage: Storage

    init(first: TrueContent) { storage = .first(first) }
    init(second: FalseContent) { storage = .second(second) }
}

extension _EitherTransferRepresentation: PrimitiveTransferRepresentation {
    func entries() -> [RepresentationEntry<Item>] {
        switch storage {
        case .first(let content): RepresentationResolver.entries(of: content)
        case .second(let content): RepresentationResolver.entries(of: content)
        }
    }
}

/// The result of a `for` loop in a representation builder: the iterations' representations in order.
public struct _ArrayTransferRepresentation<Element>: TransferRepresentation where Element: TransferRepresentation {
    /// The elements' item.
    public typealias Item = Element.Item
    /// Read directly; no body.
    public typealias Body = Never

    let elements: [Element]

    init(_ elements: [Element]) { self.elements = elements }
}

extension _ArrayTransferRepresentation: PrimitiveTransferRepresentation {
    func entries() -> [RepresentationEntry<Item>] {
        elements.flatMap { RepresentationResolver.entries(of: $0) }
    }
}
