import FoundationEssentials

/// The caller's handle on one streamed read (`read(_:target:timeout:into:)`), kept across its waits.
///
/// The caller's task owns it and passes it to the loop on each wait. Invariant that makes
/// `@unchecked Sendable` sound — the lock is the loop token: `pending` is only read and written by the thread
/// that holds it, in isolated methods (`LoopToken.assertHeld` checks); everything else is immutable or atomic.
final class ReadStream: @unchecked Sendable {
    let selection: SelectionName
    let target: SelectionTarget
    let timeout: Duration?
    /// The time the conversion is stamped with (a drop's); nil: the latest server time.
    let time: X11Timestamp?
    let cancellation = ReadCancellation()
    /// The read, once the loop started it. Only by the token's holder.
    var pending: PendingRead? {
        get {
            LoopToken.assertHeld("ReadStream.pending")
            return started
        }
        set {
            LoopToken.assertHeld("ReadStream.pending")
            started = newValue
        }
    }
    private var started: PendingRead?

    init(selection: SelectionName, target: SelectionTarget, timeout: Duration?, time: X11Timestamp? = nil) {
        self.selection = selection
        self.target = target
        self.timeout = timeout
        self.time = time
    }
}

/// What one wait of a streamed read hands its caller: every chunk received so far, and the end of the
/// transfer when it is already known (a reply in one piece arrives with its end: no second wait).
struct StreamBatch: Sendable {
    /// A reply's property type and format.
    struct Kind: Sendable {
        var type: SelectionTarget
        var format: Int
    }

    var chunks: [Data]
    /// The reply's type and format, once its first chunk told them (always set on the last batch).
    var kind: Kind?
    /// The transfer ended with this batch.
    var isEnd: Bool
}
