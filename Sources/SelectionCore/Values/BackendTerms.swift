/// The terms a selection backend names owners, times and handover requests in. The core carries them through
/// its decisions and compares owners, never looks inside: X11's windows and server timestamps, a Wayland
/// compositor's data sources stay the backend's (as GTK 4's `GdkClipboard` leaves X atoms and Wayland serials to
/// `gdkclipboard-x11.c` and `gdkclipboard-wayland.c`).
public protocol BackendTerms: Sendable {
    /// Who owns a selection (X11: the owner's window).
    associatedtype Owner: Hashable & Sendable
    /// When something happened, on the backend's clock (X11: server time), for a claim that must not overtake a
    /// later change.
    associatedtype Time: Equatable & Sendable
    /// A request that the keeper take over a selection before its owner exits (X11: SAVE_TARGETS).
    associatedtype Handover: HandoverRequest where Handover.Requestor == Owner
}

/// A client's request that a clipboard manager take over a selection before the client exits (X11: SAVE_TARGETS
/// on `CLIPBOARD_MANAGER`, freedesktop clipboard-manager spec). The keeper answers it once it holds the content.
public protocol HandoverRequest: Hashable, Sendable {
    /// How the backend names the client that asked.
    associatedtype Requestor: Hashable & Sendable
    /// The client that asked.
    var requestor: Requestor { get }
    /// The targets to keep, in the client's order; nil: every target the owner offers.
    var targets: [SelectionTarget]? { get }
}
