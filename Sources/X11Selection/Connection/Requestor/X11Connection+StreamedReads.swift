import FoundationEssentials

/// Streamed reads: chunks handed to a sink as they arrive, in batches, with bounded memory (backpressure). The
/// loop's side, which gathers the batches, is `Requestor+StreamedReads.swift`.
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
            onLoop { $0.requestor.abandon(stream, on: $0) }
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
            connection.requestor.serveBatch(stream, to: wait, on: connection)
        } onCancel: {
            stream.cancellation.cancel()
            return { $0.requestor.abandon(stream, on: $0) }
        }
    }
}
