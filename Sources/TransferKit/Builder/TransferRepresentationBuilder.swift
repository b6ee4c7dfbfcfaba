// SPDX-License-Identifier: Apache-2.0

/// The result builder behind `transferRepresentation` and `body`: it lists representations in order of
/// preference.
///
/// The documented Apple surface is here name for name: two `buildExpression` overloads (the second pins
/// `Item` for a bare `CodableRepresentation(contentType:)`) and `buildBlock` for 1 to 10 representations.
/// TransferKit adds `buildPartialBlock` (any number of representations), `buildOptional` / `buildIf` /
/// `buildEither` (`if`, `if`/`else`, `switch`), `buildLimitedAvailability` (`if #available`) and
/// `buildArray` (`for` loops). Apple's builder rejects those statements, so these additions only accept
/// more code, never change the meaning of code Apple accepts.
///
/// Swift prefers `buildPartialBlock` whenever a builder has it, so blocks are folded pairwise into nested
/// ``TupleTransferRepresentation`` values; the `buildBlock` overloads remain for code that calls them.
@resultBuilder
public struct TransferRepresentationBuilder<Item> where Item: Transferable {
    /// Accepts any representation of `Item`.
    public static func buildExpression<R>(_ content: R) -> R where Item == R.Item, R: TransferRepresentation {
        content
    }

    /// Accepts a `CodableRepresentation` whose item type is left for the builder to infer, as in
    /// `CodableRepresentation(contentType: .todo)`.
    public static func buildExpression<Encoder, Decoder>(
        _ content: CodableRepresentation<Item, Encoder, Decoder>
    ) -> CodableRepresentation<Item, Encoder, Decoder>
    where
        Item: Decodable, Item: Encodable, Encoder: TopLevelEncoder, Decoder: TopLevelDecoder,
        Encoder.Output == Data, Decoder.Input == Data
    {
        content
    }

    /// A single representation is its own result.
    public static func buildBlock<Content>(_ content: Content) -> Content
    where Item == Content.Item, Content: TransferRepresentation {
        content
    }

    /// Combines 2 representations, listed in order of preference.
    public static func buildBlock<C1, C2>(
        _ content1: C1,
        _ content2: C2
    ) -> TupleTransferRepresentation<Item, (C1, C2)>
    where
        Item == C1.Item, C1: TransferRepresentation, C2: TransferRepresentation, C1.Item == C2.Item
    {
        TupleTransferRepresentation((content1, content2)) {
            RepresentationResolver.entries(of: content1)
                + RepresentationResolver.entries(of: content2)
        }
    }

    /// Combines 3 representations, listed in order of preference.
    public static func buildBlock<C1, C2, C3>(
        _ content1: C1,
        _ content2: C2,
        _ content3: C3
    ) -> TupleTransferRepresentation<Item, (C1, C2, C3)>
    where
        Item == C1.Item, C1: TransferRepresentation, C2: TransferRepresentation, C3: TransferRepresentation,
        C1.Item == C2.Item, C2.Item == C3.Item
    {
        TupleTransferRepresentation((content1, content2, content3)) {
            RepresentationResolver.entries(of: content1)
                + RepresentationResolver.entries(of: content2)
                + RepresentationResolver.entries(of: content3)
        }
    }

    /// Combines 4 representations, listed in order of preference.
    public static func buildBlock<C1, C2, C3, C4>(
        _ content1: C1,
        _ content2: C2,
        _ content3: C3,
        _ content4: C4
    ) -> TupleTransferRepresentation<Item, (C1, C2, C3, C4)>
    where
        Item == C1.Item, C1: TransferRepresentation, C2: TransferRepresentation, C3: TransferRepresentation,
        C4: TransferRepresentation, C1.Item == C2.Item, C2.Item == C3.Item, C3.Item == C4.Item
    {
        TupleTransferRepresentation((content1, content2, content3, content4)) {
            RepresentationResolver.entries(of: content1)
                + RepresentationResolver.entries(of: content2)
                + RepresentationResolver.entries(of: content3)
                + RepresentationResolver.entries(of: content4)
        }
    }

    /// Combines 5 representations, listed in order of preference.
    public static func buildBlock<C1, C2, C3, C4, C5>(
        _ content1: C1,
        _ content2: C2,
        _ content3: C3,
        _ content4: C4,
        _ content5: C5
    ) -> TupleTransferRepresentation<Item, (C1, C2, C3, C4, C5)>
    where
        Item == C1.Item, C1: TransferRepresentation, C2: TransferRepresentation, C3: TransferRepresentation,
        C4: TransferRepresentation, C5: TransferRepresentation, C1.Item == C2.Item, C2.Item == C3.Item,
        C3.Item == C4.Item, C4.Item == C5.Item
    {
        TupleTransferRepresentation((content1, content2, content3, content4, content5)) {
            RepresentationResolver.entries(of: content1)
                + RepresentationResolver.entries(of: content2)
                + RepresentationResolver.entries(of: content3)
                + RepresentationResolver.entries(of: content4)
                + RepresentationResolver.entries(of: content5)
        }
    }

    /// Combines 6 representations, listed in order of preference.
    public static func buildBlock<C1, C2, C3, C4, C5, C6>(
        _ content1: C1,
        _ content2: C2,
        _ content3: C3,
        _ content4: C4,
        _ content5: C5,
        _ content6: C6
    ) -> TupleTransferRepresentation<Item, (C1, C2, C3, C4, C5, C6)>
    where
        Item == C1.Item, C1: TransferRepresentation, C2: TransferRepresentation, C3: TransferRepresentation,
        C4: TransferRepresentation, C5: TransferRepresentation, C6: TransferRepresentation, C1.Item == C2.Item,
        C2.Item == C3.Item, C3.Item == C4.Item, C4.Item == C5.Item, C5.Item == C6.Item
    {
        TupleTransferRepresentation((content1, content2, content3, content4, content5, content6)) {
            RepresentationResolver.entries(of: content1)
                + RepresentationResolver.entries(of: content2)
                + RepresentationResolver.entries(of: content3)
                + RepresentationResolver.entries(of: content4)
                + RepresentationResolver.entries(of: content5)
                + RepresentationResolver.entries(of: content6)
        }
    }

    /// Combines 7 representations, listed in order of preference.
    public static func buildBlock<C1, C2, C3, C4, C5, C6, C7>(
        _ content1: C1,
        _ content2: C2,
        _ content3: C3,
        _ content4: C4,
        _ content5: C5,
        _ content6: C6,
        _ content7: C7
    ) -> TupleTransferRepresentation<Item, (C1, C2, C3, C4, C5, C6, C7)>
    where
        Item == C1.Item, C1: TransferRepresentation, C2: TransferRepresentation, C3: TransferRepresentation,
        C4: TransferRepresentation, C5: TransferRepresentation, C6: TransferRepresentation,
        C7: TransferRepresentation, C1.Item == C2.Item, C2.Item == C3.Item, C3.Item == C4.Item, C4.Item == C5.Item,
        C5.Item == C6.Item, C6.Item == C7.Item
    {
        TupleTransferRepresentation((content1, content2, content3, content4, content5, content6, content7)) {
            RepresentationResolver.entries(of: content1)
                + RepresentationResolver.entries(of: content2)
                + RepresentationResolver.entries(of: content3)
                + RepresentationResolver.entries(of: content4)
                + RepresentationResolver.entries(of: content5)
                + RepresentationResolver.entries(of: content6)
                + RepresentationResolver.entries(of: content7)
        }
    }

    /// Combines 8 representations, listed in order of preference.
    public static func buildBlock<C1, C2, C3, C4, C5, C6, C7, C8>(
        _ content1: C1,
        _ content2: C2,
        _ content3: C3,
        _ content4: C4,
        _ content5: C5,
        _ content6: C6,
        _ content7: C7,
        _ content8: C8
    ) -> TupleTransferRepresentation<Item, (C1, C2, C3, C4, C5, C6, C7, C8)>
    where
        Item == C1.Item, C1: TransferRepresentation, C2: TransferRepresentation, C3: TransferRepresentation,
        C4: TransferRepresentation, C5: TransferRepresentation, C6: TransferRepresentation,
        C7: TransferRepresentation, C8: TransferRepresentation, C1.Item == C2.Item, C2.Item == C3.Item,
        C3.Item == C4.Item, C4.Item == C5.Item, C5.Item == C6.Item, C6.Item == C7.Item, C7.Item == C8.Item
    {
        TupleTransferRepresentation((content1, content2, content3, content4, content5, content6, content7, content8)) {
            RepresentationResolver.entries(of: content1)
                + RepresentationResolver.entries(of: content2)
                + RepresentationResolver.entries(of: content3)
                + RepresentationResolver.entries(of: content4)
                + RepresentationResolver.entries(of: content5)
                + RepresentationResolver.entries(of: content6)
                + RepresentationResolver.entries(of: content7)
                + RepresentationResolver.entries(of: content8)
        }
    }

    /// Combines 9 representations, listed in order of preference.
    public static func buildBlock<C1, C2, C3, C4, C5, C6, C7, C8, C9>(
        _ content1: C1,
        _ content2: C2,
        _ content3: C3,
        _ content4: C4,
        _ content5: C5,
        _ content6: C6,
        _ content7: C7,
        _ content8: C8,
        _ content9: C9
    ) -> TupleTransferRepresentation<Item, (C1, C2, C3, C4, C5, C6, C7, C8, C9)>
    where
        Item == C1.Item, C1: TransferRepresentation, C2: TransferRepresentation, C3: TransferRepresentation,
        C4: TransferRepresentation, C5: TransferRepresentation, C6: TransferRepresentation,
        C7: TransferRepresentation, C8: TransferRepresentation, C9: TransferRepresentation, C1.Item == C2.Item,
        C2.Item == C3.Item, C3.Item == C4.Item, C4.Item == C5.Item, C5.Item == C6.Item, C6.Item == C7.Item,
        C7.Item == C8.Item, C8.Item == C9.Item
    {
        TupleTransferRepresentation(
            (content1, content2, content3, content4, content5, content6, content7, content8, content9)
        ) {
            RepresentationResolver.entries(of: content1)
                + RepresentationResolver.entries(of: content2)
                + RepresentationResolver.entries(of: content3)
                + RepresentationResolver.entries(of: content4)
                + RepresentationResolver.entries(of: content5)
                + RepresentationResolver.entries(of: content6)
                + RepresentationResolver.entries(of: content7)
                + RepresentationResolver.entries(of: content8)
                + RepresentationResolver.entries(of: content9)
        }
    }

    /// Combines 10 representations, listed in order of preference.
    public static func buildBlock<C1, C2, C3, C4, C5, C6, C7, C8, C9, C10>(
        _ content1: C1,
        _ content2: C2,
        _ content3: C3,
        _ content4: C4,
        _ content5: C5,
        _ content6: C6,
        _ content7: C7,
        _ content8: C8,
        _ content9: C9,
        _ content10: C10
    ) -> TupleTransferRepresentation<Item, (C1, C2, C3, C4, C5, C6, C7, C8, C9, C10)>
    where
        Item == C1.Item, C1: TransferRepresentation, C2: TransferRepresentation, C3: TransferRepresentation,
        C4: TransferRepresentation, C5: TransferRepresentation, C6: TransferRepresentation,
        C7: TransferRepresentation, C8: TransferRepresentation, C9: TransferRepresentation,
        C10: TransferRepresentation, C1.Item == C2.Item, C2.Item == C3.Item, C3.Item == C4.Item, C4.Item == C5.Item,
        C5.Item == C6.Item, C6.Item == C7.Item, C7.Item == C8.Item, C8.Item == C9.Item, C9.Item == C10.Item
    {
        TupleTransferRepresentation(
            (content1, content2, content3, content4, content5, content6, content7, content8, content9, content10)
        ) {
            RepresentationResolver.entries(of: content1)
                + RepresentationResolver.entries(of: content2)
                + RepresentationResolver.entries(of: content3)
                + RepresentationResolver.entries(of: content4)
                + RepresentationResolver.entries(of: content5)
                + RepresentationResolver.entries(of: content6)
                + RepresentationResolver.entries(of: content7)
                + RepresentationResolver.entries(of: content8)
                + RepresentationResolver.entries(of: content9)
                + RepresentationResolver.entries(of: content10)
        }
    }

    /// Starts a block folded pairwise (any number of representations).
    public static func buildPartialBlock<Content>(first content: Content) -> Content
    where Item == Content.Item, Content: TransferRepresentation {
        content
    }

    /// Appends the next representation of a block folded pairwise.
    public static func buildPartialBlock<Accumulated, Next>(
        accumulated: Accumulated,
        next: Next
    ) -> TupleTransferRepresentation<Item, (Accumulated, Next)>
    where
        Item == Accumulated.Item, Accumulated: TransferRepresentation, Next: TransferRepresentation,
        Accumulated.Item == Next.Item
    {
        TupleTransferRepresentation((accumulated, next)) {
            RepresentationResolver.entries(of: accumulated) + RepresentationResolver.entries(of: next)
        }
    }

    /// An `if` without `else`: the representation when the condition held, nothing otherwise.
    public static func buildOptional<Content>(_ content: Content?) -> _OptionalTransferRepresentation<Content>
    where Item == Content.Item, Content: TransferRepresentation {
        _OptionalTransferRepresentation(content)
    }

    /// The pre-Swift 5.4 spelling of ``buildOptional(_:)``.
    public static func buildIf<Content>(_ content: Content?) -> _OptionalTransferRepresentation<Content>
    where Item == Content.Item, Content: TransferRepresentation {
        _OptionalTransferRepresentation(content)
    }

    /// The first branch of an `if`/`else` or `switch`.
    public static func buildEither<TrueContent, FalseContent>(
        first content: TrueContent
    ) -> _EitherTransferRepresentation<TrueContent, FalseContent>
    where Item == TrueContent.Item, TrueContent.Item == FalseContent.Item {
        _EitherTransferRepresentation(first: content)
    }

    /// The second branch of an `if`/`else` or `switch`.
    public static func buildEither<TrueContent, FalseContent>(
        second content: FalseContent
    ) -> _EitherTransferRepresentation<TrueContent, FalseContent>
    where Item == TrueContent.Item, TrueContent.Item == FalseContent.Item {
        _EitherTransferRepresentation(second: content)
    }

    /// The body of an `if #available`. Linux has no platform availability, so it passes through.
    public static func buildLimitedAvailability<Content>(_ content: Content) -> Content
    where Item == Content.Item, Content: TransferRepresentation {
        content
    }

    /// The representations produced by a `for` loop, in iteration order.
    public static func buildArray<Content>(_ contents: [Content]) -> _ArrayTransferRepresentation<Content>
    where Item == Content.Item, Content: TransferRepresentation {
        _ArrayTransferRepresentation(contents)
    }
}
