import FoundationEssentials

/// Streamed reads: chunks handed to a sink as they arrive, in batches, with bounded memory (backpressure).
extension X11Connection {
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
        try await readChunks(selection, target: target, timeout: timeout) { try await sink($0.bytes) }
    }

    /// ``read(_:target:timeout:into:)`` with the conversion stamped with `time` (nil: the latest server time):
    /// a drop target streams `XdndSelection` with the XdndDrop's time (XDND), as ``XdndDrop`` does.
    public nonisolated(nonsending) func read(
        _ selection: SelectionName, target: SelectionTarget, at time: X11Timestamp?, timeout: Duration? = nil,
        into sink: nonisolated(nonsending) @Sendable (Data) async throws -> Void
    ) async throws -> SelectionStreamSummary {
        try await readChunks(selection, target: target, at: time, timeout: timeout) { try await sink($0.bytes) }
    }

    /// Like ``read(_:target:timeout:into:)``, with each chunk's property type and format: what a relay needs to
    /// pass a reply on before it ended (``SelectionOffer/DataSource/relay(_:)``). Every chunk of one reply
    /// has the type and format of its first (ICCCM 2.7.2 gives an INCR transfer one type).
    public nonisolated(nonsending) func readChunks(
        _ selection: SelectionName, target: SelectionTarget, at time: X11Timestamp? = nil, timeout: Duration? = nil,
        into sink: nonisolated(nonsending) @Sendable (SelectionData) async throws -> Void
    ) async throws -> SelectionStreamSummary {
        let stream = ReadStream(selection: selection, target: target, timeout: timeout, time: time)
        var total = 0
        do {
            while true {
                let batch = try await nextBatch(stream)
                for chunk in batch.chunks {
                    total += chunk.count
                    guard let kind = batch.kind else {
                        throw SelectionError(.invalidReply, "\(selection):\(target): a chunk came without its type")
                    }
                    try await sink(SelectionData(target: target, type: kind.type, format: kind.format, bytes: chunk))
                }
                if batch.isEnd, let kind = batch.kind {
                    return SelectionStreamSummary(target: target, type: kind.type, format: kind.format, byteCount: total)
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
                pending = try startRead(stream.selection, target: stream.target, timeout: stream.timeout, time: stream.time)
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
                deadlines.arm(.requestor(.streamBatch(pending.property)), at: .now + Self.streamBatchDelay)
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
        let ended: Bool
        switch pending.outcome {
        case nil:
            if chunks.isEmpty { return }
            ended = false
        case .success:
            ended = true
        case .failure(let error):
            if chunks.isEmpty {
                pending.batchWaiter = nil
                waiter.complete(.failure(error))
                return
            }
            ended = false
        }
        // Named once per batch: the type is known from the first chunk on (and at the end, "None" for an INCR
        // transfer that sent no chunk).
        var kind: StreamBatch.Kind?
        if ended || !pending.machine.type.isNone {
            do {
                kind = StreamBatch.Kind(type: try typeName(pending.machine.type), format: pending.machine.format)
            } catch {
                pending.batchWaiter = nil
                waiter.complete(.failure(error))
                return
            }
        }
        pending.batchWaiter = nil
        waiter.complete(.success(StreamBatch(chunks: chunks, kind: kind, isEnd: ended)))
        if count > 0 && pending.outcome == nil {
            perform(pending.machine.consumed(count), for: pending)
        }
    }

    /// Cancels the `.streamBatch` deadline of `pending`, if one is armed (its batch is handed over, or it ended).
    func disarmBatchDeadline(_ pending: PendingRead) {
        guard pending.batchDeadlineArmed else { return }
        pending.batchDeadlineArmed = false
        deadlines.cancel(.requestor(.streamBatch(pending.property)))
    }

    /// The bytes a streamed INCR read gathers before it hands them over (see `handOverBatch`): a quarter of
    /// the buffer limit, at most 1 MiB (8 chunks of the usual 128 KiB).
    var streamBatchBytes: Int { max(1, min(1 << 20, configuration.streamBufferLimit / 4)) }

    /// The longest a streamed read's chunk waits for its batch to fill.
    static let streamBatchDelay = Duration.milliseconds(5)
}
