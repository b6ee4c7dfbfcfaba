/// The connection as a selection owner: its claims (by id and by selection), the INCR transfers and relayed
/// conversions it serves, MULTIPLE requests being answered, the selections a ``PreparedClaim`` adopted and the
/// requests held for them, and the claims waiting for a server time. A component of ``X11Connection`` (GTK 4's
/// `gdkclipboard-x11.c`): it runs on the loop thread, isolated to the connection, and is touched only there.
/// The rules are `SelectionRequestPolicy`'s, `IncrementalSender`'s and `RelaySender`'s; the component's methods
/// carry them out, taking `on connection: isolated X11Connection` for the display, the atoms and the deadlines:
/// serving is `Owner+Serving.swift`'s, INCR `+IncrementalSending`, relays `+Relaying`, claims `+Owning`, the
/// server time a claim waits for `+ServerTime`. The public `claim` and `release` stay methods of the connection
/// (`X11Connection+Owning.swift`), as do the entries a relay's producer comes back through.
final class Owner {
    /// The owner's deadlines (one `X11Connection.DeadlineKey.owner` each).
    enum Deadline: Hashable, Sendable {
        /// An INCR transfer's requestor was idle too long.
        case outgoing(TransferKey)
        /// A relayed conversion's producer or requestor was idle too long (`relayDeadlinePassed`).
        case relay(UInt64)
        /// No PropertyNotify answered a claim's request for a server time (`serverTime()`).
        case timestamp(UInt64)
        /// Hand a claim's batched `.served` events to its lease (`Claim.servedWindow`).
        case leaseEvents(claimID: UInt64)
    }

    /// Names the claims, relays, MULTIPLE answers and timestamp waiters.
    var ids = IDCounter()
    var claimsBySelection: [X11Atom: Claim] = [:]
    var claims: [UInt64: Claim] = [:]
    var outgoing: [TransferKey: OutgoingTransfer] = [:]
    /// Relayed conversions being served, by id; `relayKeys` finds those streaming by INCR by their property.
    var relays: [UInt64: RelayTransfer] = [:]
    var relayKeys: [TransferKey: UInt64] = [:]
    var multiples: [UInt64: PendingMultiple] = [:]
    /// Selections a ``PreparedClaim`` owns for this connection until `claim` supplies their offer.
    var adoptedSelections: [X11Atom: X11Timestamp] = [:]
    /// Adopted selections another client took before `claim` came.
    var lostAdoptions: Set<X11Atom> = []
    /// Requests for adopted selections, held until `claim` supplies the offer.
    var deferredRequests: [X11Event.SelectionRequest] = []
    /// Bigger replies go by INCR (`Configuration.incrementalThreshold`, else from the server's request size).
    var incrementalThreshold = 0
    /// Claims waiting for a fresh server time (`serverTime()`).
    var timestampWaiters: [(id: UInt64, continuation: CheckedContinuation<X11Timestamp, any Error>)] = []

    func deadlinePassed(_ deadline: Deadline, on connection: isolated X11Connection) {
        switch deadline {
        case .outgoing(let key):
            if let transfer = outgoing[key] { drop(transfer, .requestorIdle, on: connection) }
        case .relay(let id):
            if let transfer = relays[id] { relayDeadlinePassed(transfer, on: connection) }
        case .timestamp(let id):
            if let index = timestampWaiters.firstIndex(where: { $0.id == id }) {
                let waiter = timestampWaiters.remove(at: index)
                waiter.continuation.resume(
                    throwing: SelectionError(.timedOut, "no PropertyNotify from the server for a timestamp"))
            }
        case .leaseEvents(let claimID):
            claims[claimID]?.closeServedWindow()
        }
    }

    /// A fresh server time arrived (WM_NAME's PropertyNotify): every claim waiting for one takes it.
    func serverTimeArrived(_ time: X11Timestamp, on connection: isolated X11Connection) {
        let waiters = timestampWaiters
        timestampWaiters.removeAll()
        for waiter in waiters {
            connection.deadlines.cancel(.owner(.timestamp(waiter.id)))
            waiter.continuation.resume(returning: time)
        }
    }

    /// The connection closes: our selections are given up while the display still works (not when it broke),
    /// transfers end, and every lease and waiter learns it.
    func tearDown(_ error: SelectionError, on connection: isolated X11Connection) {
        if let display = connection.xdisplay, !display.isDead, error.code != .connectionLost {
            for claim in claimsBySelection.values {
                display.setSelectionOwner(claim.selectionAtom, nil, time: claim.time)
            }
        }
        let waiters = timestampWaiters
        timestampWaiters.removeAll()
        for waiter in waiters {
            waiter.continuation.resume(throwing: error)
        }
        for transfer in outgoing.values {
            transfer.payload.close()
        }
        outgoing.removeAll()
        for transfer in relays.values {
            transfer.producer?.cancel()
            transfer.waitingProducer?.resume(throwing: error)
            transfer.waitingProducer = nil
        }
        relays.removeAll()
        relayKeys.removeAll()
        multiples.removeAll()
        let ended = claims
        claims.removeAll()
        claimsBySelection.removeAll()
        for claim in ended.values {
            claim.finishForTeardown()
        }
    }
}
