import FoundationEssentials

/// The requestor side of one conversion (ICCCM 2.4 and 2.7.2), as a pure state machine: events in,
/// actions out. Both requestors — ``X11Connection``'s reads and ``BlockingSelectionReader`` — drive this one
/// machine, so they take the same notifies, read the same way and fail the same way. The driver performs
/// the actions (sends the conversion, reads the property, hands data to the consumer, arms deadlines) and
/// feeds back what happened.
///
/// Everything an owner (or any other X client) sends is untrusted input. The machine therefore decides:
/// - which SelectionNotify answers this read (``answers(selection:target:property:time:)``);
/// - that a notify naming a property that does not exist is not an answer (a stale or forged notify: the
///   read goes on waiting for the real one until its deadline);
/// - that a property is read in slices of at most `sliceBytes`, so a huge single-property reply never sits
///   in memory whole (a streamed read's memory stays bounded);
/// - when the owner must be checked for life (`probeDue`): an owner that died is reported as
///   ``Failure/ownerGone`` within one probe interval, not after the whole timeout.
struct ReadStateMachine: Sendable {
    /// How long a read waits for the real answer after a notify named a property that was never written
    /// (xfsettingsd 4.18 answers every target it lacks that way; xsel repeats its last notify).
    static let notifyGrace = Duration.milliseconds(500)

    /// How long a driver waits without progress before it checks that the owner still exists (`.armProbe`).
    static let probeInterval = Duration.milliseconds(40)

    private(set) var state = State.awaitingNotify
    private(set) var request: Request
    private(set) var type = X11Atom.none
    private(set) var format = 8
    private(set) var byteCount = 0
    /// The INCR header's value: a lower bound of the size (ICCCM 2.7.2), for preallocation.
    private(set) var announcedSize = 0
    /// Bytes delivered but not yet consumed.
    private(set) var bufferedBytes = 0
    /// A chunk is waiting on the server because the buffer was full.
    private(set) var chunkPending = false
    /// A reply in one property holds more slices than the consumer has taken: the next slice is read on
    /// `consumed` (the reply's counterpart of `chunkPending`).
    private(set) var slicePending = false
    /// The owner window being watched for DestroyNotify, once a probe found it.
    private(set) var watchedOwner: X11Window?
    /// During INCR: a chunk's PropertyNotify was taken and its bytes are still on our window (a read of it in
    /// flight, or held back by backpressure: `chunkPending`).
    private var chunkReadInFlight = false
    /// The watched owner's window was destroyed while a chunk it wrote was still to be read: that chunk is
    /// read (it may be the end marker), and the transfer fails after it if it is not.
    private(set) var ownerDestroyed = false
    /// A notify named our property but the property did not exist (stale or forged): reported if the read
    /// then times out.
    private(set) var sawNotifyWithoutProperty = false
    /// The refusal retry (with a fresh timestamp) was used.
    private(set) var retried = false
    /// Where the next slice of the property being read starts (bytes).
    private var sliceOffset = 0
    let bufferLimit: Int
    let incrAtom: X11Atom
    /// The most bytes one property read asks for (a multiple of 4).
    let sliceBytes: Int

    init(request: Request, incrAtom: X11Atom, bufferLimit: Int, sliceBytes: Int = 4 << 20) {
        self.request = request
        self.incrAtom = incrAtom
        self.bufferLimit = bufferLimit
        self.sliceBytes = max(4, sliceBytes & ~3)
    }

    var isIncremental: Bool { state == .incremental }
    /// The reply was INCR (the transfer may have ended since).
    private(set) var wasIncremental = false
    var isFinished: Bool { state == .finished }

    /// The first actions: send the conversion and start the owner probe.
    func start() -> [Action] { [.convert(time: request.time), .armProbe] }

    /// Whether a SelectionNotify with these fields answers this read (ICCCM 2.4). Pure: a driver asks this
    /// of every notify that reaches its window, and only a `true` goes to `selectionNotified`.
    ///
    /// - The selection and the target must be the ones asked (ICCCM 2.2: the owner's SelectionNotify carries
    ///   the request's selection, target and time). GTK 4's requestor drops any notify whose selection or
    ///   target differs (gdk/x11/gdkselectioninputstream-x11.c, the SelectionNotify case); a notify naming
    ///   another target is a decoy or meant for another read, and taking it would hand over bytes of another
    ///   type as if they were the ones asked — wrong bytes, exit 0. The one exception is the polymorphic TEXT,
    ///   which an owner answers by choosing an encoding (`Request.alternativeTargets`: xsel names STRING).
    /// - The property must be ours; a refusal (property None) names none, and is known by its target.
    /// - When both the request and the notify carry a real time, they must be equal: owners echo the
    ///   request's time, so another time marks a notify meant for another request (a decoy or a stale one).
    func answers(selection: X11Atom, target: X11Atom, property: X11Atom, time: X11Timestamp) -> Bool {
        guard selection == request.selection else { return false }
        guard target == request.target || request.alternativeTargets.contains(target) else { return false }
        if request.time != .currentTime && time != .currentTime && time != request.time { return false }
        return property.isNone || property == request.property
    }

    /// A SelectionNotify that `answers` this read arrived.
    mutating func selectionNotified(property: X11Atom) -> [Action] {
        guard state == .awaitingNotify else { return [] }
        if property.isNone {
            // A request stamped with the last server time this client saw may predate a claim made since
            // (owners refuse those, ICCCM 2.2): ask once more with a fresh time before believing the refusal.
            if !retried && request.time != .currentTime {
                retried = true
                state = .awaitingTimestamp
                return [.requestTimestamp]
            }
            state = .finished
            return [.fail(.refused)]
        }
        state = .readingReply
        sliceOffset = 0
        return [.readProperty(offset: 0)]
    }

    /// The answer of a MULTIPLE request for this read's pair (ICCCM 2.6.2): the owner converted it into our
    /// property, or wrote None over the pair.
    mutating func multipleAnswered(converted: Bool) -> [Action] {
        guard state == .awaitingNotify else { return [] }
        if !converted {
            state = .finished
            return [.fail(.refused)]
        }
        state = .readingReply
        sliceOffset = 0
        return [.readProperty(offset: 0)]
    }

    /// A slice of the property was read (nil: the request failed, e.g. the property or window is gone).
    mutating func propertyRead(_ value: PropertyValue?) -> [Action] {
        chunkReadInFlight = false
        switch state {
        case .readingReply:
            guard let value, value.exists else {
                if sliceOffset > 0 {
                    state = .finished
                    return [.fail(.invalidReply("the reply's property vanished while it was read"))]
                }
                // A notify whose property was never written is not an answer (a stale notify repeated by the
                // owner, or one forged by another client): the real one may still come.
                sawNotifyWithoutProperty = true
                state = .awaitingNotify
                return [.shortenReplyDeadline]
            }
            if sliceOffset == 0 && value.type == incrAtom {
                // ICCCM 2.7.2: deleting the INCR property (done by the read) starts the transfer.
                state = .incremental
                wasIncremental = true
                if value.format == 32, value.bytes.count >= 4 {
                    announcedSize = value.bytes.withUnsafeBytes {
                        Int(UInt32(littleEndian: $0.loadUnaligned(as: UInt32.self)))
                    }
                }
                // Watch the owner from the start: a transfer outlives many probes, and its owner may give up
                // the selection (no longer found by a probe) and then die.
                return [.armIdleDeadline, .probeOwner]
            }
            if sliceOffset == 0 {
                type = value.type
                format = value.format
            }
            // Counted like INCR chunks, so a reply in one huge property is read no faster than it is consumed.
            bufferedBytes += value.bytes.count
            return sliceRead(value, then: { machine in
                machine.state = .finished
                return [.finish]
            })
        case .incremental:
            guard let value, value.exists else {
                if sliceOffset > 0 {
                    state = .finished
                    return [.fail(.invalidReply("an incremental chunk vanished while it was read"))]
                }
                // Deleted or never written: wait for the next NewValue (which a destroyed owner cannot send).
                return ownerDestroyed ? ownerGoneMidTransfer() : []
            }
            if type.isNone {
                type = value.type
                format = value.format
            }
            if sliceOffset == 0 && value.bytes.isEmpty && value.bytesAfter == 0 {
                state = .finished
                return [.finish]
            }
            bufferedBytes += value.bytes.count
            return sliceRead(value, then: { machine in
                // Not the end marker, and its writer is gone: nothing more can come.
                machine.ownerDestroyed ? machine.ownerGoneMidTransfer() : [.armIdleDeadline]
            })
        case .awaitingNotify, .awaitingTimestamp, .finished:
            return []
        }
    }

    /// Delivers one slice; asks for the next while the server holds more, else ends the property with `end`.
    private mutating func sliceRead(_ value: PropertyValue, then end: (inout ReadStateMachine) -> [Action])
        -> [Action]
    {
        byteCount += value.bytes.count
        var actions: [Action] = value.bytes.isEmpty ? [] : [.deliver(value.bytes)]
        // A slice that made no progress while the server claims more is malformed: stop rather than loop.
        if value.bytesAfter > 0 && !value.bytes.isEmpty {
            sliceOffset += value.bytes.count
            chunkReadInFlight = state == .incremental
            if state == .readingReply && bufferedBytes >= bufferLimit {
                // Backpressure within one property: the rest stays on the server until the consumer drained
                // (an owner may write hundreds of MiB in one property; the server holds them anyway).
                slicePending = true
                return actions
            }
            actions.append(.readProperty(offset: sliceOffset))
            return actions
        }
        sliceOffset = 0
        return actions + end(&self)
    }

    /// The fresh server time asked for with `.requestTimestamp`: the conversion is sent once more with it.
    mutating func freshTime(_ time: X11Timestamp) -> [Action] {
        guard state == .awaitingTimestamp else { return [] }
        state = .awaitingNotify
        request.time = time
        return [.convert(time: time)]
    }

    /// PropertyNotify for our property: during INCR a NewValue is the next chunk.
    mutating func propertyChanged(deleted: Bool) -> [Action] {
        switch state {
        case .incremental:
            guard !deleted, sliceOffset == 0 else { return [] }
            if bufferedBytes >= bufferLimit {
                // Backpressure: leave the chunk on the server; the owner waits for our deletion.
                chunkPending = true
                chunkReadInFlight = true
                return []
            }
            chunkReadInFlight = true
            return [.readProperty(offset: 0)]
        case .awaitingNotify, .readingReply, .awaitingTimestamp, .finished:
            return []
        }
    }

    /// The consumer took `count` bytes out of the buffer.
    mutating func consumed(_ count: Int) -> [Action] {
        bufferedBytes = max(0, bufferedBytes - count)
        if chunkPending && bufferedBytes < bufferLimit && state == .incremental {
            chunkPending = false
            return [.readProperty(offset: 0)]
        }
        if slicePending && bufferedBytes < bufferLimit && state == .readingReply {
            slicePending = false
            return [.readProperty(offset: sliceOffset)]
        }
        return []
    }

    /// The owner probe armed with `.armProbe` is due.
    func probeDue() -> [Action] {
        switch state {
        case .awaitingNotify, .awaitingTimestamp:
            return [.probeOwner]
        case .incremental:
            // Holding a chunk back is our doing, not the owner's silence.
            return chunkPending ? [.armProbe] : [.probeOwner]
        case .readingReply:
            return [.armProbe]
        case .finished:
            return []
        }
    }

    /// What the probe found: the selection's owner now (nil: nobody).
    mutating func ownerProbed(_ owner: X11Window?) -> [Action] {
        guard state != .finished else { return [] }
        guard let owner else {
            // An owner that gave the selection up still finishes the transfers it started (ICCCM 2.2; a
            // `--paste-once` owner does): only its window's destruction ends those.
            if state == .incremental { return [.armProbe] }
            // Nobody owns the selection and our request is unanswered: whoever was asked is gone.
            state = .finished
            return [.fail(.ownerGone)]
        }
        if watchedOwner == nil {
            watchedOwner = owner
            return [.watchOwner(owner), .armProbe]
        }
        return [.armProbe]
    }

    /// A window was destroyed (DestroyNotify, or BadWindow when selecting its events).
    mutating func windowDestroyed(_ window: X11Window) -> [Action] {
        guard state != .finished, window == watchedOwner else { return [] }
        if state == .incremental && chunkReadInFlight {
            // The owner wrote a chunk and then went: its PropertyNotify reached us before the DestroyNotify
            // (the server keeps one client's events in order), and the chunk lives on our window, not the
            // owner's. It may be the end marker of a complete transfer (an owner that lost the selection exits
            // right after its last chunk), so the read decides once it has read it.
            ownerDestroyed = true
            return []
        }
        state = .finished
        return [.fail(.ownerGone)]
    }

    private mutating func ownerGoneMidTransfer() -> [Action] {
        state = .finished
        return [.fail(.ownerGone)]
    }

    /// The deadline armed for this read passed.
    mutating func deadlinePassed() -> [Action] {
        switch state {
        case .readingReply where slicePending:
            // We are the slow side, as with a held-back INCR chunk.
            return [.armIdleDeadline]
        case .awaitingNotify, .readingReply, .awaitingTimestamp:
            state = .finished
            if sawNotifyWithoutProperty {
                return [.fail(.invalidReply("the owner announced a reply in a property it never wrote"))]
            }
            return [.fail(.noReply)]
        case .incremental:
            if chunkPending {
                // We are the slow side (the consumer has not drained): not the owner's fault.
                return [.armIdleDeadline]
            }
            state = .finished
            return [.fail(.stalled)]
        case .finished:
            return []
        }
    }

    /// Ends the read from outside (cancelled, or the connection closed).
    mutating func abandon() { state = .finished }
}
