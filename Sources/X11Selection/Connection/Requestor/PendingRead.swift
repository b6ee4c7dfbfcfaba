import FoundationEssentials
import Synchronization

/// One conversion this connection requested (requestor side), keyed by its unique property.
///
/// A class isolated to the connection actor: the event handlers and the waiting caller share it. What
/// the read asked (selection, target, property, time) lives in its state machine's `request`.
final class PendingRead {
    enum Kind {
        /// An ordinary read of one target.
        case single
        /// The MULTIPLE request itself; its children are the per-target reads.
        case multipleParent(children: [X11Atom])
        /// One target of a MULTIPLE request.
        case multipleChild(parent: X11Atom)
    }

    let id: UInt64
    let selection: SelectionName
    let target: SelectionTarget
    let kind: Kind
    let replyTimeout: Duration
    /// When the read fails if the owner has not answered (`replyTimeout` after the start, or sooner after a
    /// notify without its property: `ReadStateMachine.notifyGrace`).
    var replyDeadline: ContinuousClock.Instant
    var machine: ReadStateMachine
    /// Data delivered and not yet taken by the consumer.
    private var chunks: [Data] = []
    private var head = 0
    /// nil while running; set once when it ends.
    var outcome: Result<Void, any Error>?
    /// Ended by cancellation (the property atom is then not reused: a late reply could still arrive).
    var cancelled = false
    /// Whole reads started by the nonisolated `read`: called once, on the loop, when the read ends; the data
    /// is assembled here instead of being handed out chunk by chunk.
    var completion: ((isolated X11Connection, PendingRead, Result<Void, any Error>) -> Void)?
    /// The assembled data of a whole read.
    var whole = Data()
    /// The most a whole read assembles; past it the read fails with `.tooLarge` (peer-controlled sizes).
    var wholeLimit = Int.max
    /// Shared by the children of one bounded MULTIPLE read: what all of them may still assemble.
    var sharedBudget: SharedReadBudget?
    /// A streamed read (`read(_:target:timeout:into:)`): chunks wait in `chunks` and are handed over in
    /// batches to `batchWaiter`.
    var isStreamed = false
    /// The consumer of a streamed read waiting for its next batch.
    var batchWaiter: LoanedWait<StreamBatch>?
    /// A `.streamBatch` deadline is armed: the buffered chunks are handed over when it fires.
    var batchDeadlineArmed = false
    /// Set by the caller of a whole read when its task is cancelled (looked up by identity).
    var cancellation: ReadCancellation?

    init(
        id: UInt64, selection: SelectionName, target: SelectionTarget, kind: Kind, replyTimeout: Duration,
        machine: ReadStateMachine
    ) {
        self.id = id
        self.selection = selection
        self.target = target
        self.kind = kind
        self.replyTimeout = replyTimeout
        self.replyDeadline = .now + replyTimeout
        self.machine = machine
    }

    /// The read's own property on our window (unique among the reads in flight), its key in `reads`.
    var property: X11Atom { machine.request.property }

    func append(_ chunk: Data) {
        chunks.append(chunk)
    }

    /// Adds a chunk to `whole`; when INCR announced the size, one allocation instead of a doubling series.
    func collect(_ chunk: Data) {
        if !whole.isEmpty {
            whole.append(chunk)
        } else if machine.announcedSize > chunk.count {
            whole = Data(capacity: min(machine.announcedSize, 1 << 30))
            whole.append(chunk)
        } else {
            whole = chunk
        }
    }

    func popChunk() -> Data? {
        guard head < chunks.count else { return nil }
        let chunk = chunks[head]
        chunks[head] = Data()
        head += 1
        if head == chunks.count {
            chunks.removeAll(keepingCapacity: true)
            head = 0
        }
        return chunk
    }

    /// "CLIPBOARD:text/html" — the prefix of log lines and error messages (GTK style).
    var context: String { "\(selection):\(target)" }
}

/// What the whole reads of one bounded MULTIPLE may still assemble together, in bytes. Loop-isolated, like
/// the reads that share it.
final class SharedReadBudget {
    var remaining: Int

    init(_ bytes: Int) {
        remaining = bytes
    }
}

/// The cancellation flag of one whole read, shared between the caller's task and the loop.
final class ReadCancellation: Sendable {
    private let flag = Atomic<Bool>(false)

    var isCancelled: Bool { flag.load(ordering: .acquiring) }

    func cancel() { flag.store(true, ordering: .releasing) }
}
