import FoundationEssentials

/// Streamed reads, the loop's side: chunks handed to the waiting consumer in batches, with bounded memory
/// (backpressure). The consumer's side is `X11Connection+StreamedReads.swift`.
extension Requestor {
    /// One wait of a streamed read's consumer (see `X11Connection.nextBatch`): starts the read on the first.
    func serveBatch(_ stream: ReadStream, to wait: LoanedWait<StreamBatch>, on connection: isolated X11Connection) {
        if stream.cancellation.isCancelled {
            abandon(stream, on: connection)
            wait.complete(.failure(CancellationError()))
            return
        }
        let pending: PendingRead
        if let started = stream.pending {
            pending = started
        } else {
            do {
                pending = try startRead(
                    stream.selection, target: stream.target, timeout: stream.timeout, time: stream.time, on: connection)
            } catch {
                wait.complete(.failure(error))
                return
            }
            pending.isStreamed = true
            stream.pending = pending
        }
        pending.batchWaiter = wait
        handOverBatch(pending, on: connection)
    }

    func abandon(_ stream: ReadStream, on connection: isolated X11Connection) {
        guard let pending = stream.pending else { return }
        cancelRead(property: pending.property, id: pending.id, on: connection)
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
    func handOverBatch(_ pending: PendingRead, force: Bool = false, on connection: isolated X11Connection) {
        guard let waiter = pending.batchWaiter else { return }
        if pending.outcome == nil, !force, pending.machine.bufferedBytes > 0,
            pending.machine.bufferedBytes < streamBatchBytes(on: connection)
        {
            if !pending.batchDeadlineArmed {
                pending.batchDeadlineArmed = true
                connection.deadlines.arm(.requestor(.streamBatch(pending.property)), at: .now + Self.streamBatchDelay)
            }
            return
        }
        disarmBatchDeadline(pending, on: connection)
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
                kind = StreamBatch.Kind(
                    type: try connection.typeName(pending.machine.type), format: pending.machine.format)
            } catch {
                pending.batchWaiter = nil
                waiter.complete(.failure(error))
                return
            }
        }
        pending.batchWaiter = nil
        waiter.complete(.success(StreamBatch(chunks: chunks, kind: kind, isEnd: ended)))
        if count > 0 && pending.outcome == nil {
            perform(pending.machine.consumed(count), for: pending, on: connection)
        }
    }

    /// Cancels the `.streamBatch` deadline of `pending`, if one is armed (its batch is handed over, or it ended).
    func disarmBatchDeadline(_ pending: PendingRead, on connection: isolated X11Connection) {
        guard pending.batchDeadlineArmed else { return }
        pending.batchDeadlineArmed = false
        connection.deadlines.cancel(.requestor(.streamBatch(pending.property)))
    }

    /// The bytes a streamed INCR read gathers before it hands them over (see `handOverBatch`): a quarter of
    /// the buffer limit, at most 1 MiB (8 chunks of the usual 128 KiB).
    func streamBatchBytes(on connection: isolated X11Connection) -> Int {
        max(1, min(1 << 20, connection.configuration.streamBufferLimit / 4))
    }

    /// The longest a streamed read's chunk waits for its batch to fill.
    static let streamBatchDelay = Duration.milliseconds(5)
}
