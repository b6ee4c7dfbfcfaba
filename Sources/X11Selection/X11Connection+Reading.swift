import Logging
import FoundationEssentials

extension X11Connection {
    // MARK: Public requestor API

    /// The window that owns `selection`, or nil when nobody does.
    ///
    /// - Throws: `.connectionLost` / `.shutDown` when the connection is closed.
    public func owner(of selection: SelectionName) throws -> X11Window? {
        let display = try requireDisplay()
        return display.selectionOwner(try atom(for: selection.rawValue))
    }

    /// The owner's TARGETS list, as it sent it (meta targets included).
    ///
    /// - Throws: `.noOwner`, `.targetUnavailable` (owner refused TARGETS), `.invalidReply` (not a list of
    ///   atoms), `.timedOut`, `.connectionLost`, `.shutDown`.
    ///
    /// Runs on the caller's executor (see `read(_:target:timeout:)`).
    public nonisolated(nonsending) func targets(of selection: SelectionName, timeout: Duration? = nil) async throws
        -> [SelectionTarget]
    {
        try await readWhole(selection, target: .targets, timeout: timeout) { connection, data in
            try connection.targetList(from: data)
        }
    }

    /// Reads `selection` converted to `target`, whole (INCR transfers are reassembled).
    ///
    /// - Throws: `.noOwner`; `.targetUnavailable` with the owner's TARGETS in `availableTargets`;
    ///   `.timedOut` (no reply within `timeout`, default `Configuration.readTimeout`, or an INCR transfer
    ///   idle longer than `incrementalIdleTimeout`); `.invalidReply`; `.connectionLost`; `.shutDown`;
    ///   `CancellationError` when the task is cancelled.
    ///
    /// Runs on the caller's executor (`nonisolated(nonsending)`). A caller elsewhere, while the connection's
    /// loop sleeps, does the X work on its own thread for up to `Configuration.inlineWaitLimit` (a *loan*:
    /// no thread is woken, as in a single-threaded Xlib client); if the loop is busy, or the reply takes
    /// longer, the loop finishes the read and resumes the caller once (two thread wake-ups). A caller on the
    /// connection's executor (inside `withIsolation`) sends the request itself and is resumed by the loop in
    /// its own turn, with no wake-up at all.
    public nonisolated(nonsending) func read(
        _ selection: SelectionName, target: SelectionTarget, timeout: Duration? = nil)
        async throws -> SelectionData
    {
        try await readWhole(selection, target: target, timeout: timeout) { _, data in data }
    }

    /// Reads `selection` as `target` whole, then runs `transform` on the loop with the result.
    ///
    /// The caller's task waits in its own context (its executor: `nonisolated(nonsending)`). Off the loop it
    /// first tries a loan (`awaitOnLoan`): no thread wake-up at all when the reply comes within
    /// `Configuration.inlineWaitLimit`. Otherwise the loop resumes it once, when the read ends: two thread
    /// wake-ups (in, and back). A caller on the loop starts the read inline, and the loop enqueues its
    /// continuation on itself while awake.
    nonisolated(nonsending) func readWhole<T: Sendable>(
        _ selection: SelectionName, target: SelectionTarget, timeout: Duration?,
        transform: @escaping @Sendable (isolated X11Connection, SelectionData) throws -> T
    ) async throws -> T {
        let cancellation = ReadCancellation()
        let wait = LoanedWait<T>()
        do {
            return try await awaitOnLoan(wait) { connection in
                connection.startWholeRead(
                    selection, target: target, timeout: timeout, cancellation: cancellation, transform: transform,
                    wait: wait)
            } onCancel: {
                cancellation.cancel()
                return { $0.cancelWholeReads(cancellation) }
            }
        } catch let error as SelectionError where error.code == .targetUnavailable {
            throw await explain(error, selection: selection, target: target)
        }
    }

    /// Runs `start` on the loop and waits until it completes `wait`.
    ///
    /// A caller off the loop first *borrows* the loop's role while the loop sleeps (`X11EventLoop.lend`):
    /// it starts the work and drives the connection on its own thread for up to
    /// `Configuration.inlineWaitLimit`, like a single-threaded Xlib client, and no thread is woken. If the
    /// loop is awake, or the wait outlasts the limit, the work is (or stays) on the loop and the caller
    /// parks a continuation the loop resumes. `onCancel` runs on the cancelling thread and returns what the
    /// loop must do about it.
    nonisolated(nonsending) func awaitOnLoan<Value: Sendable>(
        _ wait: LoanedWait<Value>, start: @escaping @Sendable (isolated X11Connection) -> Void,
        onCancel: @escaping @Sendable () -> @Sendable (isolated X11Connection) -> Void
    ) async throws -> Value {
        var loan = X11EventLoop.LoanOutcome.unavailable
        let limit = configuration.inlineWaitLimit
        if limit > .zero, !loop.inLoop, !Task.isCancelled {
            loan = loop.lend(until: .now + limit, start: { self.onLoopThread(start) }, isDone: { wait.isComplete })
            // Only a wait completed during the loan may be read here: once the loan ended, the loop may complete
            // the wait at any moment, and only on the loop (`attach`) is that safe to look at.
            if loan == .finished, let outcome = wait.takeOutcome() { return try outcome.get() }
        }
        let started = loan != .unavailable
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Value, any Error>) in
                onLoop { connection in
                    if !started { start(connection) }
                    wait.attach(continuation)
                }
            }
        } onCancel: {
            let work = onCancel()
            // Always enqueued: the handler may run on the loop in the middle of other isolated work.
            loop.execute { self.assumeIsolated(work) }
        }
    }

    /// Starts a whole read on the loop; `wait` is completed once, when it ends (see `readWhole`).
    private func startWholeRead<T: Sendable>(
        _ selection: SelectionName, target: SelectionTarget, timeout: Duration?, cancellation: ReadCancellation,
        transform: @escaping @Sendable (isolated X11Connection, SelectionData) throws -> T,
        wait: LoanedWait<T>
    ) {
        // Cancelled before the loop got here (the cancellation job, if it ran first, found nothing to cancel).
        if cancellation.isCancelled {
            wait.complete(.failure(CancellationError()))
            return
        }
        let pending: PendingRead
        do {
            pending = try startRead(selection, target: target, timeout: timeout)
        } catch {
            wait.complete(.failure(error))
            return
        }
        pending.cancellation = cancellation
        pending.completion = { connection, pending, result in
            do {
                try result.get()
                let data = SelectionData(
                    target: target, type: try connection.typeName(pending.machine.type),
                    format: pending.machine.format, bytes: pending.whole)
                pending.whole = Data()
                wait.complete(.success(try transform(connection, data)))
            } catch {
                wait.complete(.failure(error))
            }
        }
    }

    /// Streams `selection` converted to `target` into `sink` as the data arrives (each INCR chunk as it is
    /// received), with bounded memory: at most `Configuration.streamBufferLimit` bytes wait for the sink
    /// before the engine stops acknowledging chunks.
    ///
    /// Runs on the caller's executor (`nonisolated(nonsending)`), and so does `sink` when it is a closure
    /// literal: off the loop for a caller elsewhere; on the loop inside `withIsolation`, where a slow sink
    /// then delays the connection's other work (pass a `@concurrent` function to keep it off). Each wait
    /// hands over every chunk received so far together with the end of the transfer when it is known, so a
    /// reply in one piece costs one wait, like `read(_:target:timeout:)` (on loan off the loop, when the loop
    /// sleeps); an INCR transfer costs one more wait per chunk the sink has to wait for.
    ///
    /// - Returns: the reply's type and format and the number of bytes delivered.
    /// - Throws: as `read(_:target:timeout:)`, plus whatever the sink throws (the read is then abandoned).
    public nonisolated(nonsending) func read(
        _ selection: SelectionName, target: SelectionTarget, timeout: Duration? = nil,
        into sink: nonisolated(nonsending) @Sendable (Data) async throws -> Void
    ) async throws -> SelectionStreamSummary {
        let stream = ReadStream(selection: selection, target: target, timeout: timeout)
        var total = 0
        do {
            while true {
                let batch = try await nextBatch(stream)
                for chunk in batch.chunks {
                    total += chunk.count
                    try await sink(chunk)
                }
                if let end = batch.end {
                    return SelectionStreamSummary(target: target, type: end.type, format: end.format, byteCount: total)
                }
            }
        } catch {
            // A no-op when the read already ended; otherwise the sink threw or the task was cancelled.
            onLoop { $0.abandon(stream) }
            if let error = error as? SelectionError {
                throw await explain(error, selection: selection, target: target)
            }
            throw error
        }
    }

    /// Waits for the next batch of a streamed read (starting the read on the first call); on loan when the
    /// loop sleeps (see `awaitOnLoan`).
    private nonisolated(nonsending) func nextBatch(_ stream: ReadStream) async throws -> StreamBatch {
        let wait = LoanedWait<StreamBatch>()
        return try await awaitOnLoan(wait) { connection in
            connection.serveBatch(stream, to: wait)
        } onCancel: {
            stream.cancellation.cancel()
            return { $0.abandon(stream) }
        }
    }

    private func serveBatch(_ stream: ReadStream, to wait: LoanedWait<StreamBatch>) {
        if stream.cancellation.isCancelled {
            abandon(stream)
            wait.complete(.failure(CancellationError()))
            return
        }
        let pending: PendingRead
        if let started = stream.pending {
            pending = started
        } else {
            do {
                pending = try startRead(stream.selection, target: stream.target, timeout: stream.timeout)
            } catch {
                wait.complete(.failure(error))
                return
            }
            pending.isStreamed = true
            stream.pending = pending
        }
        pending.batchWaiter = wait
        handOverBatch(pending)
    }

    private func abandon(_ stream: ReadStream) {
        guard let pending = stream.pending else { return }
        cancelRead(property: pending.property, id: pending.id)
    }

    /// Resumes the waiting consumer of a streamed read with every chunk buffered so far and, when the read
    /// ended, its end (or its error once the chunks before it were handed over). Handing chunks over counts
    /// as consuming them: the next INCR chunk is requested while the sink works.
    ///
    /// While an INCR transfer runs, chunks are handed over in batches of at least `streamBatchBytes`, or
    /// `streamBatchDelay` after the first of them arrived (`force`, from the deadline), whichever comes
    /// first. Why: each hand-over to a consumer off the loop is two thread wake-ups (and on a VM an
    /// inter-processor interrupt each), as costly as receiving the 128 KiB chunk itself; handed over one by
    /// one, a 64 MiB transfer ran at 0.7× the C requestor (`clipbridge-bench requestor` against
    /// `Benchmarks/c/owner`), while the loop alone keeps up with the owner.
    func handOverBatch(_ pending: PendingRead, force: Bool = false) {
        guard let waiter = pending.batchWaiter else { return }
        if pending.outcome == nil, !force, pending.machine.bufferedBytes > 0,
            pending.machine.bufferedBytes < streamBatchBytes
        {
            if !pending.batchDeadlineArmed {
                pending.batchDeadlineArmed = true
                deadlines.arm(.streamBatch(pending.property), at: .now + Self.streamBatchDelay)
            }
            return
        }
        disarmBatchDeadline(pending)
        var chunks: [Data] = []
        var count = 0
        while let chunk = pending.popChunk() {
            chunks.append(chunk)
            count += chunk.count
        }
        var end: StreamBatch.End?
        switch pending.outcome {
        case nil:
            if chunks.isEmpty { return }
        case .success:
            do {
                end = StreamBatch.End(type: try typeName(pending.machine.type), format: pending.machine.format)
            } catch {
                pending.batchWaiter = nil
                waiter.complete(.failure(error))
                return
            }
        case .failure(let error):
            if chunks.isEmpty {
                pending.batchWaiter = nil
                waiter.complete(.failure(error))
                return
            }
        }
        pending.batchWaiter = nil
        waiter.complete(.success(StreamBatch(chunks: chunks, end: end)))
        if count > 0 && pending.outcome == nil {
            perform(pending.machine.consumed(count), for: pending)
        }
    }

    /// Cancels the `.streamBatch` deadline of `pending`, if one is armed (its batch is handed over, or it ended).
    func disarmBatchDeadline(_ pending: PendingRead) {
        guard pending.batchDeadlineArmed else { return }
        pending.batchDeadlineArmed = false
        deadlines.cancel(.streamBatch(pending.property))
    }

    /// The bytes a streamed INCR read gathers before it hands them over (see `handOverBatch`): a quarter of
    /// the buffer limit, at most 1 MiB (8 chunks of the usual 128 KiB).
    var streamBatchBytes: Int { max(1, min(1 << 20, configuration.streamBufferLimit / 4)) }

    /// The longest a streamed read's chunk waits for its batch to fill.
    static let streamBatchDelay = Duration.milliseconds(5)

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
        var unique: [SelectionTarget] = []
        for target in targets where !unique.contains(target) { unique.append(target) }
        guard !unique.isEmpty else { return [:] }
        let requested = unique
        let cancellation = ReadCancellation()
        let wait = LoanedWait<MultipleOutcome>()
        let outcome = try await awaitOnLoan(wait) { connection in
            connection.startWholeMultiple(
                selection, targets: requested, timeout: timeout, cancellation: cancellation, wait: wait)
        } onCancel: {
            cancellation.cancel()
            return { $0.cancelWholeReads(cancellation) }
        }
        switch outcome {
        case .results(let results):
            return results
        case .unusable(let error):
            return try await readAfterUnusableMultiple(selection, targets: requested, timeout: timeout, error: error)
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
        _ selection: SelectionName, targets: [SelectionTarget], timeout: Duration?, cancellation: ReadCancellation,
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
    private func cancelWholeReads(_ cancellation: ReadCancellation) {
        for pending in reads.values where pending.cancellation === cancellation {
            cancelRead(property: pending.property, id: pending.id)
        }
    }

    /// MULTIPLE was unusable: nobody owns the selection, or the targets are read one by one.
    private func readAfterUnusableMultiple(
        _ selection: SelectionName, targets: [SelectionTarget], timeout: Duration?, error: SelectionError
    ) async throws -> [SelectionTarget: Result<SelectionData, SelectionError>] {
        if try owner(of: selection) == nil {
            throw SelectionError(.noOwner, "\(selection): nobody owns the selection")
        }
        multipleFallbacks += 1
        logger.debug("\(selection):MULTIPLE unusable (\(error)); reading the targets one by one")
        return try await readOneByOne(selection, targets: targets, timeout: timeout)
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

    // MARK: Helpers for the public API

    func targetList(from data: SelectionData) throws(SelectionError) -> [SelectionTarget] {
        let list = try Format32.targetAtoms(data.bytes, type: data.type, format: data.format)
        return try names(for: list).compactMap { $0.map(SelectionTarget.init(rawValue:)) }
    }

    func typeName(_ atom: X11Atom) throws(SelectionError) -> SelectionTarget {
        if atom.isNone { return SelectionTarget(rawValue: "None") }
        // Every read ends here: the cached name without the arrays of the general lookup.
        if closedError == nil, let cached = atoms.cachedName(atom) { return SelectionTarget(rawValue: cached) }
        return SelectionTarget(rawValue: try names(for: [atom])[0] ?? "atom#\(atom.rawValue)")
    }

    /// Turns a bare refusal into `.noOwner` or into `.targetUnavailable` carrying the owner's TARGETS.
    func explain(_ error: SelectionError, selection: SelectionName, target: SelectionTarget) async
        -> SelectionError
    {
        guard error.code == .targetUnavailable else { return error }
        guard (try? owner(of: selection)) != nil else {
            return SelectionError(.noOwner, "\(selection): nobody owns the selection")
        }
        guard target != .targets,
            let offered = try? await targets(of: selection, timeout: configuration.readTimeout)
        else { return error }
        let list = offered.filter { !$0.isMetaTarget }.map(\.rawValue).joined(separator: ", ")
        return SelectionError(
            .targetUnavailable, "\(selection):\(target): the owner cannot convert to \(target); it offers: \(list)",
            availableTargets: offered)
    }

    // MARK: Starting reads

    func startRead(_ selection: SelectionName, target: SelectionTarget, timeout: Duration?) throws(SelectionError)
        -> PendingRead
    {
        _ = try requireDisplay()
        // Both names are cached after the first read of them: looked up without building arrays (the hot path
        // of every read); otherwise interned together in one round trip.
        let selectionAtom: X11Atom
        let targetAtom: X11Atom
        if let cachedSelection = atoms.cachedAtom(selection.rawValue),
            let cachedTarget = atoms.cachedAtom(target.rawValue)
        {
            (selectionAtom, targetAtom) = (cachedSelection, cachedTarget)
        } else {
            let names = try atoms(for: [selection.rawValue, target.rawValue])
            (selectionAtom, targetAtom) = (names[0], names[1])
        }
        let property = try allocateProperty()
        let pending = PendingRead(
            id: nextID(), selection: selection, target: target, kind: .single,
            replyTimeout: timeout ?? configuration.readTimeout,
            machine: readMachine(selectionAtom, targetAtom, property, bufferLimit: configuration.streamBufferLimit))
        reads[property] = pending
        deadlines.arm(.read(property), at: pending.replyDeadline)
        perform(pending.machine.start(), for: pending)
        logger.trace("\(pending.context): ConvertSelection into property \(property)")
        return pending
    }

    /// A read's state machine, its request stamped with the latest server time this connection saw.
    private func readMachine(_ selection: X11Atom, _ target: X11Atom, _ property: X11Atom, bufferLimit: Int)
        -> ReadStateMachine
    {
        ReadStateMachine(
            request: .init(selection: selection, target: target, property: property, time: lastServerTime),
            incrAtom: wellKnown.incr, bufferLimit: bufferLimit, sliceBytes: configuration.propertySliceBytes)
    }

    private func startMultipleRead(_ selection: SelectionName, targets: [SelectionTarget], timeout: Duration?)
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
            reads[property] = child
            deadlines.arm(.read(property), at: child.replyDeadline)
            items += [targetAtom.rawValue, property.rawValue]
        }
        let parent = PendingRead(
            id: nextID(), selection: selection, target: .multiple,
            kind: .multipleParent(children: children.map(\.property)), replyTimeout: replyTimeout,
            machine: readMachine(selectionAtom, wellKnown.multiple, parentProperty, bufferLimit: Int.max))
        reads[parentProperty] = parent
        display.changeProperty32(window, parentProperty, type: wellKnown.atomPair, values: items)
        deadlines.arm(.read(parentProperty), at: parent.replyDeadline)
        perform(parent.machine.start(), for: parent)
        return (parent, children)
    }

    // MARK: Consuming

    /// Abandons a read (cancellation, a throwing sink, or a MULTIPLE fallback).
    func cancelRead(property: X11Atom, id: UInt64, clean: Bool = false) {
        guard let pending = reads[property], pending.id == id else { return }
        pending.cancelled = !clean
        fail(pending, CancellationError())
    }

    // MARK: Events

    func handleSelectionNotify(selection: X11Atom, target: X11Atom, property: X11Atom, time: X11Timestamp) {
        if handover != nil, selection == wellKnown.clipboardManager, target == wellKnown.saveTargets {
            handoverNotified(accepted: !property.isNone)
            return
        }
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
        perform(pending.machine.selectionNotified(property: property), for: pending)
    }

    private func isMultipleChild(_ pending: PendingRead) -> Bool {
        if case .multipleChild = pending.kind { return true }
        return false
    }

    /// Carries out what a read's state machine asked for.
    func perform(_ actions: [ReadStateMachine.Action], for pending: PendingRead) {
        for action in actions {
            guard pending.outcome == nil else { return }
            switch action {
            case .convert(let time):
                let request = pending.machine.request
                xdisplay?.convertSelection(
                    request.selection, target: request.target, property: request.property, requestor: window,
                    time: time)
            case .requestTimestamp:
                // WM_NAME of our window, as at opening: its PropertyNotify reaches `freshTimeArrived`.
                xdisplay?.changeProperty(
                    window, .wmName, type: .string, format: 8, append: true,
                    bytes: UnsafeRawBufferPointer(start: nil, count: 0))
            case .readProperty(let offset):
                // A streamed read's chunks wait for its sink: they go to recycled buffers (`ChunkBufferPool`).
                let value = xdisplay?.getProperty(
                    window, pending.property, delete: true, offset: offset, length: pending.machine.sliceBytes,
                    pool: pending.isStreamed ? .shared : nil)
                perform(pending.machine.propertyRead(value), for: pending)
            case .deliver(let chunk):
                if case .multipleParent = pending.kind {
                    // The MULTIPLE write-back is parsed at the end, never handed to the caller.
                    pending.append(chunk)
                } else if pending.isStreamed {
                    // Handed over (and acknowledged) once this round of actions is done: a reply in one piece
                    // then goes out together with its end.
                    pending.append(chunk)
                } else {
                    pending.collect(chunk)
                    perform(pending.machine.consumed(chunk.count), for: pending)
                }
            case .finish:
                if case .multipleParent(let children) = pending.kind {
                    finishMultipleParent(pending, children: children)
                } else {
                    complete(pending)
                }
            case .fail(let failure):
                fail(pending, error(for: failure, pending))
            case .armIdleDeadline:
                deadlines.arm(.read(pending.property), at: .now + configuration.incrementalIdleTimeout)
            case .shortenReplyDeadline:
                pending.replyDeadline = min(pending.replyDeadline, .now + ReadStateMachine.notifyGrace)
                deadlines.arm(.read(pending.property), at: pending.replyDeadline)
            case .armProbe:
                deadlines.arm(.ownerProbe(pending.property), at: .now + ReadStateMachine.probeInterval)
            case .probeOwner:
                perform(pending.machine.ownerProbed(xdisplay?.selectionOwner(pending.machine.request.selection)),
                        for: pending)
            case .watchOwner(let owner):
                // Our own window cannot vanish under us, and its event mask is not ours to change.
                if owner != window { watchWindow(owner, as: .owner) }
            }
        }
        if pending.isStreamed { handOverBatch(pending) }
    }

    private func error(for failure: ReadStateMachine.Failure, _ pending: PendingRead) -> SelectionError {
        failure.selectionError(
            context: pending.context, replyTimeout: pending.replyTimeout,
            idleTimeout: configuration.incrementalIdleTimeout, byteCount: pending.machine.byteCount)
    }

    /// MULTIPLE answered: parse the write-back and tell each child whether its pair succeeded.
    private func finishMultipleParent(_ parent: PendingRead, children: [X11Atom]) {
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
            guard let child = reads[property] else { continue }
            perform(child.machine.multipleAnswered(converted: succeeded.contains(property)), for: child)
        }
    }

    func complete(_ pending: PendingRead) {
        guard pending.outcome == nil else { return }
        pending.outcome = .success(())
        retire(pending, clean: true)
        if let completion = pending.completion {
            pending.completion = nil
            completion(self, pending, .success(()))
            return
        }
        if pending.isStreamed { handOverBatch(pending) }
    }

    func fail(_ pending: PendingRead, _ reason: any Error) {
        guard pending.outcome == nil else { return }
        // A property read that failed because the server went away is a lost connection, not a bad reply.
        var error = reason
        if let display = xdisplay, display.isDead, !(reason is CancellationError) {
            error = SelectionError(.connectionLost, "\(pending.context): the connection to \(displayName) broke")
        }
        pending.outcome = .failure(error)
        // After a refusal or an invalid reply the owner is done with the property; after a timeout or a
        // cancellation it may still write into it later, so that atom is retired for good.
        let code = (error as? SelectionError)?.code
        retire(pending, clean: !pending.cancelled && (code == .targetUnavailable || code == .invalidReply))
        if let completion = pending.completion {
            pending.completion = nil
            completion(self, pending, .failure(error))
        }
        if pending.isStreamed { handOverBatch(pending) }
        if case .multipleParent(let children) = pending.kind {
            for property in children {
                if let child = reads[property] { fail(child, error) }
            }
        }
    }

    private func retire(_ pending: PendingRead, clean: Bool) {
        guard reads[pending.property]?.id == pending.id else { return }
        reads[pending.property] = nil
        pending.machine.abandon()
        deadlines.cancel(.read(pending.property))
        deadlines.cancel(.ownerProbe(pending.property))
        if let owner = pending.machine.watchedOwner, owner != window { unwatchWindow(owner, as: .owner) }
        disarmBatchDeadline(pending)
        // A refused or failed read never got data in its property, but a late owner could still write it.
        let reusable = clean && !pending.cancelled
        if !reusable, let display = xdisplay, closedError == nil {
            display.deleteProperty(window, pending.property)
        }
        recycleProperty(pending.property, clean: reusable)
    }
}
