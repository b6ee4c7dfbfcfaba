/// What a change of a selection's owner means to the orchestration, whichever backend saw it — the one
/// classification the keeper, the sync and the bridge decide on. Each backend sorts its own events into it once
/// (X11: `OwnerChange.meaning`, from XFixes; a Wayland compositor: a data-control selection event).
public enum OwnerChangeMeaning: Sendable, Equatable {
    /// The new owner is this process (a keeper's restore, a sync's copy, a bridge's offer): never acted on, so
    /// nothing echoes.
    case ours
    /// Another client took the selection: new content.
    case newOwner
    /// A client left the selection without an owner on purpose (X: SetSelectionOwner to None; `copy --clear`):
    /// nothing to keep, and nothing to restore.
    case cleared
    /// The owner went away (its window or its connection) without a successor: what a keeper restores.
    case ownerGone
}
