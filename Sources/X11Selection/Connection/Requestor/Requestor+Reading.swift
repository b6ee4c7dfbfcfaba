import FoundationEssentials

/// Whole reads, the loop's side: the read that `X11Connection.readWhole` (`X11Connection+Reading.swift`) waits
/// for, its data assembled on the loop and handed to its caller's wait once.
extension Requestor {
    /// Starts a whole read on the loop; `wait` is completed once, when it ends (see `readWhole`).
    func startWholeRead<T: Sendable>(
        _ selection: SelectionName, target: SelectionTarget, timeout: Duration?, time: X11Timestamp?,
        cancellation: ReadCancellation, transform: @escaping @Sendable (isolated X11Connection, SelectionData) throws -> T,
        wait: LoanedWait<T>, on connection: isolated X11Connection
    ) {
        // Cancelled before the loop got here (the cancellation job, if it ran first, found nothing to cancel).
        if cancellation.isCancelled {
            wait.complete(.failure(CancellationError()))
            return
        }
        let pending: PendingRead
        do {
            pending = try startRead(selection, target: target, timeout: timeout, time: time, on: connection)
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
}
