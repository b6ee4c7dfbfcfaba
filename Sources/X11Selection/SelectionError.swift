/// The one error type of X11Selection. Compare on `code`; `message` says what happened, with context.
public struct SelectionError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What kind of failure this is. An open set of values (new codes may be added).
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private let name: String
        private init(_ name: String) { self.name = name }

        /// The display named by `DISPLAY` (or the `display` argument) cannot be opened.
        public static let displayUnavailable = Code("displayUnavailable")
        /// The server lacks an extension this call needs (XFixes for owner-change watching).
        public static let extensionUnavailable = Code("extensionUnavailable")
        /// Nobody owns the selection.
        public static let noOwner = Code("noOwner")
        /// The owner vanished while a read waited for it: its window was destroyed, or nobody owns the
        /// selection any more, before it answered or finished an incremental transfer.
        public static let ownerGone = Code("ownerGone")
        /// The owner refused the target (answered with property None); see `availableTargets`.
        public static let targetUnavailable = Code("targetUnavailable")
        /// The owner's reply broke the protocol (e.g. TARGETS not of type ATOM, a vanished property).
        public static let invalidReply = Code("invalidReply")
        /// A deadline passed (no reply, or an incremental transfer stalled).
        public static let timedOut = Code("timedOut")
        /// Our claim was not confirmed by the server (`XGetSelectionOwner` named another window).
        public static let ownershipRefused = Code("ownershipRefused")
        /// We lost the selection while the call needed it.
        public static let ownershipLost = Code("ownershipLost")
        /// The clipboard manager refused or failed the handover.
        public static let clipboardManagerUnavailable = Code("clipboardManagerUnavailable")
        /// Another client holds the manager selection, and replacing it was not asked for (ICCCM 2.8).
        public static let managerRunning = Code("managerRunning")
        /// The connection to the X server broke.
        public static let connectionLost = Code("connectionLost")
        /// The connection was shut down by `shutdown()`.
        public static let shutDown = Code("shutDown")
        /// A reply passed the size bound the reader set (a snapshot's limits): it was abandoned, unread.
        public static let tooLarge = Code("tooLarge")
        /// The pointer (or the keyboard) is grabbed by another client, so a drag cannot follow it: a drag starts
        /// from a button pressed in a window of this process, or with no button held (`X11Connection.drag`).
        public static let pointerUnavailable = Code("pointerUnavailable")
        /// A drag is already in progress on this connection (one pointer, one drag).
        public static let dragInProgress = Code("dragInProgress")
        /// What was read could not be stored (a snapshot's spool file could not be written).
        public static let storageFailed = Code("storageFailed")

        /// The code's name.
        public var description: String { name }
    }

    /// The kind of failure.
    public var code: Code
    /// A human-readable explanation with context ("CLIPBOARD:image/png: …").
    public var message: String
    /// For `.targetUnavailable`: the targets the owner offers (its TARGETS reply), when it could be read.
    public var availableTargets: [SelectionTarget]
    /// The error that caused this one (a data provider's, a file's), if any.
    public var underlying: (any Error)?

    /// Creates an error.
    public init(_ code: Code, _ message: String, availableTargets: [SelectionTarget] = [], underlying: (any Error)? = nil) {
        self.code = code
        self.message = message
        self.availableTargets = availableTargets
        self.underlying = underlying
    }

    /// Errors are equal when their codes are.
    public static func == (lhs: SelectionError, rhs: SelectionError) -> Bool { lhs.code == rhs.code }

    /// Hashes the code only (consistent with `==`).
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }

    /// "code: message", then the underlying error when there is one.
    public var description: String {
        guard let underlying else { return "\(code): \(message)" }
        return "\(code): \(message): \(underlying)"
    }
}
