import FoundationEssentials

/// The requestor side of one conversion (ICCCM 2.4 and 2.7.2), as a pure state machine: events in,
/// actions out. The connection performs the actions (reads the property, hands data to the consumer,
/// arms deadlines) and feeds back what happened.
struct ReadStateMachine: Sendable {
    enum State: Sendable, Equatable {
        /// ConvertSelection sent; waiting for SelectionNotify.
        case awaitingNotify
        /// SelectionNotify said property; reading it.
        case readingReply
        /// The reply was INCR; chunks arrive as PropertyNotify(NewValue).
        case incremental
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
    }

    enum Action: Sendable, Equatable {
        /// Read the property and delete it in the same request, then call `propertyRead`.
        case readAndDeleteProperty
        /// Hand bytes to the consumer (type/format are known from `type`/`format` by now).
        case deliver(Data)
        /// All data was delivered.
        case finish
        /// The read failed.
        case fail(Failure)
        /// (Re)arm the idle deadline of an INCR transfer.
        case armIdleDeadline
    }

    private(set) var state = State.awaitingNotify
    private(set) var type = X11Atom.none
    private(set) var format = 8
    private(set) var byteCount = 0
    /// The INCR header's value: a lower bound of the size (ICCCM 2.7.2), for preallocation.
    private(set) var announcedSize = 0
    /// Bytes delivered but not yet consumed.
    private(set) var bufferedBytes = 0
    /// A chunk is waiting on the server because the buffer was full.
    private(set) var chunkPending = false
    let bufferLimit: Int
    let incrAtom: X11Atom

    init(incrAtom: X11Atom, bufferLimit: Int) {
        self.incrAtom = incrAtom
        self.bufferLimit = bufferLimit
    }

    var isIncremental: Bool { state == .incremental }

    /// SelectionNotify for this read arrived.
    mutating func selectionNotified(property: X11Atom) -> [Action] {
        guard state == .awaitingNotify else { return [] }
        if property.isNone {
            state = .finished
            return [.fail(.refused)]
        }
        state = .readingReply
        return [.readAndDeleteProperty]
    }

    /// The property was read (nil: the request failed, e.g. the property does not exist any more).
    mutating func propertyRead(_ value: PropertyValue?) -> [Action] {
        switch state {
        case .readingReply:
            guard let value, value.exists else {
                state = .finished
                return [.fail(.invalidReply("the owner named a property that does not exist"))]
            }
            if value.type == incrAtom {
                // ICCCM 2.7.2: deleting the INCR property (done by the read) starts the transfer.
                state = .incremental
                if value.format == 32, value.bytes.count >= 4 {
                    announcedSize = value.bytes.withUnsafeBytes { Int(UInt32(littleEndian: $0.loadUnaligned(as: UInt32.self))) }
                }
                return [.armIdleDeadline]
            }
            type = value.type
            format = value.format
            byteCount = value.bytes.count
            state = .finished
            return value.bytes.isEmpty ? [.finish] : [.deliver(value.bytes), .finish]
        case .incremental:
            guard let value, value.exists else {
                // Deleted or never written: wait for the next NewValue.
                return []
            }
            if type.isNone {
                type = value.type
                format = value.format
            }
            if value.bytes.isEmpty {
                state = .finished
                return [.finish]
            }
            byteCount += value.bytes.count
            bufferedBytes += value.bytes.count
            return [.deliver(value.bytes), .armIdleDeadline]
        case .awaitingNotify, .finished:
            return []
        }
    }

    /// PropertyNotify for our property. Only NewValue matters, and only during INCR.
    mutating func propertyChanged(deleted: Bool) -> [Action] {
        guard state == .incremental, !deleted else { return [] }
        if bufferedBytes >= bufferLimit {
            // Backpressure: leave the chunk on the server; the owner waits for our deletion.
            chunkPending = true
            return []
        }
        return [.readAndDeleteProperty]
    }

    /// The consumer took `count` bytes out of the buffer.
    mutating func consumed(_ count: Int) -> [Action] {
        bufferedBytes = max(0, bufferedBytes - count)
        if chunkPending && bufferedBytes < bufferLimit && state == .incremental {
            chunkPending = false
            return [.readAndDeleteProperty]
        }
        return []
    }

    /// The deadline armed for this read passed.
    mutating func deadlinePassed() -> [Action] {
        switch state {
        case .awaitingNotify, .readingReply:
            state = .finished
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
}
