import FoundationEssentials

/// One relayed conversion this connection serves (owner side): its request, its `RelaySender`, and the
/// producer task feeding it.
final class RelayTransfer {
    let id: UInt64
    let route: ReplyRoute
    let claimID: UInt64
    let target: SelectionTarget
    var sender: RelaySender
    /// The reply's property type and format, set by the producer's first send (the representation's until then).
    var type: X11Atom
    var format: Int
    var typeSet = false
    /// Why the producer failed, for the lease's `.failed` event.
    var failure: String?
    /// The producer, cancelled when the transfer ends early.
    var producer: Task<Void, Never>?
    /// The producer, suspended in `send` until the buffer drains.
    var waitingProducer: CheckedContinuation<Void, any Error>?

    var key: TransferKey { TransferKey(requestor: route.requestor, property: route.property) }

    init(id: UInt64, route: ReplyRoute, claimID: UInt64, target: SelectionTarget, sender: RelaySender,
         type: X11Atom, format: Int) {
        self.id = id
        self.route = route
        self.claimID = claimID
        self.target = target
        self.sender = sender
        self.type = type
        self.format = format
    }
}
