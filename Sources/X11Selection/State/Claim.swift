import FoundationEssentials

/// One successful `claim`: the offer, its ownership time, and the lease's event stream.
final class Claim {
    let id: UInt64
    let selection: SelectionName
    let selectionAtom: X11Atom
    let offer: SelectionOffer
    let table: TargetTable
    let time: X11Timestamp
    let continuation: AsyncStream<SelectionLeaseEvent>.Continuation
    /// Atoms of `table.advertisedTargets`, in order (the TARGETS reply).
    let advertisedAtoms: [X11Atom]
    /// Content target atoms, index-aligned with `offer.representations`.
    let contentAtoms: [X11Atom]
    /// Property types per representation (atom of `type ?? target`, or the Xlib conversion's type).
    var typeAtoms: [X11Atom]
    /// Bytes known up front or already produced, per representation index (providers are cached per claim).
    var produced: [Int: Data] = [:]
    /// Providers currently running, per representation index, with the requests waiting for them.
    var producing: [Int: [ReplyRoute]] = [:]
    /// Still the owner.
    var isOwner = true
    /// Content transfers in flight (INCR), counted so the lease finishes only after they end.
    var transfersInFlight = 0

    init(
        id: UInt64, selection: SelectionName, selectionAtom: X11Atom, offer: SelectionOffer, time: X11Timestamp,
        continuation: AsyncStream<SelectionLeaseEvent>.Continuation, advertisedAtoms: [X11Atom],
        contentAtoms: [X11Atom], typeAtoms: [X11Atom]
    ) {
        self.id = id
        self.selection = selection
        self.selectionAtom = selectionAtom
        self.offer = offer
        self.table = TargetTable(offer: offer)
        self.time = time
        self.continuation = continuation
        self.advertisedAtoms = advertisedAtoms
        self.contentAtoms = contentAtoms
        self.typeAtoms = typeAtoms
    }

    /// Finishes the event stream once ownership is gone and nothing is in flight.
    func finishIfDone() {
        if !isOwner && transfersInFlight == 0 {
            continuation.finish()
        }
    }
}
