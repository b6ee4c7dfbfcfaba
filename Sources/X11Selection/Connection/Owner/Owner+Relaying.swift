import Logging
import FoundationEssentials

/// The owner serving relayed representations (``SelectionOffer/DataSource/relay(_:)``), isolated to the
/// connection: bytes written to the requestor while a producer is still delivering them, each step decided by the
/// transfer's `RelaySender`. The producer, off the loop, comes back through the connection
/// (`X11Connection.relayReceived` and `relayEnded`, in `X11Connection+Owning.swift`).
extension Owner {
    /// Starts the producer for one request of a relayed representation.
    func startRelay(
        _ produce: @escaping @Sendable (SelectionRelay) async throws -> Void, claim: Claim, index: Int,
        route: ReplyRoute, on connection: isolated X11Connection
    ) {
        let representation = claim.offer.representations[index]
        guard relays.count < connection.configuration.maximumRelays else {
            connection.logger.notice(
                "\(claim.selection):\(representation.target): refused, \(relays.count) relayed conversions run already")
            report(.failed(target: representation.target, requestor: route.requestor,
                           reason: "too many relayed conversions at once (Configuration.maximumRelays)"),
                   to: claim, on: connection)
            replied(route, success: false, on: connection)
            return
        }
        let format = representation.propertyFormat
        let transfer = RelayTransfer(
            id: ids.next(), route: route, claimID: claim.id, target: representation.target,
            sender: relaySender(target: representation.target, format: format, on: connection),
            type: claim.typeAtoms[index], format: format)
        supersedeTransfer(at: transfer.key, on: connection)
        relays[transfer.id] = transfer
        // The requestor's window is watched for the relay's whole life, not only once its INCR starts: a requestor
        // that goes while the reply is still being collected (a Wayland source trickling a byte a second: each byte
        // restarts the idle deadline) must end the relay and its producer at once, or the producer reads on and its
        // source's pipe stays open (a descriptor per abandoned paste).
        watchRequestor(route.requestor, on: connection)
        // Counted as in flight so the claim outlives a loss while the relay runs (ICCCM 2.2).
        claim.transfersInFlight += 1
        armRelayDeadline(transfer, on: connection)
        let relay = SelectionRelay(connection: connection, id: transfer.id, target: representation.target)
        let id = transfer.id
        // Detached: the producer runs off the event loop (it may read another connection, or do blocking work).
        transfer.producer = Task.detached {
            var failure: (any Error)?
            do {
                try await produce(relay)
            } catch {
                failure = error
            }
            await connection.relayEnded(id: id, failure: failure)
        }
    }

    /// Replies up to the INCR threshold are written whole, but never more than half the buffer limit is
    /// collected first: the producer is held at the limit, and a collecting relay must go INCR before that or
    /// it would hold its producer with nothing to drain the buffer.
    private func relaySender(target: SelectionTarget, format: Int, on connection: isolated X11Connection) -> RelaySender {
        let threshold = min(incrementalThreshold, max(4096, connection.configuration.streamBufferLimit / 2))
        return RelaySender(
            threshold: threshold, chunkSize: min(connection.configuration.maximumChunkSize, threshold),
            itemSize: format / 8, keepsCharactersWhole: UTF8ChunkBoundary.applies(to: target, format: format))
    }

    /// Any transfer (served or relayed) into the same requestor property is replaced: ICCCM forbids reusing a
    /// property mid-transfer, so a requestor that does has given up on the old one.
    func supersedeTransfer(at key: TransferKey, on connection: isolated X11Connection) {
        if let existing = outgoing[key] { drop(existing, .superseded, on: connection) }
        if let id = relayKeys[key], let existing = relays[id] { dropRelay(existing, .superseded, on: connection) }
    }

    /// The producer of relay `id` sent bytes (see ``SelectionRelay/send(_:type:format:)``).
    func relayReceived(
        id: UInt64, _ bytes: Data, type: SelectionTarget, format: Int, on connection: isolated X11Connection
    ) async throws {
        guard let transfer = relays[id], transfer.sender.ending == nil, connection.closedError == nil else {
            throw SelectionError(.ownerGone, "the request for this relayed conversion is over")
        }
        guard format == 8 || format == 16 || format == 32 else {
            throw SelectionError(.invalidReply, "a relayed reply has format \(format); only 8, 16 and 32 exist")
        }
        if !transfer.typeSet {
            transfer.type = try connection.atom(for: type.rawValue)
            transfer.format = format
            transfer.typeSet = true
            if transfer.sender.itemSize != format / 8 {
                transfer.sender = relaySender(target: transfer.target, format: format, on: connection)
            }
        }
        let step = transfer.sender.received(bytes)
        perform(step, for: transfer, on: connection)
        if transfer.sender.ending != nil {
            throw SelectionError(.ownerGone, "the request for this relayed conversion is over")
        }
        // A step changed whose turn it is; otherwise the requestor's clock is left running.
        if step != .none || !transfer.sender.awaitsRequestor { armRelayDeadline(transfer, on: connection) }
        guard transfer.sender.bufferedBytes >= connection.configuration.streamBufferLimit else { return }
        // Backpressure: the producer waits until the requestor takes chunks (or the transfer ends).
        try await withCheckedThrowingContinuation { transfer.waitingProducer = $0 }
    }

    /// The producer of relay `id` returned (`failure` nil) or threw.
    func relayEnded(id: UInt64, failure: (any Error)?, on connection: isolated X11Connection) {
        guard let transfer = relays[id] else { return }
        if let failure {
            let reason = (failure as? SelectionError)?.message ?? "\(failure)"
            connection.logger.info("\(transfer.target): relayed conversion failed: \(reason)")
            transfer.failure = reason
            perform(transfer.sender.producerFailed(), for: transfer, on: connection)
        } else {
            perform(transfer.sender.producerEnded(), for: transfer, on: connection)
        }
        if transfer.sender.ending == nil { armRelayDeadline(transfer, on: connection) }
    }

    /// The requestor deleted the property of a streaming relay.
    func relayPropertyDeleted(_ transfer: RelayTransfer, on connection: isolated X11Connection) {
        perform(transfer.sender.propertyDeleted(), for: transfer, on: connection)
        if transfer.sender.ending == nil {
            armRelayDeadline(transfer, on: connection)
            if transfer.sender.bufferedBytes < connection.configuration.streamBufferLimit,
                let waiting = transfer.waitingProducer
            {
                transfer.waitingProducer = nil
                waiting.resume()
            }
        }
    }

    /// The relay's deadline passed: the requestor stopped taking chunks, or the producer stopped sending.
    func relayDeadlinePassed(_ transfer: RelayTransfer, on connection: isolated X11Connection) {
        if transfer.sender.awaitsRequestor {
            dropRelay(transfer, .requestorIdle, on: connection)
        } else {
            transfer.failure = "no data from the relay's source for too long"
            perform(transfer.sender.producerFailed(), for: transfer, on: connection)
        }
    }

    /// Stops a relay for `cause` (nothing more is written).
    func dropRelay(_ transfer: RelayTransfer, _ cause: IncrementalSender.DropCause, on connection: isolated X11Connection) {
        guard transfer.sender.drop(cause) else { return }
        finishRelay(transfer, on: connection)
    }

    /// While the producer has not delivered, it has the read timeout and an idle period to start or go on
    /// (its own reads have deadlines of that length, so their failure comes first); while the requestor holds
    /// a chunk, it has the INCR idle timeout.
    private func armRelayDeadline(_ transfer: RelayTransfer, on connection: isolated X11Connection) {
        var waitsForMultiple = false
        if case .multiple(let id, _, _, _) = transfer.route { waitsForMultiple = multiples[id] != nil }
        // A MULTIPLE's requestor cannot start before the notify, which waits for every pair (`finishMultiple`
        // starts the requestor's clock proper).
        let idle = connection.configuration.incrementalIdleTimeout
        let wait = transfer.sender.awaitsRequestor && !waitsForMultiple
            ? idle : connection.configuration.readTimeout + idle
        connection.deadlines.arm(.owner(.relay(transfer.id)), at: .now + wait)
    }

    private func perform(_ step: RelaySender.Step, for transfer: RelayTransfer, on connection: isolated X11Connection) {
        let route = transfer.route
        switch step {
        case .none:
            break
        case .replyWhole(let data):
            writeChunk(
                data, to: route.requestor, route.property, type: transfer.type, format: transfer.format, on: connection)
            replied(route, success: true, on: connection)
        case .refuse:
            replied(route, success: false, on: connection)
        case .announce(let lowerBound):
            watchRequestor(route.requestor, on: connection)
            connection.xdisplay?.changeProperty32(
                route.requestor, route.property, type: connection.wellKnown.incr,
                values: [UInt(min(lowerBound, Int(UInt32.max)))])
            relayKeys[transfer.key] = transfer.id
            connection.managing.handoverTransferStarted(claimID: transfer.claimID, on: connection)
            replied(route, success: true, on: connection)
        case .sendChunk(let chunk):
            writeChunk(
                chunk, to: route.requestor, route.property, type: transfer.type, format: transfer.format, on: connection)
        case .sendEnd:
            writeChunk(
                Data(), to: route.requestor, route.property, type: transfer.type, format: transfer.format, on: connection)
        }
        if transfer.sender.ending != nil { finishRelay(transfer, on: connection) }
    }

    /// Frees an ended relay: stops its producer, and reports how it ended on its lease.
    private func finishRelay(_ transfer: RelayTransfer, on connection: isolated X11Connection) {
        guard let ending = transfer.sender.ending, relays[transfer.id] === transfer else { return }
        relays[transfer.id] = nil
        connection.deadlines.cancel(.owner(.relay(transfer.id)))
        unwatchRequestor(transfer.route.requestor, on: connection)
        let streamed = relayKeys[transfer.key] == transfer.id
        if streamed {
            relayKeys[transfer.key] = nil
            if transfer.route.requestor != connection.window {
                connection.unwatchWindow(transfer.route.requestor, as: .requestor)
            }
        }
        if ending != .completed { transfer.producer?.cancel() }
        if let waiting = transfer.waitingProducer {
            transfer.waitingProducer = nil
            waiting.resume(throwing: SelectionError(.ownerGone, "the request for this relayed conversion is over"))
        }
        let event: SelectionLeaseEvent
        switch ending {
        case .completed:
            event = .served(target: transfer.target, requestor: transfer.route.requestor, byteCount: transfer.sender.sentBytes)
        case .refused:
            event = .failed(
                target: transfer.target, requestor: transfer.route.requestor,
                reason: transfer.failure ?? "the relay's source failed")
        case .dropped(let cause):
            let reason = cause == .sourceUnreadable ? (transfer.failure ?? cause.description) : cause.description
            connection.logger.info("\(transfer.target): relayed transfer to \(transfer.route.requestor) dropped: \(reason)")
            event = .failed(target: transfer.target, requestor: transfer.route.requestor, reason: reason)
        }
        if let claim = claims[transfer.claimID] {
            claim.transfersInFlight -= 1
            report(event, to: claim, on: connection)
            retireIfDone(claim)
        }
        if streamed {
            connection.managing.handoverTransferEnded(
                claimID: transfer.claimID, served: ending == .completed, on: connection)
        }
    }
}
