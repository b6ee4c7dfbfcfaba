import Logging
import FoundationEssentials

/// The requestor's driver, isolated to the connection: starts conversions, feeds X events to each read's
/// `ReadStateMachine`, performs the actions it returns, and ends reads (completion, failure, retirement of their
/// properties).
extension Requestor {
    // MARK: Starting reads

    func startRead(
        _ selection: SelectionName, target: SelectionTarget, timeout: Duration?, time: X11Timestamp? = nil,
        on connection: isolated X11Connection
    ) throws(SelectionError) -> PendingRead {
        _ = try connection.requireDisplay()
        // Both names are cached after the first read of them: looked up without building arrays (the hot path
        // of every read); otherwise interned together in one round trip.
        let selectionAtom: X11Atom
        let targetAtom: X11Atom
        if let cachedSelection = connection.atoms.cachedAtom(selection.rawValue),
            let cachedTarget = connection.atoms.cachedAtom(target.rawValue)
        {
            (selectionAtom, targetAtom) = (cachedSelection, cachedTarget)
        } else {
            let names = try connection.atoms(for: [selection.rawValue, target.rawValue])
            (selectionAtom, targetAtom) = (names[0], names[1])
        }
        let property = try allocateProperty(on: connection)
        let pending = PendingRead(
            id: ids.next(), selection: selection, target: target, kind: .single,
            replyTimeout: timeout ?? connection.configuration.readTimeout,
            machine: readMachine(
                selectionAtom, targetAtom, property, bufferLimit: connection.configuration.streamBufferLimit,
                time: time, on: connection))
        reads[property] = pending
        connection.deadlines.arm(.requestor(.read(property)), at: pending.replyDeadline)
        perform(pending.machine.start(), for: pending, on: connection)
        connection.logger.trace("\(pending.context): ConvertSelection into property \(property)")
        return pending
    }

    /// A read's state machine, its request stamped with `time` — a drop's reads pass the XdndDrop's (XDND: the
    /// target converts with it; Qt 5's sources find the drag by it) — else with the latest server time this
    /// connection saw.
    func readMachine(
        _ selection: X11Atom, _ target: X11Atom, _ property: X11Atom, bufferLimit: Int, time: X11Timestamp? = nil,
        on connection: isolated X11Connection
    ) -> ReadStateMachine {
        let wellKnown = connection.wellKnown
        return ReadStateMachine(
            request: .init(
                selection: selection, target: target, property: property,
                time: time ?? connection.lastServerTime,
                alternativeTargets: ReadStateMachine.Request.alternatives(
                    for: target, text: wellKnown.text,
                    encodings: [wellKnown.string, wellKnown.utf8String, wellKnown.compoundText])),
            incrAtom: wellKnown.incr, bufferLimit: bufferLimit, sliceBytes: connection.configuration.propertySliceBytes)
    }

    // MARK: Consuming

    /// Abandons a read (cancellation, a throwing sink, or a MULTIPLE fallback).
    func cancelRead(property: X11Atom, id: UInt64, clean: Bool = false, on connection: isolated X11Connection) {
        guard let pending = reads[property], pending.id == id else { return }
        pending.cancelled = !clean
        fail(pending, CancellationError(), on: connection)
    }

    // MARK: Events

    /// A SelectionNotify to our window that is not the clipboard manager's answer to a handover.
    func handleSelectionNotify(
        selection: X11Atom, target: X11Atom, property: X11Atom, time: X11Timestamp, on connection: isolated X11Connection
    ) {
        // Taken only by the read it answers (`ReadStateMachine.answers`): a decoy for another selection, our
        // property or our time is dropped here.
        let pending: PendingRead?
        if property.isNone {
            // A refusal names no property: the oldest read it answers that still waits.
            pending = reads.values
                .filter {
                    $0.machine.state == .awaitingNotify && !isMultipleChild($0)
                        && $0.machine.answers(selection: selection, target: target, property: property, time: time)
                }
                .min { $0.id < $1.id }
        } else {
            pending = reads[property].flatMap {
                $0.machine.answers(selection: selection, target: target, property: property, time: time) ? $0 : nil
            }
        }
        guard let pending, !isMultipleChild(pending) else { return }
        perform(pending.machine.selectionNotified(property: property), for: pending, on: connection)
    }

    private func isMultipleChild(_ pending: PendingRead) -> Bool {
        if case .multipleChild = pending.kind { return true }
        return false
    }

    /// Carries out what a read's state machine asked for.
    func perform(_ actions: [ReadStateMachine.Action], for pending: PendingRead, on connection: isolated X11Connection) {
        for action in actions {
            guard pending.outcome == nil else { return }
            switch action {
            case .convert(let time):
                let request = pending.machine.request
                connection.xdisplay?.convertSelection(
                    request.selection, target: request.target, property: request.property,
                    requestor: connection.window, time: time)
            case .requestTimestamp:
                // Its answer reaches the reads awaiting a time (`handleOwnPropertyChange`).
                connection.xdisplay?.requestServerTime(on: connection.window)
            case .readProperty(let offset):
                // A streamed read's chunks wait for its sink: they go to recycled buffers (`ChunkBufferPool`).
                let value = connection.xdisplay?.getProperty(
                    connection.window, pending.property, delete: true, offset: offset,
                    length: pending.machine.sliceBytes, pool: pending.isStreamed ? .shared : nil)
                perform(pending.machine.propertyRead(value), for: pending, on: connection)
            case .deliver(let chunk):
                if case .multipleParent = pending.kind {
                    // The MULTIPLE write-back is parsed at the end, never handed to the caller.
                    pending.append(chunk)
                } else if pending.isStreamed {
                    // Handed over (and acknowledged) once this round of actions is done: a reply in one piece
                    // then goes out together with its end.
                    pending.append(chunk)
                } else if pending.whole.count + chunk.count > pending.wholeLimit
                    || chunk.count > pending.sharedBudget?.remaining ?? .max
                {
                    // Abandoned unread: the property is retired, so a late chunk of its INCR lands nowhere.
                    fail(
                        pending, SelectionError(.tooLarge, "\(pending.context): over the size limit of this read"),
                        on: connection)
                    return
                } else {
                    pending.sharedBudget?.remaining -= chunk.count
                    pending.collect(chunk)
                    perform(pending.machine.consumed(chunk.count), for: pending, on: connection)
                }
            case .finish:
                if case .multipleParent(let children) = pending.kind {
                    finishMultipleParent(pending, children: children, on: connection)
                } else {
                    complete(pending, on: connection)
                }
            case .fail(let failure):
                fail(pending, error(for: failure, pending, on: connection), on: connection)
            case .armIdleDeadline:
                connection.deadlines.arm(
                    .requestor(.read(pending.property)), at: .now + connection.configuration.incrementalIdleTimeout)
            case .shortenReplyDeadline:
                pending.replyDeadline = min(pending.replyDeadline, .now + ReadStateMachine.notifyGrace)
                connection.deadlines.arm(.requestor(.read(pending.property)), at: pending.replyDeadline)
            case .armProbe:
                connection.deadlines.arm(
                    .requestor(.ownerProbe(pending.property)), at: .now + ReadStateMachine.probeInterval)
            case .probeOwner:
                perform(
                    pending.machine.ownerProbed(connection.xdisplay?.selectionOwner(pending.machine.request.selection)),
                    for: pending, on: connection)
            case .watchOwner(let owner):
                // Our own window cannot vanish under us, and its event mask is not ours to change.
                if owner != connection.window { connection.watchWindow(owner, as: .owner) }
            }
        }
        if pending.isStreamed { handOverBatch(pending, on: connection) }
    }

    private func error(
        for failure: ReadStateMachine.Failure, _ pending: PendingRead, on connection: isolated X11Connection
    ) -> SelectionError {
        failure.selectionError(
            context: pending.context, replyTimeout: pending.replyTimeout,
            idleTimeout: connection.configuration.incrementalIdleTimeout, byteCount: pending.machine.byteCount)
    }

    func complete(_ pending: PendingRead, on connection: isolated X11Connection) {
        guard pending.outcome == nil else { return }
        pending.outcome = .success(())
        retire(pending, clean: true, on: connection)
        if let completion = pending.completion {
            pending.completion = nil
            completion(connection, pending, .success(()))
            return
        }
        if pending.isStreamed { handOverBatch(pending, on: connection) }
    }

    func fail(_ pending: PendingRead, _ reason: any Error, on connection: isolated X11Connection) {
        guard pending.outcome == nil else { return }
        // A property read that failed because the server went away is a lost connection, not a bad reply.
        var error = reason
        if let display = connection.xdisplay, display.isDead, !(reason is CancellationError) {
            error = SelectionError(
                .connectionLost, "\(pending.context): the connection to \(connection.displayName) broke")
        }
        pending.outcome = .failure(error)
        // After a refusal or an invalid reply the owner is done with the property; after a timeout or a
        // cancellation it may still write into it later, so that atom is retired for good.
        let code = (error as? SelectionError)?.code
        retire(pending, clean: !pending.cancelled && (code == .targetUnavailable || code == .invalidReply), on: connection)
        if let completion = pending.completion {
            pending.completion = nil
            completion(connection, pending, .failure(error))
        }
        if pending.isStreamed { handOverBatch(pending, on: connection) }
        if case .multipleParent(let children) = pending.kind {
            for property in children {
                if let child = reads[property] { fail(child, error, on: connection) }
            }
        }
    }

    private func retire(_ pending: PendingRead, clean: Bool, on connection: isolated X11Connection) {
        guard reads[pending.property]?.id == pending.id else { return }
        reads[pending.property] = nil
        pending.machine.abandon()
        connection.deadlines.cancel(.requestor(.read(pending.property)))
        connection.deadlines.cancel(.requestor(.ownerProbe(pending.property)))
        if let owner = pending.machine.watchedOwner, owner != connection.window {
            connection.unwatchWindow(owner, as: .owner)
        }
        disarmBatchDeadline(pending, on: connection)
        // A refused or failed read never got data in its property, but a late owner could still write it.
        let reusable = clean && !pending.cancelled
        if !reusable, let display = connection.xdisplay, connection.closedError == nil {
            display.deleteProperty(connection.window, pending.property)
        }
        recycleProperty(pending.property, clean: reusable)
    }
}
