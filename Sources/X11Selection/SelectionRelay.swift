import FoundationEssentials

/// The producer's end of one relayed conversion (``SelectionOffer/DataSource/relay(_:)``): where the bytes
/// of one request go while the engine serves them.
public struct SelectionRelay: Sendable {
    let connection: X11Connection
    let id: UInt64

    /// The target the requestor asked for.
    public let target: SelectionTarget

    /// Sends the next bytes of the reply, written with property `type` and `format` (8, 16 or 32; format-32
    /// items as 32-bit little-endian values, as reads deliver them). The first call's type and format are the
    /// reply's; an empty `bytes` only sets them (an empty reply of a given type).
    ///
    /// Suspends while `Configuration.streamBufferLimit` bytes wait for the requestor.
    /// - Throws: `.ownerGone` when the request is over — its requestor went away or stopped reading, the
    ///   connection closed — so the producer stops reading its own source.
    public func send(_ bytes: Data, type: SelectionTarget, format: Int) async throws {
        try await connection.relayReceived(id: id, bytes, type: type, format: format)
    }
}
