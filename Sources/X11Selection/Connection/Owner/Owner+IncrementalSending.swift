import Logging
import FoundationEssentials

/// The owner's INCR transfers (ICCCM 2.7.2): each step decided by the transfer's `IncrementalSender`.
extension X11Connection {
    // MARK: INCR sending (ICCCM 2.7.2)

    /// A requestor deleted a property: if it is one of our INCR transfers, take the step its sender decides.
    func handleRequestorPropertyDeleted(_ key: TransferKey) {
        if let id = owner.relayKeys[key], let relay = owner.relays[id] {
            relayPropertyDeleted(relay)
            return
        }
        guard let transfer = owner.outgoing[key] else { return }
        let now = ContinuousClock.now
        let elapsed = transfer.chunkWrittenAt.map { $0.duration(to: now) }
        var step = transfer.sender.propertyDeleted(after: elapsed)
        if case .sendChunk(let offset, let length) = step {
            if let chunk = transfer.payload.slice(offset: offset, length: length) {
                transfer.chunkWrittenAt = now
                writeChunk(chunk, to: key.requestor, key.property, type: transfer.type, format: transfer.format)
                deadlines.arm(.owner(.outgoing(key)), at: .now + configuration.incrementalIdleTimeout)
                return
            }
            step = transfer.sender.sourceFailed()
        }
        guard step == .sendEnd else { return }
        writeChunk(Data(), to: key.requestor, key.property, type: transfer.type, format: transfer.format)
        finish(transfer)
    }

    /// Stops an INCR transfer short for `cause` (see `IncrementalSender.DropCause`).
    func drop(_ transfer: OutgoingTransfer, _ cause: IncrementalSender.DropCause) {
        guard transfer.sender.drop(cause) else { return }
        finish(transfer)
    }

    /// Drops every transfer to `requestor` (its window was destroyed or vanished: `cause`).
    func dropTransfers(to requestor: X11Window, _ cause: IncrementalSender.DropCause) {
        let doomed = owner.outgoing.values.filter { $0.key.requestor == requestor }
        let doomedRelays = owner.relays.values.filter { $0.route.requestor == requestor }
        guard !doomed.isEmpty || !doomedRelays.isEmpty else { return }
        // The window is gone: do not try to change its event mask afterwards.
        windowInterests.forget(requestor)
        for transfer in doomed {
            drop(transfer, cause)
        }
        for relay in doomedRelays {
            dropRelay(relay, cause)
        }
    }

    /// Frees an ended transfer, stops watching its requestor, and reports how it ended on its lease.
    private func finish(_ transfer: OutgoingTransfer) {
        guard let ending = transfer.sender.ending, owner.outgoing[transfer.key] === transfer else { return }
        owner.outgoing[transfer.key] = nil
        deadlines.cancel(.owner(.outgoing(transfer.key)))
        transfer.payload.close()
        unwatchRequestor(transfer.key.requestor)
        let event: SelectionLeaseEvent
        switch ending {
        case .completed:
            event = .served(target: transfer.target, requestor: transfer.key.requestor, byteCount: transfer.payload.size)
        case .dropped(let cause):
            logger.info("\(transfer.target): transfer to \(transfer.key.requestor) dropped: \(cause)")
            event = .failed(target: transfer.target, requestor: transfer.key.requestor, reason: cause.description)
        }
        if let claim = owner.claims[transfer.claimID] {
            claim.transfersInFlight -= 1
            report(event, on: claim)
            retireIfDone(claim)
        }
        managing.handoverTransferEnded(claimID: transfer.claimID, served: ending == .completed, on: self)
    }

    func watchRequestor(_ requestor: X11Window) {
        if requestor != window { watchWindow(requestor, as: .requestor) }
    }

    private func unwatchRequestor(_ requestor: X11Window) {
        if requestor != window { unwatchWindow(requestor, as: .requestor) }
    }
}
