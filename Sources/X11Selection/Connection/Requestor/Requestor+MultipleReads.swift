import Logging
import FoundationEssentials

/// Several targets in one MULTIPLE request (ICCCM 2.6.2), and the fallback to one read per target.
extension X11Connection {
    /// Reads several targets in one MULTIPLE request (ICCCM 2.6.2). Each target gets its own result;
    /// targets the owner refused map to `.targetUnavailable`. When the owner does not support MULTIPLE
    /// (refuses it or answers something that is not an ATOM_PAIR list), the targets are read one by one.
    ///
    /// Runs on the caller's executor like `read(_:target:timeout:)` (on loan when the loop sleeps, else the
    /// loop assembles every target's data and resumes the caller once).
    ///
    /// - Throws: `.noOwner`, `.timedOut` (no reply to MULTIPLE), `.connectionLost`, `.shutDown`.
    public nonisolated(nonsending) func read(
        _ selection: SelectionName, targets: [SelectionTarget], timeout: Duration? = nil
    ) async throws -> [SelectionTarget: Result<SelectionData, SelectionError>] {
        let requested = Self.uniqueTargets(targets)
        guard !requested.isEmpty else { return [:] }
        switch try await multipleOutcome(selection, targets: requested, timeout: timeout, bounds: nil) {
        case .results(let results):
            return results
        case .unusable(let error):
            return try await readAfterUnusableMultiple(selection, targets: requested, timeout: timeout, error: error)
        }
    }

    /// Reads `targets` in one MULTIPLE request with every reply bounded: one target's data past `perTarget`
    /// bytes, or all of them together past `total`, ends that target with `.tooLarge`, abandoned unread (a
    /// snapshot then reads it alone, streamed to a file). Nil when the owner cannot do MULTIPLE (it refused,
    /// answered something else or not at all): the caller reads the targets one by one, as it sees fit.
    ///
    /// - Throws: `.noOwner`, `.connectionLost`, `.shutDown`; cancellation.
    nonisolated(nonsending) func readMultiple(
        _ selection: SelectionName, targets: [SelectionTarget], timeout: Duration?, perTarget: Int, total: Int
    ) async throws -> [SelectionTarget: Result<SelectionData, SelectionError>]? {
        let requested = Self.uniqueTargets(targets)
        guard !requested.isEmpty else { return [:] }
        switch try await multipleOutcome(selection, targets: requested, timeout: timeout, bounds: (perTarget, total)) {
        case .results(let results):
            return results
        case .unusable(let error):
            try await multipleUnusable(selection, error)
            return nil
        }
    }

    /// The targets without repeats, first places kept (linear: a peer chooses how many it lists).
    private static func uniqueTargets(_ targets: [SelectionTarget]) -> [SelectionTarget] {
        var seen = Set<SelectionTarget>()
        return targets.filter { seen.insert($0).inserted }
    }

    /// Sends one MULTIPLE for `targets` and waits, on loan, until every target ended or MULTIPLE proved
    /// unusable.
    private nonisolated(nonsending) func multipleOutcome(
        _ selection: SelectionName, targets: [SelectionTarget], timeout: Duration?,
        bounds: (perTarget: Int, total: Int)?
    ) async throws -> MultipleOutcome {
        let cancellation = ReadCancellation()
        let wait = LoanedWait<MultipleOutcome>()
        return try await awaitOnLoan(wait) { connection in
            connection.startWholeMultiple(
                selection, targets: targets, timeout: timeout, bounds: bounds, cancellation: cancellation, wait: wait)
        } onCancel: {
            cancellation.cancel()
            return { $0.cancelWholeReads(cancellation) }
        }
    }

    /// How a MULTIPLE read ended on the loop.
    enum MultipleOutcome: Sendable {
        case results([SelectionTarget: Result<SelectionData, SelectionError>])
        /// The owner refused MULTIPLE, answered it with something else, or never answered.
        case unusable(SelectionError)
    }

    /// Starts a MULTIPLE read on the loop; `wait` is completed once, when the parent failed or every
    /// target ended (each target's data is assembled on the loop, as for whole reads).
    private func startWholeMultiple(
        _ selection: SelectionName, targets: [SelectionTarget], timeout: Duration?,
        bounds: (perTarget: Int, total: Int)?, cancellation: ReadCancellation,
        wait loanedWait: LoanedWait<MultipleOutcome>
    ) {
        if cancellation.isCancelled {
            loanedWait.complete(.failure(CancellationError()))
            return
        }
        let parent: PendingRead
        let children: [PendingRead]
        do {
            (parent, children) = try startMultipleRead(selection, targets: targets, timeout: timeout)
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
                    connection.cancelRead(property: child.property, id: child.id, clean: error.code != .timedOut)
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
    func cancelWholeReads(_ cancellation: ReadCancellation) {
        for pending in requestor.reads.values where pending.cancellation === cancellation {
            cancelRead(property: pending.property, id: pending.id)
        }
    }

    /// MULTIPLE was unusable: nobody owns the selection, or the targets are read one by one.
    private func readAfterUnusableMultiple(
        _ selection: SelectionName, targets: [SelectionTarget], timeout: Duration?, error: SelectionError
    ) async throws -> [SelectionTarget: Result<SelectionData, SelectionError>] {
        try multipleUnusable(selection, error)
        return try await readOneByOne(selection, targets: targets, timeout: timeout)
    }

    /// MULTIPLE did not work: throws `.noOwner` when the owner left, else counts the fallback.
    private func multipleUnusable(_ selection: SelectionName, _ error: SelectionError) throws {
        if try owner(of: selection) == nil {
            throw SelectionError(.noOwner, "\(selection): nobody owns the selection")
        }
        requestor.multipleFallbacks += 1
        logger.debug("\(selection):MULTIPLE unusable (\(error)); reading the targets one by one")
    }

    private func readOneByOne(_ selection: SelectionName, targets: [SelectionTarget], timeout: Duration?)
        async throws -> [SelectionTarget: Result<SelectionData, SelectionError>]
    {
        var results: [SelectionTarget: Result<SelectionData, SelectionError>] = [:]
        for target in targets {
            do {
                results[target] = .success(try await read(selection, target: target, timeout: timeout))
            } catch let error as SelectionError {
                if error.code == .connectionLost || error.code == .shutDown { throw error }
                results[target] = .failure(error)
            }
        }
        return results
    }

    func startMultipleRead(_ selection: SelectionName, targets: [SelectionTarget], timeout: Duration?)
        throws(SelectionError) -> (PendingRead, [PendingRead])
    {
        let display = try requireDisplay()
        let selectionAtom = try atom(for: selection.rawValue)
        let targetAtoms = try atoms(for: targets.map(\.rawValue))
        let parentProperty = try allocateProperty()
        let replyTimeout = timeout ?? configuration.readTimeout
        var children: [PendingRead] = []
        var items: [UInt] = []
        for (target, targetAtom) in zip(targets, targetAtoms) {
            let property = try allocateProperty()
            let child = PendingRead(
                id: nextID(), selection: selection, target: target, kind: .multipleChild(parent: parentProperty),
                replyTimeout: replyTimeout,
                machine: readMachine(selectionAtom, targetAtom, property, bufferLimit: configuration.streamBufferLimit))
            children.append(child)
            requestor.reads[property] = child
            deadlines.arm(.requestor(.read(property)), at: child.replyDeadline)
            items += [targetAtom.rawValue, property.rawValue]
        }
        let parent = PendingRead(
            id: nextID(), selection: selection, target: .multiple,
            kind: .multipleParent(children: children.map(\.property)), replyTimeout: replyTimeout,
            machine: readMachine(selectionAtom, wellKnown.multiple, parentProperty, bufferLimit: Int.max))
        requestor.reads[parentProperty] = parent
        display.changeProperty32(window, parentProperty, type: wellKnown.atomPair, values: items)
        requestor.multipleRequests += 1
        deadlines.arm(.requestor(.read(parentProperty)), at: parent.replyDeadline)
        perform(parent.machine.start(), for: parent)
        return (parent, children)
    }

    /// MULTIPLE answered: parse the write-back and tell each child whether its pair succeeded.
    func finishMultipleParent(_ parent: PendingRead, children: [X11Atom]) {
        var bytes = Data()
        while let chunk = parent.popChunk() { bytes.append(chunk) }
        let type = parent.machine.type
        guard parent.machine.format == 32, type == wellKnown.atomPair || type == wellKnown.atom else {
            fail(parent, SelectionError(.invalidReply, "\(parent.context): the MULTIPLE reply is not an ATOM_PAIR list"))
            return
        }
        let items = Format32.values(bytes)
        let succeeded = MultipleRequest.succeededProperties(writeBack: items)
        complete(parent)
        for property in children {
            guard let child = requestor.reads[property] else { continue }
            perform(child.machine.multipleAnswered(converted: succeeded.contains(property)), for: child)
        }
    }
}
