import Logging
import FoundationEssentials

/// The owner's INCR transfers (ICCCM 2.7.2), isolated to the connection: each step decided by the transfer's
/// `IncrementalSender`.
extension Owner {
    // MARK: INCR sending (ICCCM 2.7.2)

    /// A requestor deleted a property: if it is one of our INCR transfers, take the step its sender decides.
    func handleRequestorPropertyDeleted(_ key: TransferKey, on connection: isolated X11Connection) {
        if let id = relayKeys[key], let relay = relays[id] {
            relayPropertyDeleted(relay, on: connection)
            return
        }
        guard let transfer = outgoing[key] else { return }
        let now = ContinuousClock.now
        let elapsed = transfer.chunkWrittenAt.map { $0.duration(to: now) }
        var step = transfer.sender.propertyDeleted(after: elapsed)
        if case .sendChunk(let offset, let length) = step {
            if let slice = transfer.payload.slice(offset: offset, length: length) {
                let chunk = transfer.sender.wireChunk(slice)
                transfer.chunkWrittenAt = now
                writeChunk(
                    chunk, to: key.requestor, key.property, type: transfer.type, format: transfer.format,
                    on: connection)
                connection.deadlines.arm(
                    .owner(.outgoing(key)), at: .now + connection.configuration.incrementalIdleTimeout)
                return
            }
            step = transfer.sender.sourceFailed()
        }
        guard step == .sendEnd else { return }
        writeChunk(Data(), to: key.requestor, key.property, type: transfer.type, format: transfer.format, on: connection)
        finish(transfer, on: connection)
    }

    /// Stops an INCR transfer short for `cause` (see `IncrementalSender.DropCause`).
    func drop(_ transfer: OutgoingTransfer, _ cause: IncrementalSender.DropCause, on connection: isolated X11Connection) {
        guard transfer.sender.drop(cause) else { return }
        finish(transfer, on: connection)
    }

    /// Drops every transfer to `requestor` (its window was destroyed or vanished: `cause`).
    func dropTransfers(
        to requestor: X11Window, _ cause: IncrementalSender.DropCause, on connection: isolated X11Connection
    ) {
        let doomed = outgoing.values.filter { $0.key.requestor == requestor }
        let doomedRelays = relays.values.filter { $0.route.requestor == requestor }
        guard !doomed.isEmpty || !doomedRelays.isEmpty else { return }
        // The window is gone: do not try to change its event mask afterwards.
        connection.windowInterests.forget(requestor)
        for transfer in doomed {
            drop(transfer, cause, on: connection)
        }
        for relay in doomedRelays {
            dropRelay(relay, cause, on: connection)
        }
    }

    /// Frees an ended transfer, stops watching its requestor, and reports how it ended on its lease.
    private func finish(_ transfer: OutgoingTransfer, on connection: isolated X11Connection) {
        guard let ending = transfer.sender.ending, outgoing[transfer.key] === transfer else { return }
        outgoing[transfer.key] = nil
        connection.deadlines.cancel(.owner(.outgoing(transfer.key)))
        transfer.payload.close()
        unwatchRequestor(transfer.key.requestor, on: connection)
        let event: SelectionLeaseEvent
        switch ending {
        case .completed:
            event = .served(target: transfer.target, requestor: transfer.key.requestor, byteCount: transfer.payload.size)
        case .dropped(let cause):
            connection.logger.info("\(transfer.target): transfer to \(transfer.key.requestor) dropped: \(cause)")
            event = .failed(target: transfer.target, requestor: transfer.key.requestor, reason: cause.description)
        }
        if let claim = claims[transfer.claimID] {
            claim.transfersInFlight -= 1
            report(event, to: claim, on: connection)
            retireIfDone(claim)
        }
        connection.managing.handoverTransferEnded(
            claimID: transfer.claimID, served: ending == .completed, on: connection)
    }

    func watchRequestor(_ requestor: X11Window, on connection: isolated X11Connection) {
        if requestor != connection.window { connection.watchWindow(requestor, as: .requestor) }
    }

    func unwatchRequestor(_ requestor: X11Window, on connection: isolated X11Connection) {
        if requestor != connection.window { connection.unwatchWindow(requestor, as: .requestor) }
    }
}
