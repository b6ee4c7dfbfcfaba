import FoundationEssentials

/// The owner's public API: claiming a selection and giving it up. The claims themselves are the `Owner`'s
/// (`Owner+Owning.swift`), and so is serving them (`Owner+Serving.swift`, `+IncrementalSending`, `+Relaying`).
extension X11Connection {
    // MARK: Public owner API

    /// Claims `selection` with a real server timestamp, verifies the claim, and serves `offer` until
    /// another client takes the selection, `release` or `shutdown`.
    ///
    /// TARGETS answers exactly the servable targets in the offer's order plus the meta targets; TIMESTAMP
    /// answers the claim time; MULTIPLE, SAVE_TARGETS, DELETE and TARGET_SIZES are answered by the engine;
    /// unknown targets are refused. Payloads above the INCR threshold are sent incrementally, to any
    /// number of requestors at once. COMPOUND_TEXT and TEXT representations from `textRepresentations`
    /// are converted by Xlib now, and dropped if Xlib cannot convert them (so TARGETS never lies).
    ///
    /// - Throws: `.ownershipRefused` when the server did not make us the owner; `.timedOut` when the
    ///   server time could not be obtained; `.connectionLost`; `.shutDown`.
    public func claim(_ selection: SelectionName, offering offer: SelectionOffer) async throws -> SelectionLease {
        try await owner.claim(selection, offering: offer, role: .content, at: nil, on: self)
    }

    /// ``claim(_:offering:)`` with the claim stamped `time` (nil: the server's time now): the server ignores it when
    /// the selection changed after `time` (X11 protocol, SetSelectionOwner), and it then throws `.ownershipRefused`.
    /// A clipboard manager restoring an owner that left claims with the time it left, so as never to replace an
    /// application that took the selection in between.
    package func claim(_ selection: SelectionName, offering offer: SelectionOffer, at time: X11Timestamp?) async throws
        -> SelectionLease
    {
        try await owner.claim(selection, offering: offer, role: .content, at: time, on: self)
    }

    /// Gives up `selection` if this connection owns it (transfers in flight still finish, ICCCM 2.2).
    public func release(_ selection: SelectionName) async {
        owner.release(selection, on: self)
    }

    // MARK: A relay's producer, back on the loop

    /// The producer of relay `id` sent bytes (see ``SelectionRelay/send(_:type:format:)``).
    func relayReceived(id: UInt64, _ bytes: Data, type: SelectionTarget, format: Int) async throws {
        try await owner.relayReceived(id: id, bytes, type: type, format: format, on: self)
    }

    /// The producer of relay `id` returned (`failure` nil) or threw.
    func relayEnded(id: UInt64, failure: (any Error)?) {
        owner.relayEnded(id: id, failure: failure, on: self)
    }
}
