import FoundationEssentials

/// A claim whose flavours are made when a requestor asks: a bridge's offer, each flavour read on another display at
/// the moment of the paste and passed on as it streams (``SelectionBackend/claim(_:relaying:)``).
package struct RelayOffer: Sendable {
    /// The flavours, in the order offered, named as the claiming backend names them.
    package var flavours: [RelayFlavour]
    /// Flavours served from fixed bytes (a bridge's marks), offered after ``flavours``.
    package var marks: [FlavourChunk]
    /// The content is marked sensitive: the claim offers the password managers' hint again.
    package var isSensitive: Bool
    /// Told how each paste ended, from the task that served it.
    package var outcome: @Sendable (RelayOutcome) -> Void

    package init(
        flavours: [RelayFlavour], marks: [FlavourChunk] = [], isSensitive: Bool = false,
        outcome: @escaping @Sendable (RelayOutcome) -> Void = { _ in }
    ) {
        self.flavours = flavours
        self.marks = marks
        self.isSensitive = isSensitive
        self.outcome = outcome
    }
}

/// One flavour of a ``RelayOffer``: its name, and how its bytes are made when asked.
package struct RelayFlavour: Sendable {
    package var type: SelectionTarget
    /// Hands the sink the flavour's pieces, in order, at least one (an empty flavour is one empty piece: on X its
    /// type still crosses); throws when it cannot be made whole — the requestor is then told it failed, where its
    /// protocol can say so.
    package var produce: @Sendable (_ sink: FlavourSink) async throws -> Void

    package init(type: SelectionTarget, produce: @escaping @Sendable (_ sink: FlavourSink) async throws -> Void) {
        self.type = type
        self.produce = produce
    }
}

/// How one paste of a relayed flavour ended.
package enum RelayOutcome: Sendable, Equatable {
    case served(SelectionTarget, byteCount: Int)
    case failed(SelectionTarget, reason: String)
}

/// Why a relayed flavour was not made: the reason, as the requestor's side reports it.
package struct RelayRefusal: Error, Sendable, CustomStringConvertible {
    package var description: String

    package init(_ description: String) { self.description = description }
}
