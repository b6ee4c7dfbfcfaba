import FoundationEssentials

/// One successful `claim`: the offer, its ownership time, and the lease's event stream.
final class Claim {
    let id: UInt64
    let selection: SelectionName
    let selectionAtom: X11Atom
    let offer: SelectionOffer
    let table: TargetTable
    let time: X11Timestamp
    /// The lease's events: write to it only through `report` / `flushServed` / `finishIfDone`, which keep
    /// batched `.served` events in order with everything else.
    private let channel: LeaseEventChannel
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
    /// `.served` events not yet handed to the lease's stream (see `servedEventDelay`).
    private var pendingServed: [SelectionLeaseEvent] = []

    /// How long a `.served` event may wait before it is handed to the lease's stream after a quiet spell.
    ///
    /// Why batch: handing an event to a consumer that awaits it resumes that task on another thread (a
    /// futex wake-up and, in a VM, an inter-processor interrupt) for every paste, while the requestor and
    /// the X server want the CPU — measured on a 2-CPU VM, a served 16-byte paste cost the owner process
    /// twice the CPU of a C owner, which only counts it. Batched, a burst of pastes wakes the consumer once
    /// per window. The requestor is never delayed: its SelectionNotify is flushed before the event exists.
    /// `.failed` and `.lost` are not delayed, and flush the batch ahead of them, so the order is kept.
    static let servedEventDelay: Duration = .milliseconds(2)

    /// The widest the window grows under a sustained burst (see `servedWindow`).
    ///
    /// Why adapt: a fixed 2 ms window still woke the consumer 500 times a second while a requestor pasted
    /// back to back, and each wake-up of the cooperative pool costs far more than the paste it reports —
    /// with Xvfb, owner and requestor on one CPU the owner spent 46 µs of CPU per 16-byte paste against a C
    /// owner's 16 µs, and 24–29 µs once the wake-ups were rare (`perf stat` on the owner; the figures are in
    /// issue #3's closing note). A sporadic paste, the desktop's usual case, still comes out after 2 ms.
    static let servedEventDelayLimit: Duration = .milliseconds(32)

    /// The current batching window: `servedEventDelay` after a window that held at most one event, doubled
    /// (up to `servedEventDelayLimit`) after each window that held more, like adaptive interrupt moderation.
    private(set) var servedWindow: Duration = Claim.servedEventDelay

    init(
        id: UInt64, selection: SelectionName, selectionAtom: X11Atom, offer: SelectionOffer,
        role: TargetTable.Role = .content, time: X11Timestamp, events channel: LeaseEventChannel, advertisedAtoms: [X11Atom],
        contentAtoms: [X11Atom], typeAtoms: [X11Atom]
    ) {
        self.id = id
        self.selection = selection
        self.selectionAtom = selectionAtom
        self.offer = offer
        self.table = TargetTable(offer: offer, role: role)
        self.time = time
        self.channel = channel
        self.advertisedAtoms = advertisedAtoms
        self.contentAtoms = contentAtoms
        self.typeAtoms = typeAtoms
    }

    /// Reports `event` on the lease. A `.served` is held for `servedWindow`: returns true when it is the
    /// first held one, so the caller arms the deadline that calls `flushServed`. Other events go out at once,
    /// after the held ones.
    func report(_ event: SelectionLeaseEvent) -> Bool {
        if case .served = event {
            pendingServed.append(event)
            return pendingServed.count == 1
        }
        flushServed()
        channel.yield(event)
        return false
    }

    /// The batching window closed: adapts the next window to how busy this one was, then hands the held
    /// events over.
    func closeServedWindow() {
        servedWindow =
            pendingServed.count > 1 ? min(servedWindow * 2, Self.servedEventDelayLimit) : Self.servedEventDelay
        flushServed()
    }

    /// Hands the held `.served` events to the lease's stream, in order.
    func flushServed() {
        guard !pendingServed.isEmpty else { return }
        for event in pendingServed { channel.yield(event) }
        pendingServed.removeAll(keepingCapacity: true)
    }

    /// Finishes the event stream once ownership is gone and nothing is in flight.
    func finishIfDone() {
        if !isOwner && transfersInFlight == 0 {
            flushServed()
            channel.finish()
        }
    }

    /// Ends the stream now (the connection closed): held events, then `.lost` if still the owner.
    func finishForTeardown() {
        if isOwner { _ = report(.lost(nil)) }
        isOwner = false
        flushServed()
        channel.finish()
    }
}
