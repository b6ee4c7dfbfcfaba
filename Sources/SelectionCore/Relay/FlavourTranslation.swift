import FoundationEssentials

/// What a backend naming flavours one way (``FlavourNaming``) is offered for a source naming them the other way: the
/// one place a bridge's type mapping is decided (X11 ↔ Wayland: `WaylandTypeMapping`). Between backends that name
/// alike, every flavour crosses as it is and no translation is asked.
package protocol FlavourTranslation: Sendable {
    /// The flavours offered, in order, to a backend naming them `destination`, for a source offering `types` named
    /// `source`.
    func flavours(for types: [SelectionTarget], from source: FlavourNaming, to destination: FlavourNaming) -> [TranslatedFlavour]
}

/// One flavour as another naming offers it, and where its bytes come from.
package struct TranslatedFlavour: Sendable {
    /// The name offered.
    package var type: SelectionTarget
    /// The source's flavour read when it is asked for.
    package var source: SelectionTarget
    package var conversion: FlavourConversion

    package init(type: SelectionTarget, source: SelectionTarget, conversion: FlavourConversion) {
        self.type = type
        self.source = source
        self.conversion = conversion
    }

    /// The same flavour, streamed as it is.
    package static func same(_ type: SelectionTarget) -> TranslatedFlavour {
        TranslatedFlavour(type: type, source: type, conversion: .stream(as: nil))
    }
}

/// How a translated flavour's bytes are made from the source's.
package enum FlavourConversion: Sendable {
    /// Pieces pass as they come, any size; their type becomes `type` where given.
    case stream(as: SelectionTarget?)
    /// The source's flavour is read whole (its bytes and reply type) and converted — text re-encoded, which needs
    /// every byte. Throws when it cannot be.
    case whole(@Sendable (Data, SelectionTarget) throws -> FlavourChunk)
}
