/// One display server's selections, as the core's drivers use them: X11 (`X11SelectionBackend`), a Wayland
/// compositor's data-control, or an in-memory one for the orchestration's unit tests. A driver written against
/// this protocol runs unchanged on each — as GTK 4's `GdkClipboard` (gdk/gdkclipboard.c) is one clipboard above
/// `gdkclipboard-x11.c` and `gdkclipboard-wayland.c`.
///
/// What stays inside a backend: its wire (atoms, properties, INCR; data-control sources and pipes), its clock and
/// its names for owners (``BackendTerms``), and how it reads an offer whole (X11 asks many targets in one MULTIPLE
/// request). What a backend never does: decide. Which change is copied, kept or restored, and when, is the
/// drivers' machines' (``SyncMachine``, ``KeeperMachine``, ``BridgeMachine``).
package protocol SelectionBackend: Sendable {
    /// How this backend names owners, times and handover requests.
    associatedtype Terms: BackendTerms
    /// An owner's offer as the backend read it: every flavour kept, spooled where large, held as long as
    /// something refers to it.
    associatedtype Kept: Sendable
    /// What a claim offers: kept content, or content made from it (a rewrite).
    associatedtype Offer: Sendable
    /// A claim the backend made, serving until another client takes the selection or it is released.
    associatedtype Claim: Sendable

    /// The changes of `selections`' owners from now on, in order, each sorted into its meaning. The sequence
    /// finishes when the backend is torn down and throws when its connection is lost.
    /// - Throws: when the backend cannot watch owners (X11: no XFixes).
    func ownerChanges(of selections: [SelectionName]) async throws -> AsyncThrowingStream<BackendOwnerChange<Terms>, any Error>

    /// Who owns `selection` now (nil: nobody, or it cannot be asked).
    func owner(of selection: SelectionName) async -> Terms.Owner?

    /// Whether a pointer button is held now — a selection made by dragging is still growing; nil when the backend
    /// cannot tell (Wayland's data-control knows no pointer).
    func isPointerButtonHeld() async -> Bool?

    /// Reads the offer of `selection`'s owner as ``SnapshotPolicy`` keeps it, as `request` says, and the facts the
    /// orchestration decides on. An owner that goes away during the read leaves what was read whole before it did
    /// (`KeptFacts.ownerLeft`).
    /// - Throws: when nobody owns the selection, or the owner could not be read at all.
    func snapshot(of selection: SelectionName, _ request: SnapshotRequest) async throws -> (Kept, KeptFacts)

    /// Keeps only the flavours of `targets`, in that order (a handover's list).
    func narrow(_ kept: Kept, to targets: [SelectionTarget]) -> Kept

    /// `kept` as an offer, every flavour in the owner's order.
    func offer(of kept: Kept) -> Offer

    /// How many flavours `offer` has.
    func flavourCount(of offer: Offer) -> Int

    /// Claims `selection` with `offer`, each flavour served when a client asks for it, until another client takes
    /// it. `time`: the backend time to claim at — a claim older than the selection's last change is refused (X11's
    /// SetSelectionOwner), so a restore never replaces what an application copied meanwhile; nil: now.
    /// - Throws: when the claim could not be made.
    func claim(_ selection: SelectionName, offering offer: Offer, at time: Terms.Time?) async throws -> Claim

    /// Keeps `kept` while `claim` serves: a transfer under way when the selection was taken still finishes
    /// (ICCCM §2.2).
    func hold(_ kept: Kept, while claim: Claim)

    /// Gives up `selection` where this backend holds it.
    func release(_ selection: SelectionName) async

    /// Leaves `selection` without an owner.
    func clear(_ selection: SelectionName) async

    /// Answers a handover request: saved, or refused.
    func answer(_ request: Terms.Handover, saved: Bool) async

    // MARK: What a bridge uses (`BridgeDriver`)

    /// How this backend names flavours.
    var naming: FlavourNaming { get }

    /// Which server this is, so that one server named twice (X11's ":0" and "unix:0") is not bridged to itself.
    func serverIdentity() async -> String

    /// Whether this backend has `selection` at all (Wayland has no SECONDARY; PRIMARY only where the compositor
    /// shares it).
    func shares(_ selection: SelectionName) -> Bool

    /// The flavours `selection`'s owner offers now, in its order (X11: its TARGETS reply).
    /// - Throws: when nobody owns it, or the owner did not answer within `timeout`.
    func offeredTypes(of selection: SelectionName, timeout: Duration?) async throws -> [SelectionTarget]

    /// Whether a claim of this backend's owns `selection` now.
    func ownsSelection(_ selection: SelectionName) async -> Bool

    /// Reads one flavour of `selection`'s owner, handing `sink` each piece as it comes — at least one: an empty
    /// flavour is one empty piece — each wait bounded by `timeout` (nil: the backend's).
    /// - Throws: when the owner refuses, goes silent or goes away, or when `sink` throws.
    func read(_ selection: SelectionName, type: SelectionTarget, timeout: Duration?, into sink: FlavourSink) async throws

    /// The flavours of `kept`, in its order.
    func types(of kept: Kept) -> [SelectionTarget]

    /// Reads one flavour of `kept` as ``read(_:type:timeout:into:)`` reads an owner's.
    func read(_ type: SelectionTarget, of kept: Kept, into sink: FlavourSink) async throws

    /// Claims `selection` with `offer`, each flavour made when a requestor asks for it, until another client takes
    /// the selection or it is released.
    /// - Throws: when the claim could not be made.
    func claim(_ selection: SelectionName, relaying offer: RelayOffer) async throws

    /// Ends the backend: its owner changes finish, its claims end, its connection closes.
    func shutdown() async
}

/// What a snapshot reads.
package struct SnapshotRequest: Sendable {
    /// The targets to read, in this order (a handover's list); nil: the whole offer.
    package var targets: [SelectionTarget]?
    /// Bounds on what is kept.
    package var limits: SnapshotLimits
    /// The deadline of each read; nil: the backend's.
    package var timeout: Duration?
    /// The owner waits for this read (a handover): read in as few requests as the backend can.
    package var handover: Bool
    /// Look up which application owns the selection (for a history's rules), before reading.
    package var describesOwner: Bool

    package init(
        targets: [SelectionTarget]? = nil, limits: SnapshotLimits, timeout: Duration? = nil, handover: Bool = false,
        describesOwner: Bool = false
    ) {
        self.targets = targets
        self.limits = limits
        self.timeout = timeout
        self.handover = handover
        self.describesOwner = describesOwner
    }
}

extension SelectionBackend {
    /// Claims `selection` with `kept` as it is, held while the claim serves; how many flavours it offers.
    package func claim(_ selection: SelectionName, with kept: Kept) async throws -> Int {
        let offer = offer(of: kept)
        hold(kept, while: try await claim(selection, offering: offer, at: nil))
        return flavourCount(of: offer)
    }
}
