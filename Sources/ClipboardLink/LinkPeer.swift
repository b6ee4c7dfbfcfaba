import FoundationEssentials
import SelectionCore
import Synchronization

/// The other machine's clipboard, as one side of a bridge (``endpoint``): a link to a `clipbridge` there, over ssh or
/// any byte stream. Its owner changes are the peer's announcements; its offers are read by asking the peer for one
/// type at a time, streamed in pieces as the peer makes them; a claim on it announces the types and serves each when
/// the peer asks.
///
/// Transfers are multiplexed on the one stream and flow-controlled: the asker lets the server send a window ahead
/// (``LinkLimits/fetchWindow``) and gives credit back as it passes the bytes on, so each transfer holds at most a
/// window of memory on either side whatever its size, and any number of them share the link. Everything the peer
/// sends is checked: a frame outside the format, data beyond its credit, an answer to nothing asked — the link is
/// closed, and the bridge connects again.
package final class LinkPeer: Sendable {
    /// The side's name in reports (`ssh:host`).
    package let name: String
    package let role: LinkPolicy.Role
    /// What the peer said first.
    package let peerHello: LinkMessage.Hello
    /// How long each wait on the peer may take: the next piece of a transfer, the credit to send the next.
    package let timeout: Duration
    private let wire: LinkWire
    private let state: Mutex<State>
    private let changes: AsyncThrowingStream<BridgeEndpoint.Change, any Error>

    /// A transfer this end asked for.
    private struct Asked {
        var events: AsyncThrowingStream<LinkMessage, any Error>.Continuation
        /// Bytes the peer may send in all, and has sent.
        var allowed: UInt64
        var received: UInt64 = 0
        /// Since when this end waits for the peer's next frame (nil: it is passing a piece on).
        var waitingSince: ContinuousClock.Instant?
    }

    /// A transfer the peer asked for.
    private struct Served {
        var credit: UInt64
        var waiter: CheckedContinuation<Void, any Error>?
        var task: Task<Void, Never>?
        var cancelled = false
    }

    private struct State {
        /// The peer's content, per selection.
        var announced: [SelectionName: LinkMessage.Announcement] = [:]
        /// This end's claims, per selection: the generation announced and what serves it.
        var claims: [SelectionName: (generation: UInt64, offer: RelayOffer)] = [:]
        var nextGeneration: UInt64 = 0
        /// The newest of the peer's generations received (announcements say it back as `seen`).
        var newestReceived: UInt64 = 0
        var nextRequest: UInt32 = 0
        var asked: [UInt32: Asked] = [:]
        var served: [UInt32: Served] = [:]
        var settled = false
        var settleWaiters: [CheckedContinuation<Void, Never>] = []
        var changes: AsyncThrowingStream<BridgeEndpoint.Change, any Error>.Continuation?
        var ended: (any Error)?
    }

    /// Opens a link over `transport`: sends this end's hello, and waits up to `handshakeTimeout` for the peer's.
    /// - Throws: ``LinkProtocolError`` when the peer is not a link or speaks another version; `LinkClosed` (with the
    ///   command's ending where the transport knows it) when the stream ended or stayed silent.
    package static func open(
        _ transport: LinkTransport, name: String, role: LinkPolicy.Role, hello: LinkMessage.Hello, timeout: Duration,
        handshakeTimeout: Duration
    ) async throws -> LinkPeer {
        let (firstHello, helloFeed) = AsyncThrowingStream<LinkMessage.Hello, any Error>.makeStream()
        // Until the peer object exists, frames after the hello wait here, in order; it takes them, then the rest as
        // they come (never one before another: the queue is empty when `peer` is set).
        let early = Mutex<(peer: LinkPeer?, greeted: Bool, queued: [LinkWire.Inbound])>((nil, false, []))
        let wire = LinkWire(transport) { inbound in
            let peer = early.withLock { early -> LinkPeer? in
                if let peer = early.peer { return peer }
                if !early.greeted {
                    if case .message(.hello(let hello)) = inbound {
                        early.greeted = true
                        helloFeed.yield(hello)
                    } else if case .ended(let error) = inbound {
                        helloFeed.finish(throwing: error)
                    } else {
                        helloFeed.finish(throwing: LinkProtocolError.malformed("a frame before the hello"))
                    }
                    return nil
                }
                early.queued.append(inbound)
                return nil
            }
            peer?.take(inbound)
        }
        wire.start(with: .hello(hello))
        let deadline = Task {
            try await Task.sleep(for: handshakeTimeout)
            wire.close(LinkClosed("the far end did not answer within \(handshakeTimeout)"))
        }
        defer { deadline.cancel() }
        let peerHello: LinkMessage.Hello
        do {
            var iterator = firstHello.makeAsyncIterator()
            guard let received = try await iterator.next() else { throw LinkClosed("the far end closed the link") }
            peerHello = received
        } catch let error as LinkClosed {
            wire.close(error)
            guard let ending = await transport.ending() else { throw error }
            if LinkPolicy.retries(afterExitStatus: ending.status) { throw LinkClosed(ending.description) }
            throw LinkUnusable(ending.description)
        } catch let error as LinkProtocolError {
            wire.close(error)
            throw LinkUnusable(error.reportedMessage)
        } catch {
            wire.close(error)
            throw error
        }
        guard peerHello.version == hello.version else {
            let mismatch = LinkProtocolError.versionMismatch(
                ours: hello.version, ourSoftware: hello.software, theirs: peerHello.version, theirSoftware: peerHello.software)
            wire.close(mismatch)
            throw LinkUnusable(mismatch.reportedMessage)
        }
        let peer = LinkPeer(name: name, role: role, peerHello: peerHello, timeout: timeout, wire: wire)
        while let next = early.withLock({ early -> LinkWire.Inbound? in
            guard !early.queued.isEmpty else {
                early.peer = peer
                return nil
            }
            return early.queued.removeFirst()
        }) {
            peer.take(next)
        }
        return peer
    }

    private init(name: String, role: LinkPolicy.Role, peerHello: LinkMessage.Hello, timeout: Duration, wire: LinkWire) {
        self.name = name
        self.role = role
        self.peerHello = peerHello
        self.timeout = timeout
        self.wire = wire
        let (changes, feed) = AsyncThrowingStream<BridgeEndpoint.Change, any Error>.makeStream()
        self.changes = changes
        state = Mutex(State(changes: feed))
    }

    /// Whether the link has ended (either end closed it, or it broke).
    package var isClosed: Bool { wire.isClosed }

    /// Ends the link.
    package func close() {
        wire.close(LinkClosed("the link was closed"))
    }

    // MARK: The peer's frames

    /// One inbound event, on the wire's reader thread.
    private func take(_ inbound: LinkWire.Inbound) {
        switch inbound {
        case .message(let message):
            do {
                try handle(message)
            } catch {
                wire.close(error)
            }
        case .ended(let error):
            ended(error)
        }
    }

    private func handle(_ message: LinkMessage) throws(LinkProtocolError) {
        switch message {
        case .hello:
            throw .malformed("a second hello")
        case .announce(let announcement):
            state.withLock { state in
                state.newestReceived = max(state.newestReceived, announcement.generation)
                guard LinkPolicy.acceptsAnnouncement(
                    seen: announcement.seen, ourClaim: state.claims[announcement.selection]?.generation, role: role)
                else { return }
                state.announced[announcement.selection] = announcement
                // The peer's content replaces ours there, as another client's claim ends ours on a display.
                state.claims[announcement.selection] = nil
                state.changes?.yield(BridgeEndpoint.Change(selection: announcement.selection, meaning: .newOwner, owner: nil))
            }
        case .withdraw(let selection, let generation):
            state.withLock { state in
                guard state.announced[selection]?.generation == generation else { return }
                state.announced[selection] = nil
                state.changes?.yield(BridgeEndpoint.Change(selection: selection, meaning: .ownerGone, owner: nil))
            }
        case .settled:
            let waiters = state.withLock { state in
                state.settled = true
                defer { state.settleWaiters = [] }
                return state.settleWaiters
            }
            for waiter in waiters { waiter.resume() }
        case .fetch(let request, let selection, let generation, let type, let credit):
            try serve(request, selection: selection, generation: generation, type: type, credit: credit)
        case .data(let request, let chunk):
            try state.withLock { state throws(LinkProtocolError) in
                guard var asked = state.asked[request] else { return }  // a transfer this end gave up: dropped
                asked.received += UInt64(chunk.bytes.count)
                guard asked.received <= asked.allowed else {
                    throw .malformed("transfer \(request) sent \(asked.received) bytes on a credit of \(asked.allowed)")
                }
                state.asked[request] = asked
                asked.events.yield(message)
            }
        case .end(let request, _), .fail(let request, _):
            state.withLock { state in
                guard let asked = state.asked.removeValue(forKey: request) else { return }
                asked.events.yield(message)
                asked.events.finish()
            }
        case .credit(let request, let bytes):
            let waiter = state.withLock { state -> CheckedContinuation<Void, any Error>? in
                guard var served = state.served[request] else { return nil }
                served.credit += UInt64(bytes)
                defer { served.waiter = nil; state.served[request] = served }
                return served.waiter
            }
            waiter?.resume()
        case .cancel(let request):
            let (waiter, task) = state.withLock { state -> (CheckedContinuation<Void, any Error>?, Task<Void, Never>?) in
                guard var served = state.served[request] else { return (nil, nil) }
                served.cancelled = true
                defer { served.waiter = nil; state.served[request] = served }
                return (served.waiter, served.task)
            }
            waiter?.resume(throwing: CancellationError())
            task?.cancel()
        case .ping(let nonce):
            wire.post(.pong(nonce))
        case .pong:
            break
        }
    }

    /// The link ended: every transfer and wait ends with it, and the owner changes finish with the reason.
    private func ended(_ error: any Error) {
        let (asked, served, settleWaiters, changes) = state.withLock { state in
            state.ended = error
            defer {
                state.asked = [:]
                state.settleWaiters = []
                state.changes = nil
            }
            return (Array(state.asked.values), Array(state.served.values), state.settleWaiters, state.changes)
        }
        for transfer in asked { transfer.events.finish(throwing: error) }
        for transfer in served {
            transfer.waiter?.resume(throwing: error)
            transfer.task?.cancel()
        }
        for waiter in settleWaiters { waiter.resume() }
        Task {
            // When the far end closed the stream, its command's ending says why (ssh's own message); when this end
            // closed it (a broken frame, silence), that reason is the one.
            var described = error
            if (error as? LinkClosed) == LinkWire.farEndClosed, let ending = await wire.transport.ending() {
                described = LinkClosed(ending.description)
            }
            changes?.finish(throwing: described)
        }
    }

    // MARK: Serving the peer's fetches

    private func serve(
        _ request: UInt32, selection: SelectionName, generation: UInt64, type: SelectionTarget, credit: UInt32
    ) throws(LinkProtocolError) {
        enum Decision { case refuse(String), serve(RelayFlavour, RelayOffer) }
        let decision = try state.withLock { state throws(LinkProtocolError) -> Decision in
            guard state.served[request] == nil else { throw .malformed("transfer \(request) asked for twice") }
            guard state.served.count < LinkLimits.maximumOpenFetches else {
                return .refuse("more than \(LinkLimits.maximumOpenFetches) transfers at once")
            }
            guard let claim = state.claims[selection], claim.generation == generation else {
                return .refuse("\(selection) on \(name) changed; this offer is stale")
            }
            guard let flavour = claim.offer.flavours.first(where: { $0.type == type }) else {
                return .refuse("\(type) is not offered")
            }
            state.served[request] = Served(credit: UInt64(credit))
            return .serve(flavour, claim.offer)
        }
        switch decision {
        case .refuse(let reason):
            wire.post(.fail(request: request, reason: reason))
        case .serve(let flavour, let offer):
            let task = Task { await self.produce(flavour, of: offer, for: request) }
            state.withLock { $0.served[request]?.task = task }
        }
    }

    /// Makes `flavour` and sends it in frames as credit allows; ends the transfer with `end` or `fail`.
    private func produce(_ flavour: RelayFlavour, of offer: RelayOffer, for request: UInt32) async {
        let sent = Mutex<UInt64>(0)
        do {
            try await flavour.produce { chunk in
                var offset = 0
                repeat {
                    let count = try await self.reserve(chunk.bytes.count - offset, format: chunk.format, for: request)
                    try await self.wire.send(frame: LinkMessage.dataFrame(request: request, chunk, range: offset..<(offset + count)))
                    offset += count
                    sent.withLock { $0 += UInt64(count) }
                } while offset < chunk.bytes.count
            }
            let total = sent.withLock { $0 }
            try await wire.send(.end(request: request, byteCount: total))
            offer.outcome(.served(flavour.type, byteCount: Int(total)))
        } catch {
            let cancelled = state.withLock { $0.served[request]?.cancelled ?? true }
            let reason = cancelled ? "the other machine stopped asking" : reportedMessage(of: error)
            if !cancelled { wire.post(.fail(request: request, reason: reason)) }
            offer.outcome(.failed(flavour.type, reason: reason))
        }
        state.withLock { _ = $0.served.removeValue(forKey: request) }
    }

    /// Takes credit for up to `remaining` bytes of a piece (at most a frame's worth, in whole items of `format`),
    /// waiting for the peer to give more when there is too little — at most ``timeout``. A piece of nothing takes none.
    private func reserve(_ remaining: Int, format: Int, for request: UInt32) async throws -> Int {
        /// What the state says: a count taken; enough credit, when only parking (taken on the next turn); or wait, with
        /// the continuation parked when one is given.
        enum Reservation { case taken(Int), ready, wait, failed(any Error) }
        func attempt(parking waiter: CheckedContinuation<Void, any Error>?) -> Reservation {
            state.withLock { state in
                if let ended = state.ended { return .failed(ended) }
                guard var served = state.served[request], !served.cancelled else { return .failed(CancellationError()) }
                let count = LinkPolicy.sendable(remaining: remaining, credit: served.credit, format: format)
                if count > 0 || remaining == 0 {
                    guard waiter == nil else { return .ready }
                    served.credit -= UInt64(count)
                    state.served[request] = served
                    return .taken(count)
                }
                if let waiter { served.waiter = waiter }
                state.served[request] = served
                return .wait
            }
        }
        while true {
            switch attempt(parking: nil) {
            case .taken(let count): return count
            case .failed(let error): throw error
            case .wait, .ready: break
            }
            let timeout = timeout
            let timer = Task {
                try await Task.sleep(for: timeout)
                let waiter = state.withLock { state -> CheckedContinuation<Void, any Error>? in
                    defer { state.served[request]?.waiter = nil }
                    return state.served[request]?.waiter
                }
                waiter?.resume(throwing: RelayRefusal("the other machine took no more of it for \(timeout)"))
            }
            defer { timer.cancel() }
            // Parked only if there is still too little credit; a `credit` (or `cancel`, or the end) resumes it.
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                switch attempt(parking: continuation) {
                case .wait: break
                case .failed(let error): continuation.resume(throwing: error)
                case .ready, .taken: continuation.resume()
                }
            }
        }
    }

    // MARK: The bridge's side

    /// The link as a side of a bridge.
    package var endpoint: BridgeEndpoint {
        BridgeEndpoint(
            backend: self, naming: peerHello.naming,
            serverIdentity: { [name] in "link:\(name)" },
            shares: { _ in true },
            ownerChanges: { [changes] _ in changes },
            isOwned: { [self] selection in state.withLock { $0.announced[selection] != nil } },
            ownsSelection: { [self] selection in state.withLock { $0.claims[selection] != nil } },
            liveOffer: { [self] selection, _ in try offer(of: selection) },
            keptOffer: { [self] selection, _ in (try offer(of: selection), KeptFacts(flavours: 0)) },
            claim: { [self] selection, offer in try await claim(selection, offer) },
            release: { [self] selection in await release(selection) },
            settle: { [self] in await settle() },
            shutdown: { [self] in close() })
    }

    /// Waits until the initiator has announced what it had at the start (the responder's first step, so that the
    /// initiator's content wins over what this machine had), at most `limit`.
    package func waitUntilSettled(_ limit: Duration) async {
        let timer = Task { [self] in
            try await Task.sleep(for: limit)
            let waiters = state.withLock { state in
                defer { state.settleWaiters = [] }
                return state.settleWaiters
            }
            for waiter in waiters { waiter.resume() }
        }
        defer { timer.cancel() }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let now = state.withLock { state -> Bool in
                if state.settled || state.ended != nil { return true }
                state.settleWaiters.append(continuation)
                return false
            }
            if now { continuation.resume() }
        }
    }

    /// The initiator tells the responder it has announced what it had.
    private func settle() async {
        guard role == .initiator else { return }
        try? await wire.send(.settled)
    }

    /// The peer's current content of `selection`.
    private func offer(of selection: SelectionName) throws -> BridgeEndpoint.SourceOffer {
        guard let announcement = state.withLock({ $0.announced[selection] }) else {
            throw RelayRefusal("nobody owns \(selection) on \(name)")
        }
        let types = announcement.types + (announcement.isSensitive ? [SelectionTarget.passwordManagerHint] : [])
        return BridgeEndpoint.SourceOffer(types: types) { [self] type, sink in
            try await fetch(type, of: announcement, into: sink)
        }
    }

    /// Announces `offer` on the peer: its types less what cannot cross machines (``LinkPolicy/crossing(_:)``); the
    /// bridge's marks stay on this machine (the peer's bridge marks its own claims).
    private func claim(_ selection: SelectionName, _ offer: RelayOffer) async throws {
        var relayed = offer
        let crossing = Set(LinkPolicy.crossing(offer.flavours.map(\.type)))
        relayed.flavours = offer.flavours.filter { crossing.contains($0.type) }
        let announcement = try state.withLock { state throws -> LinkMessage.Announcement in
            if let ended = state.ended { throw ended }
            state.nextGeneration += 1
            state.claims[selection] = (state.nextGeneration, relayed)
            state.announced[selection] = nil
            return LinkMessage.Announcement(
                selection: selection, generation: state.nextGeneration, seen: state.newestReceived,
                isSensitive: offer.isSensitive, types: relayed.flavours.map(\.type))
        }
        try await wire.send(.announce(announcement))
    }

    private func release(_ selection: SelectionName) async {
        guard let generation = state.withLock({ $0.claims.removeValue(forKey: selection)?.generation }) else { return }
        try? await wire.send(.withdraw(selection: selection, generation: generation))
    }

    // MARK: Fetching from the peer

    /// Asks the peer for `type` of `announcement` and hands `sink` each piece as it comes, giving credit back as the
    /// sink takes them; each wait for the peer bounded by ``timeout``.
    private func fetch(_ type: SelectionTarget, of announcement: LinkMessage.Announcement, into sink: FlavourSink) async throws {
        let (events, feed) = AsyncThrowingStream<LinkMessage, any Error>.makeStream()
        let request = try state.withLock { state throws -> UInt32 in
            if let ended = state.ended { throw ended }
            state.nextRequest &+= 1
            if state.nextRequest == 0 { state.nextRequest = 1 }
            state.asked[state.nextRequest] = Asked(events: feed, allowed: UInt64(LinkLimits.fetchWindow))
            return state.nextRequest
        }
        var finished = false
        defer {
            if !finished {
                let open = state.withLock { $0.asked.removeValue(forKey: request) != nil }
                if open { wire.post(.cancel(request: request)) }
            }
        }
        try await wire.send(.fetch(
            request: request, selection: announcement.selection, generation: announcement.generation, type: type,
            credit: LinkLimits.fetchWindow))
        let watchdog = watch(request)
        defer { watchdog.cancel() }
        var passed: UInt64 = 0, received: UInt64 = 0, pieces = 0
        var iterator = events.makeAsyncIterator()
        while true {
            state.withLock { $0.asked[request]?.waitingSince = .now }
            guard let event = try await iterator.next() else { throw LinkClosed("the link ended during the transfer") }
            state.withLock { $0.asked[request]?.waitingSince = nil }
            switch event {
            case .data(_, let chunk):
                pieces += 1
                try await sink(chunk)
                received += UInt64(chunk.bytes.count)
                passed += UInt64(chunk.bytes.count)
                if let credit = LinkPolicy.creditToGive(passed: passed) {
                    passed -= UInt64(credit)
                    state.withLock { $0.asked[request]?.allowed += UInt64(credit) }
                    wire.post(.credit(request: request, bytes: credit))
                }
            case .end(_, let byteCount):
                finished = true
                guard byteCount == received else {
                    throw RelayRefusal("\(type) from \(name) ended at \(received) bytes of \(byteCount)")
                }
                if pieces == 0 { try await sink(FlavourChunk(Data(), type: type)) }
                return
            case .fail(_, let reason):
                finished = true
                throw RelayRefusal(reason)
            default:
                continue
            }
        }
    }

    /// Ends transfer `request` with a timeout when the peer sent nothing for ``timeout`` and 2 s more while this end
    /// waited: the far end bounds its own wait for the owner by the same timeout, and its `fail` — which says what
    /// the owner did — is given the time to cross first.
    private func watch(_ request: UInt32) -> Task<Void, Never> {
        let timeout = timeout + .seconds(2)
        return Task { [self] in
            while !Task.isCancelled {
                try? await Task.sleep(for: min(timeout / 4, .seconds(1)))
                let stalled = state.withLock { state -> AsyncThrowingStream<LinkMessage, any Error>.Continuation? in
                    guard let asked = state.asked[request], let since = asked.waitingSince,
                        ContinuousClock.now - since >= timeout
                    else { return nil }
                    return asked.events
                }
                if let stalled {
                    stalled.finish(throwing: RelayRefusal("\(name) sent nothing for \(timeout)"))
                    return
                }
            }
        }
    }
}
