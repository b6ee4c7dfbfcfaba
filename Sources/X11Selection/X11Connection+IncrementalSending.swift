import Logging
import FoundationEssentials

/// The owner's INCR transfers (ICCCM 2.7.2): each step decided by the transfer's `IncrementalSender`.
extension X11Connection {
    // MARK: INCR sending (ICCCM 2.7.2)

    /// A requestor deleted a property: if it is one of our INCR transfers, send the next chunk.
    func handleRequestorPropertyDeleted(_ key: TransferKey) {
        guard let transfer = outgoing[key] else { return }
        let now = ContinuousClock.now
        let elapsed = transfer.chunkWrittenAt.map { $0.duration(to: now) }
        switch transfer.sender.propertyDeleted(after: elapsed) {
        case .sendChunk(let offset, let length):
            transfer.chunkWrittenAt = now
            guard let chunk = transfer.payload.slice(offset: offset, length: length) else {
                // The file shrank or failed: end the transfer cleanly with what was sent.
                transfer.sender.truncate()
                writeChunk(Data(), to: key.requestor, key.property, type: transfer.type, format: transfer.format)
                endTransfer(transfer, served: false, reason: "the source file could not be read to its end")
                return
            }
            writeChunk(chunk, to: key.requestor, key.property, type: transfer.type, format: transfer.format)
            deadlines.arm(.outgoing(key), at: .now + configuration.incrementalIdleTimeout)
        case .sendEnd:
            writeChunk(Data(), to: key.requestor, key.property, type: transfer.type, format: transfer.format)
            endTransfer(transfer, served: true, reason: "")
        case .none:
            break
        }
    }

    /// Ends an INCR transfer: frees it, stops watching the requestor, reports it on the lease.
    func endTransfer(_ transfer: OutgoingTransfer, served: Bool, reason: String) {
        guard outgoing[transfer.key] === transfer else { return }
        outgoing[transfer.key] = nil
        deadlines.cancel(.outgoing(transfer.key))
        transfer.payload.close()
        unwatchRequestor(transfer.key.requestor)
        if !served {
            logger.info("\(transfer.target): transfer to \(transfer.key.requestor) dropped: \(reason)")
        }
        if let claim = claims[transfer.claimID] {
            claim.transfersInFlight -= 1
            report(
                served
                    ? .served(target: transfer.target, requestor: transfer.key.requestor, byteCount: transfer.payload.size)
                    : .failed(target: transfer.target, requestor: transfer.key.requestor, reason: reason),
                on: claim)
            retireIfDone(claim)
        }
        handoverTransferEnded(claimID: transfer.claimID, served: served)
    }

    /// Drops every transfer to `requestor` (its window was destroyed or vanished).
    func dropTransfers(to requestor: X11Window, reason: String) {
        let doomed = outgoing.values.filter { $0.key.requestor == requestor }
        guard !doomed.isEmpty else { return }
        // The window is gone: do not try to change its event mask afterwards.
        windowInterests.forget(requestor)
        for transfer in doomed {
            endTransfer(transfer, served: false, reason: reason)
        }
    }

    func watchRequestor(_ requestor: X11Window) {
        if requestor != window { watchWindow(requestor, as: .requestor) }
    }

    private func unwatchRequestor(_ requestor: X11Window) {
        if requestor != window { unwatchWindow(requestor, as: .requestor) }
    }
}
