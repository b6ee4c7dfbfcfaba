/// One display server's selections, as the core's drivers use them: X11 (`X11SelectionBackend`), a Wayland
/// compositor's data-control, or an in-memory one for the orchestration's unit tests. A driver written against
/// this protocol runs unchanged on each — as GTK 4's `GdkClipboard` (gdk/gdkclipboard.c) is one clipboard above
/// `gdkclipboard-x11.c` and `gdkclipboard-wayland.c`.
///
/// What stays inside a backend: its wire (atoms, properties, INCR; data-control sources and pipes), its clock and
/// its names for owners (``BackendTerms``), and how it reads an offer whole (X11 asks many targets in one MULTIPLE
/// request). What a backend never does: decide. Which change is copied, kept or restored, and when, is the
/// drivers' machines' (`SyncMachine`, `KeeperMachine`, `BridgeMachine`).
package protocol SelectionBackend: Sendable {
    /// How this backend names owners, times and handover requests.
    associatedtype Terms: BackendTerms
    /// An owner's offer as the backend read it: every flavour kept, spooled where large, held as long as
    /// something refers to it — a claim serving it included (ICCCM §2.2 lets transfers finish after a loss).
    associatedtype Kept: Sendable

    /// The changes of `selections`' owners from now on, in order, each sorted into its meaning. The sequence
    /// finishes when the backend is torn down and throws when its connection is lost.
    /// - Throws: when the backend cannot watch owners (X11: no XFixes).
    func ownerChanges(of selections: [SelectionName]) async throws -> AsyncThrowingStream<BackendOwnerChange<Terms>, any Error>

    /// Whether a pointer button is held now — a selection made by dragging is still growing; nil when the backend
    /// cannot tell (Wayland's data-control knows no pointer).
    func isPointerButtonHeld() async -> Bool?

    /// Reads the offer of `selection`'s owner as ``SnapshotPolicy`` keeps it, within `limits`, under the backend's
    /// deadlines, and the facts the orchestration decides on.
    /// - Throws: when nobody owns the selection, or the owner could not be read at all.
    func snapshot(of selection: SelectionName, limits: SnapshotLimits) async throws -> (Kept, KeptFacts)

    /// Claims `selection` with `kept`, each flavour served when a client asks for it, until another client takes
    /// the selection; the backend holds `kept` while it serves it. Returns how many flavours are offered.
    /// - Throws: when the claim could not be made.
    func claim(_ selection: SelectionName, with kept: Kept) async throws -> Int
}
