import FoundationEssentials

/// How a backend names flavours: X11's targets (`UTF8_STRING`, `STRING`, `image/png`) or the MIME types a Wayland
/// compositor's offers carry (`text/plain;charset=utf-8`). Two backends that name alike pass flavours across as
/// they are; between the two namings a ``FlavourTranslation`` says what each side is offered.
package enum FlavourNaming: Sendable, Equatable {
    case x11Targets
    case mimeTypes
}

/// One piece of a flavour read as it streams.
package struct FlavourChunk: Sendable, Equatable {
    package var bytes: Data
    /// The reply's type: X11's property type (`UTF8_STRING`, `INCR`'s final type, `ATOM`); the flavour's own name
    /// where the backend has no reply types (Wayland).
    package var type: SelectionTarget
    /// The reply's format (8, 16 or 32 bits per item; 8 where the backend has none).
    package var format: Int

    package init(_ bytes: Data, type: SelectionTarget, format: Int = 8) {
        self.bytes = bytes
        self.type = type
        self.format = format
    }
}

/// Where a streamed read hands its pieces, in order.
package typealias FlavourSink = @Sendable (FlavourChunk) async throws -> Void
