import Logging
import FoundationEssentials

/// Several targets in one MULTIPLE request (ICCCM 2.6.2), the loop's side: the parent read and one child read
/// per target, and the caller's wait completed once every target ended. The caller's side, and the fallback to
/// one read per target, are `X11Connection+MultipleReads.swift`'s.
extension Requestor {
    /// Starts a MULTIPLE read on the loop; `wait` is completed once, when the parent failed or every
    /// target ended (each target's data is assembled on the loop, as for whole reads).
    func startWholeMultiple(
        _ selection: SelectionName, targets: [SelectionTarget], timeout: Duration?,
        bounds: (perTarget: Int, total: Int)?, cancellation: ReadCancellation,
        wait loanedWait: LoanedWait<X11Connection.MultipleOutcome>, on connection: isolated X11Connection
    ) {
        if cancellation.isCancelled {
            loanedWait.complete(.failure(CancellationError()))
            return
        }
        let parent: PendingRead
        let children: [PendingRead]
        do {
            (parent, children) = try startMultipleRead(selection, targets: targets, timeout: timeout, on: connection)
        } catch {
            loanedWait.complete(.failure(error))
            return
        }
        if let bounds {
            let shared = SharedReadBudget(bounds.total)
            for child in children {
                child.wholeLimit = bounds.perTarget
                child.sharedBudget = shared
            }
        }
        let wait = MultipleWait(loanedWait, remaining: children.count)
        let childReads = children.map { (property: $0.property, id: $0.id) }
        parent.cancellation = cancellation
        parent.completion = { connection, _, result in
            // Success: the children were told their pairs' fate and report themselves.
            guard case .failure(let error) = result else { return }
            if let error = error as? SelectionError,
                error.code == .targetUnavailable || error.code == .invalidReply || error.code == .timedOut
            {
                // No usable MULTIPLE: refused, answered with something else (xclip answers every target with
                // its payload), or never answered (xsel 1.2.0 advertises MULTIPLE but does not reply to it). A
                // late answer may still land in the children's properties, so those are not reused after a
                // timeout.
                // Resumed first: the children's abandonment below reaches their completions as cancellations.
                wait.finish(.success(.unusable(error)))
                for child in childReads {
                    connection.requestor.cancelRead(
                        property: child.property, id: child.id, clean: error.code != .timedOut, on: connection)
                }
            } else {
                wait.finish(.failure(error))
            }
        }
        for child in children {
            child.cancellation = cancellation
            child.completion = { connection, child, result in
                let outcome: Result<SelectionData, SelectionError>
                switch result {
                case .success:
                    do throws(SelectionError) {
                        outcome = .success(SelectionData(
                            target: child.target, type: try connection.typeName(child.machine.type),
                            format: child.machine.format, bytes: child.whole))
                    } catch {
                        outcome = .failure(error)
                    }
                    child.whole = Data()
                case .failure(let error):
                    guard let error = error as? SelectionError,
                        error.code != .connectionLost && error.code != .shutDown
                    else {
                        wait.finish(.failure(error))
                        return
                    }
                    outcome = .failure(error)
                }
                wait.add(child.target, outcome)
            }
        }
    }

    /// Cancels every read started for `cancellation` (a whole read, or a MULTIPLE parent and its children).
    func cancelWholeReads(_ cancellation: ReadCancellation, on connection: isolated X11Connection) {
        for pending in reads.values where pending.cancellation === cancellation {
            cancelRead(property: pending.property, id: pending.id, on: connection)
        }
    }

    func startMultipleRead(
        _ selection: SelectionName, targets: [SelectionTarget], timeout: Duration?,
        on connection: isolated X11Connection
    ) throws(SelectionError) -> (PendingRead, [PendingRead]) {
        let display = try connection.requireDisplay()
        let selectionAtom = try connection.atom(for: selection.rawValue)
        let targetAtoms = try connection.atoms(for: targets.map(\.rawValue))
        let parentProperty = try allocateProperty(on: connection)
        let replyTimeout = timeout ?? connection.configuration.readTimeout
        let wellKnown = connection.wellKnown
        var children: [PendingRead] = []
        var items: [UInt] = []
        for (target, targetAtom) in zip(targets, targetAtoms) {
            let property = try allocateProperty(on: connection)
            let child = PendingRead(
                id: ids.next(), selection: selection, target: target,
                kind: .multipleChild(parent: parentProperty), replyTimeout: replyTimeout,
                machine: readMachine(
                    selectionAtom, targetAtom, property, bufferLimit: connection.configuration.streamBufferLimit,
                    on: connection))
            children.append(child)
            reads[property] = child
            connection.deadlines.arm(.requestor(.read(property)), at: child.replyDeadline)
            items += [targetAtom.rawValue, property.rawValue]
        }
        let parent = PendingRead(
            id: ids.next(), selection: selection, target: .multiple,
            kind: .multipleParent(children: children.map(\.property)), replyTimeout: replyTimeout,
            machine: readMachine(selectionAtom, wellKnown.multiple, parentProperty, bufferLimit: Int.max, on: connection))
        reads[parentProperty] = parent
        display.changeProperty32(connection.window, parentProperty, type: wellKnown.atomPair, values: items)
        multipleRequests += 1
        connection.deadlines.arm(.requestor(.read(parentProperty)), at: parent.replyDeadline)
        perform(parent.machine.start(), for: parent, on: connection)
        return (parent, children)
    }

    /// MULTIPLE answered: parse the write-back and tell each child whether its pair succeeded.
    func finishMultipleParent(_ parent: PendingRead, children: [X11Atom], on connection: isolated X11Connection) {
        var bytes = Data()
        while let chunk = parent.popChunk() { bytes.append(chunk) }
        let type = parent.machine.type
        let wellKnown = connection.wellKnown
        guard parent.machine.format == 32, type == wellKnown.atomPair || type == wellKnown.atom else {
            fail(
                parent, SelectionError(.invalidReply, "\(parent.context): the MULTIPLE reply is not an ATOM_PAIR list"),
                on: connection)
            return
        }
        let items = Format32.values(bytes)
        let succeeded = MultipleRequest.succeededProperties(writeBack: items)
        complete(parent, on: connection)
        for property in children {
            guard let child = reads[property] else { continue }
            perform(child.machine.multipleAnswered(converted: succeeded.contains(property)), for: child, on: connection)
        }
    }
}
