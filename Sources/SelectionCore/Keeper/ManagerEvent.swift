/// What the clipboard-manager role brings a keeper (X11: the lease of `CLIPBOARD_MANAGER`, freedesktop
/// clipboard-manager spec): a client asking to hand its content over before it exits, or the role's end.
package enum ManagerEvent<Terms: BackendTerms>: Sendable {
    /// A client asks the keeper to take its content over (X11: SAVE_TARGETS).
    case handover(Terms.Handover)
    /// Another manager took the role (ICCCM §2.8): the keeper stops.
    case replaced
    /// The role ended here (the backend shut down): the keeper's end, not a replacement.
    case ended
}
