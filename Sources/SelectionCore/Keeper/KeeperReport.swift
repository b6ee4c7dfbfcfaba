/// What a keeper did (`Requestor`: how its backend names the client that asks for a handover).
public enum KeeperReport<Requestor: Hashable & Sendable>: Sendable, Equatable {
    /// A new owner's offer was kept: its flavours, total bytes and omitted targets.
    case kept(SelectionName, flavours: Int, bytes: Int, omitted: [SelectionTarget])
    /// The owner went away while its offer was read: the flavours read whole before it did are kept (and
    /// served), the targets not read are among `omitted`.
    case keptPart(SelectionName, flavours: Int, bytes: Int, omitted: [SelectionTarget])
    /// A new owner's offer is marked sensitive: nothing was kept.
    case skippedSensitive(SelectionName)
    /// The offer could not be kept (the owner went away while it was read, or broke the protocol).
    case notKept(SelectionName, reason: String)
    /// The owner went away without a successor and the keeper now serves the kept flavours.
    case restored(SelectionName, flavours: Int)
    /// The owner went away, and nothing kept could replace it.
    case lostWithOwner(SelectionName)
    /// The owner of a file manager's cut went away: a cut is served only by its owner (a paste moves the
    /// files), so it is not restored.
    case cutNotRestored(SelectionName)
    /// An owner handed its content over (a ``HandoverRequest``: X's SAVE_TARGETS): the keeper serves these flavours now.
    case saved(SelectionName, flavours: Int, requestor: Requestor)
    /// A handover request was refused, and why.
    case saveRefused(SelectionName, requestor: Requestor, reason: String)
    /// Another manager took the manager selection: the keeper stopped (ICCCM 2.8).
    case replaced(SelectionName)
    /// The validator vetoed a new owner's content: the previous content serves again (`restored`), or
    /// the selection was cleared.
    case vetoed(SelectionName, restored: Bool)
    /// The rewriter changed the kept content before the keeper served it: one line per change.
    case rewritten(SelectionName, changes: [String])
}
