import FoundationEssentials

/// What `ReadStateMachine` speaks: the request it answers for, its states, how a read fails, and the actions it
/// asks its driver to perform.
extension ReadStateMachine {
    /// What this read asked of the server: the notify that answers it must match.
    struct Request: Sendable, Equatable {
        var selection: X11Atom
        var target: X11Atom
        /// Unique to this read among the reads in flight on its window.
        var property: X11Atom
        /// The request's timestamp (ICCCM 2.4: a real server time, not CurrentTime, where one is known).
        var time: X11Timestamp
        /// The targets an answer may name instead of `target`: empty but for the polymorphic TEXT
        /// (``textAnswers(text:encodings:)``).
        var alternativeTargets: [X11Atom] = []

        /// The targets a read of `target` may be answered with besides itself: for TEXT — a target that asks
        /// the owner to choose an encoding (ICCCM 2.6.2) — the encodings it may choose (`STRING`, `UTF8_STRING`,
        /// `COMPOUND_TEXT`); xsel answers TEXT with STRING and names STRING in its notify. Nothing for any other
        /// target.
        static func alternatives(for target: X11Atom, text: X11Atom, encodings: [X11Atom]) -> [X11Atom] {
            target == text && !text.isNone ? encodings.filter { !$0.isNone && $0 != text } : []
        }
    }

    enum State: Sendable, Equatable {
        /// ConvertSelection sent; waiting for SelectionNotify.
        case awaitingNotify
        /// SelectionNotify named our property; reading it (slice by slice).
        case readingReply
        /// The reply was INCR; chunks arrive as PropertyNotify(NewValue).
        case incremental
        /// The owner refused a request whose time may have predated its claim: a fresh server time is being
        /// fetched (PropertyNotify of a zero-length append to our property) to ask once more.
        case awaitingTimestamp
        /// Done (all data delivered) or failed.
        case finished
    }

    enum Failure: Sendable, Equatable {
        /// The owner answered property None.
        case refused
        /// The reply broke the protocol.
        case invalidReply(String)
        /// No SelectionNotify in time.
        case noReply
        /// An INCR transfer stalled.
        case stalled
        /// The owner vanished (its window was destroyed, or nobody owns the selection any more) before it
        /// answered or finished the transfer.
        case ownerGone
    }

    enum Action: Sendable, Equatable {
        /// Send ConvertSelection for `request` with this time.
        case convert(time: X11Timestamp)
        /// Get a fresh server time and report it with `freshTime` (drivers append zero bytes to a property of
        /// their window other than the read's own — a MULTIPLE read's property holds its parameters — and
        /// take the time of its PropertyNotify, ICCCM 2.1).
        case requestTimestamp
        /// Read at most `sliceBytes` of the property from byte `offset` (a multiple of 4), deleting it in the
        /// same request when that read reaches its end (GetProperty's delete), then call `propertyRead`.
        case readProperty(offset: Int)
        /// Hand bytes to the consumer (type/format are known from `type`/`format` by now).
        case deliver(Data)
        /// All data was delivered.
        case finish
        /// The read failed.
        case fail(Failure)
        /// (Re)arm the idle deadline of an INCR transfer.
        case armIdleDeadline
        /// Arm the owner probe (`probeDue`) one probe interval from now.
        case armProbe
        /// Ask the server who owns the selection now and report it with `ownerProbed`.
        case probeOwner
        /// Select StructureNotify on the owner's window and report its DestroyNotify with `ownerDestroyed`.
        case watchOwner(X11Window)
        /// Bring the reply deadline forward to `notifyGrace` from now, if it is later: a notify named our
        /// property without writing it, and the real answer, if any, comes soon.
        case shortenReplyDeadline
    }
}
