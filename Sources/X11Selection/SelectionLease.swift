/// What happened to an owned selection.
public enum SelectionLeaseEvent: Sendable, Equatable {
    /// A content transfer was served in full (TARGETS / TIMESTAMP probes are not reported).
    case served(target: SelectionTarget, requestor: X11Window, byteCount: Int)
    /// A content transfer failed: the requestor timed out mid-INCR, vanished, or the data source threw.
    case failed(target: SelectionTarget, requestor: X11Window, reason: String)
    /// Ownership went away (another client claimed the selection, `release`, DELETE, or shutdown), with
    /// the server time of the change when known.
    case lost(X11Timestamp?)
    /// A client asked this manager (a lease from `X11Connection.claimManager(_:replacing:timeout:)`) to save
    /// CLIPBOARD before it exits (SAVE_TARGETS, freedesktop clipboard-manager spec). The client waits until
    /// `X11Connection.answer(_:saved:)` is called.
    case saveTargetsRequested(SaveTargetsRequest)
}

/// The events of one claim. Buffered, so nothing is lost between iterations, up to the newest
/// `bufferLimit` events when nobody iterates (an owner serving many pastes must not grow without bound).
/// Finishes once ownership is lost *and* the transfers already in flight have ended (ICCCM 2.2 lets them
/// finish), so `.served` may follow `.lost`.
///
/// `.served` events are handed over in batches (the requestor already has its data then): about 2 ms after
/// the transfer ended when pastes are sporadic; under a sustained burst the window doubles with each busy
/// batch up to 32 ms, so back-to-back pastes resume the iterating task some 30 times a second rather than
/// once per paste.
/// `.failed` and `.lost` are not delayed, and never overtake a `.served` reported before them.
public struct SelectionLeaseEvents: AsyncSequence, Sendable {
    /// How many unread events are kept (the oldest are dropped beyond this).
    public static let bufferLimit = 1024

    /// The element type.
    public typealias Element = SelectionLeaseEvent
    /// The sequence never throws.
    public typealias Failure = Never

    let channel: LeaseEventChannel

    /// The iterator. One task at a time iterates a lease (awaiting `next()` concurrently is an error).
    public struct AsyncIterator: AsyncIteratorProtocol {
        let channel: LeaseEventChannel

        /// The next event, or nil when the lease is over (or the iterating task was cancelled).
        public mutating func next() async -> SelectionLeaseEvent? { await channel.next(isolation: nil) }

        /// The next event, or nil when the lease is over (or the iterating task was cancelled).
        public mutating func next(isolation actor: isolated (any Actor)?) async -> SelectionLeaseEvent? {
            await channel.next(isolation: actor)
        }
    }

    /// Creates the iterator.
    public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(channel: channel) }
}

@available(*, unavailable)
extension SelectionLeaseEvents.AsyncIterator: Sendable {}

/// Handle for an owned selection, returned by `X11Connection.claim(_:offering:)`.
public struct SelectionLease: Sendable {
    /// The selection that was claimed.
    public let selection: SelectionName
    /// The server time of the claim (what TIMESTAMP answers).
    public let timestamp: X11Timestamp
    /// The window the claim made the owner — this connection's, as the server confirmed when the claim was
    /// verified (`XGetSelectionOwner` after `XSetSelectionOwner`, ICCCM 2.1), so nobody needs to ask again.
    public let owner: X11Window
    /// Served transfers, then `.lost`; see `SelectionLeaseEvents`.
    public var events: SelectionLeaseEvents
}

/// The result of `X11Connection.handOverToClipboardManager(timeout:)`.
public enum ClipboardManagerHandover: Sendable, Equatable {
    /// The manager fetched the content and confirmed (it now owns CLIPBOARD or will shortly).
    case saved
    /// No client owns `CLIPBOARD_MANAGER`: nothing will keep the content after we exit.
    case noManager
    /// The offer is marked sensitive; it was not handed over.
    case skippedSensitive
    /// This connection does not own CLIPBOARD, so there is nothing to hand over.
    case notOwner
}
