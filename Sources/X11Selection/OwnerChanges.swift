/// One change of a selection's owner, reported by the XFixes extension.
public struct OwnerChange: Sendable, Equatable {
    /// Why the owner changed.
    public enum Reason: Sendable, Equatable {
        /// A client claimed the selection (XFixesSetSelectionOwnerNotify).
        case newOwner
        /// The owner's window was destroyed (XFixesSelectionWindowDestroyNotify).
        case ownerWindowDestroyed
        /// The owner's client disconnected (XFixesSelectionClientCloseNotify).
        case ownerClientClosed
    }

    /// The selection.
    public var selection: SelectionName
    /// Why it changed.
    public var reason: Reason
    /// The new owner window; nil when nobody owns the selection now.
    public var owner: X11Window?
    /// The server time of the event.
    public var timestamp: X11Timestamp
    /// The time the owner gave when claiming.
    public var selectionTimestamp: X11Timestamp
    /// True when the new owner is a window of an `X11Connection` in this process.
    public var isOwnedByThisProcess: Bool

    /// Creates a value.
    public init(
        selection: SelectionName, reason: Reason, owner: X11Window?, timestamp: X11Timestamp,
        selectionTimestamp: X11Timestamp, isOwnedByThisProcess: Bool
    ) {
        self.selection = selection
        self.reason = reason
        self.owner = owner
        self.timestamp = timestamp
        self.selectionTimestamp = selectionTimestamp
        self.isOwnedByThisProcess = isOwnedByThisProcess
    }
}

extension OwnerChange {
    /// What the change means to the orchestration (the core's one classification of XFixes events): this
    /// process's own claim, another client's, a client setting no owner (SetSelectionOwner to None), or the
    /// owner's window or client gone.
    public var meaning: OwnerChangeMeaning {
        switch reason {
        case .newOwner where isOwnedByThisProcess: .ours
        case .newOwner: owner == nil ? .cleared : .newOwner
        case .ownerWindowDestroyed, .ownerClientClosed: .ownerGone
        }
    }
}

/// Owner changes of one or more selections. Buffered: no change is lost between iterations, and any
/// number of sequences can watch at once. Finishes on `shutdown()`; throws `.connectionLost` when the
/// connection breaks.
public typealias OwnerChanges = BufferedEvents<OwnerChange>
