import FoundationEssentials
import Synchronization

/// Carries out a bridge's decisions (``BridgeMachine``) over any sides — X displays, Wayland compositors, in-memory
/// backends in the unit tests: one task per side keeps it connected (reconnecting with backoff) and turns its owner
/// changes into events; one task takes the events one at a time, hands each to the machine and carries out what it
/// decides — offer reads (in tasks of their own, their outcome an event again), claims and releases (at once: the next
/// event waits for them). Pastes are served by the claiming backend's tasks, each relaying from the source side only
/// while the machine says the content it was offered is still the source's.
///
/// Types cross as they are between sides that name them alike, and through ``FlavourTranslation`` between X11
/// targets and MIME types.
package final class BridgeDriver: Sendable {
    /// A side as given: its name in reports, and how to connect it (again, after it went away).
    package struct Side: Sendable {
        package var name: String
        package var connect: @Sendable () async throws -> BridgeEndpoint

        package init(name: String, connect: @escaping @Sendable () async throws -> BridgeEndpoint) {
            self.name = name
            self.connect = connect
        }
    }

    package let sides: [Side]
    package let selections: [SelectionName]
    /// Each wait on a side's owner (an offer read, each piece of a relayed paste).
    package let timeout: Duration?
    package let maximumRetryDelay: Duration
    package let translation: (any FlavourTranslation)?
    package let coupling: (any BridgeCoupling)?
    /// What the bridge's marks carry (which bridge made the claim).
    package let markBytes: Data
    private let report: @Sendable (BridgeReport) -> Void
    private let sleep: @Sendable (Duration) async throws -> Void
    /// The machine; behind a lock because relays ask it from their own tasks whether their offer is current.
    private let machine: Mutex<BridgeMachine>
    /// The identity of each connected side's server: one server named twice would have the bridge read its own claims.
    private let servers = Mutex<[Int: String]>([:])
    /// Sides given up on: what failed would fail again (``UnusableSide``).
    private let unusable = Mutex<Set<Int>>([])
    private let inputs: AsyncStream<Input>
    private let feed: AsyncStream<Input>.Continuation

    private enum Input: Sendable {
        case linked(Int, BridgeEndpoint, owned: Set<SelectionName>)
        case unlinked(Int, BridgeEndpoint, reason: String)
        case changed(Int, BridgeEndpoint.Change)
        case offerRead(SelectionName, side: Int, generation: UInt64, Result<BridgeEndpoint.SourceOffer, BridgeMachine.TargetsFailure>)
        case machine(BridgeMachine.Event)
    }

    /// - Parameters:
    ///   - sleep: waits between reconnection attempts (the unit tests' clock).
    ///   - report: told each event, from any task.
    package init(
        sides: [Side], selections: [SelectionName], includeSensitive: Bool, timeout: Duration?,
        maximumRetryDelay: Duration = .seconds(5), translation: (any FlavourTranslation)? = nil,
        coupling: (any BridgeCoupling)? = nil, markBytes: Data = Data("clipbridge bridge".utf8),
        sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) },
        report: @escaping @Sendable (BridgeReport) -> Void
    ) {
        self.sides = sides
        self.selections = selections
        self.timeout = timeout
        self.maximumRetryDelay = maximumRetryDelay
        self.translation = translation
        self.coupling = coupling
        self.markBytes = markBytes
        self.sleep = sleep
        self.report = report
        machine = Mutex(BridgeMachine(displays: sides.map(\.name), selections: selections, includeSensitive: includeSensitive))
        (inputs, feed) = AsyncStream<Input>.makeStream()
    }

    /// Runs the bridge until the task is cancelled; then releases every selection it holds and closes its
    /// connections. Never ends because a side went away.
    package func run() async {
        // The first attempt is made in the order given, and each side's current owners adopted in that order, so the
        // first side named with an owner is the source.
        var first: [Link?] = []
        for index in sides.indices { first.append(await connect(index)) }
        await withTaskCancellationHandler {
            await withTaskGroup(of: Void.self) { group in
                group.addTask { await self.drive() }
                if let coupling {
                    group.addTask {
                        for await (selection, meaning, side) in coupling.changes {
                            self.feed.yield(.machine(.ownerChanged(selection, meaning, display: side)))
                        }
                    }
                }
                for index in sides.indices {
                    let link = first[index]
                    group.addTask { await self.maintain(index, from: link) }
                }
                await group.next()
                group.cancelAll()
            }
        } onCancel: {
            feed.finish()
        }
    }

    // MARK: Sides coming and going

    /// A connected side and its owner changes, subscribed before anything was adopted.
    private struct Link: Sendable {
        var endpoint: BridgeEndpoint
        var changes: AsyncThrowingStream<BridgeEndpoint.Change, any Error>
    }

    /// Connects side `index` and subscribes to its owner changes; the link goes to the bridge's task. Nil when
    /// unreachable; the failure is reported when `reportingFailure` (a reconnection attempt reports only its success:
    /// the outage was reported when it began).
    private func connect(_ index: Int, reportingFailure: Bool = true) async -> Link? {
        let name = sides[index].name
        let endpoint: BridgeEndpoint
        let changes: AsyncThrowingStream<BridgeEndpoint.Change, any Error>
        var owned: Set<SelectionName> = []
        do {
            endpoint = try await sides[index].connect()
            do {
                changes = try await endpoint.ownerChanges(selections)
                for selection in selections where endpoint.shares(selection) {
                    if await endpoint.isOwned(selection) { owned.insert(selection) }
                }
            } catch {
                await endpoint.shutdown()
                throw error
            }
        } catch let error as any UnusableSide {
            report(.gaveUp(display: name, reason: reportedMessage(of: error)))
            unusable.withLock { _ = $0.insert(index) }
            return nil
        } catch {
            if reportingFailure { report(.disconnected(display: name, reason: reportedMessage(of: error))) }
            return nil
        }
        let identity = await endpoint.serverIdentity()
        let twin = servers.withLock { servers -> Int? in
            if let other = servers.first(where: { $0.key != index && $0.value == identity })?.key { return other }
            servers[index] = identity
            return nil
        }
        if let twin {
            await endpoint.shutdown()
            if reportingFailure {
                report(.disconnected(display: name, reason: "it is the server of \(sides[twin].name) again"))
            }
            return nil
        }
        feed.yield(.linked(index, endpoint, owned: owned))
        return Link(endpoint: endpoint, changes: changes)
    }

    /// Keeps side `index` connected: follows its owner changes while the connection lives, and reconnects with
    /// backoff (``BridgePolicy/retryDelay(failures:maximum:)``) when it breaks or could not be reached at first, until
    /// the bridge is closed — a cancellation is the bridge closing, not the side going away, and is not told.
    private func maintain(_ index: Int, from first: Link?) async {
        var link = first
        var failures = first == nil ? 1 : 0
        while !Task.isCancelled, !unusable.withLock({ $0.contains(index) }) {
            if let current = link {
                var reason = "the connection was closed"
                do {
                    for try await change in current.changes { feed.yield(.changed(index, change)) }
                } catch {
                    reason = reportedMessage(of: error)
                }
                if Task.isCancelled { return }
                servers.withLock { _ = $0.removeValue(forKey: index) }
                feed.yield(.unlinked(index, current.endpoint, reason: reason))
                link = nil
                failures = 1
            }
            do {
                try await sleep(BridgePolicy.retryDelay(failures: failures - 1, maximum: maximumRetryDelay))
            } catch {
                return
            }
            link = await connect(index, reportingFailure: false)
            if link == nil { failures += 1 }
        }
    }

    // MARK: The bridge's task

    /// The bridge task's own state: the connected sides, and the offer each current source was read as.
    private struct State {
        var endpoints: [Int: BridgeEndpoint] = [:]
        /// Sides connected and not yet told they have been offered everything (``BridgeEndpoint/settle``).
        var unsettled: Set<Int> = []
        var offers: [SelectionName: [UInt64: BridgeEndpoint.SourceOffer]] = [:]
    }

    /// Takes the events one at a time until the bridge is closed; then releases everything and closes every side.
    private func drive() async {
        var state = State()
        for await input in inputs {
            if Task.isCancelled { break }
            await take(input, &state)
        }
        for (index, endpoint) in state.endpoints {
            for selection in selections where endpoint.shares(selection) { await endpoint.release(selection) }
            coupling?.disconnected(side: index)
            await endpoint.shutdown()
        }
    }

    private func take(_ input: Input, _ state: inout State) async {
        switch input {
        case .linked(let index, let endpoint, let owned):
            state.endpoints[index] = endpoint
            state.unsettled.insert(index)
            await coupling?.connected(endpoint, side: index)
            await perform(.connected(display: index, owned: owned), &state)
        case .unlinked(let index, let endpoint, let reason):
            state.endpoints[index] = nil
            state.unsettled.remove(index)
            coupling?.disconnected(side: index)
            await perform(.disconnected(display: index, reason: reason), &state)
            await endpoint.shutdown()
        case .changed(let index, let change):
            let meaning = await coupling?.meaning(of: change, on: index) ?? change.meaning
            await perform(.ownerChanged(change.selection, meaning, display: index), &state)
        case .offerRead(let selection, let side, let generation, let result):
            if case .success(let offer) = result { state.offers[selection, default: [:]][generation] = offer }
            await perform(.targetsRead(selection, display: side, generation: generation, result.map(\.types)), &state)
        case .machine(let event):
            await perform(event, &state)
        }
        // A side is settled once nothing known when it connected is still being read: it has been offered all of it.
        if !state.unsettled.isEmpty, machine.withLock({ $0.isSettled }) {
            for index in state.unsettled.sorted() { await state.endpoints[index]?.settle() }
            state.unsettled = []
        }
        // Only the current sources' offers are kept (a claim serving an older one holds it while it serves).
        for selection in state.offers.keys {
            state.offers[selection] = state.offers[selection]?.filter { isCurrent(selection, generation: $0.key) }
        }
    }

    /// Carries out what the machine decides on `event`, in order. A claim's outcome is fed back at once, and what the
    /// machine decides on it goes ahead of the actions still queued: a source's claims are settled before anything
    /// else of the same event is done.
    private func perform(_ event: BridgeMachine.Event, _ state: inout State) async {
        var queue = machine.withLock { $0.handle(event) }[...]
        while let action = queue.popFirst() {
            switch action {
            case .readTargets(let selection, let side, let generation):
                readOffer(selection, on: side, generation: generation, state)
            case .claim(let selection, let sides, let source, let announces):
                var claimed: [Int] = []
                for side in sides where await claim(selection, on: side, from: source, state) {
                    claimed.append(side)
                }
                let decided = machine.withLock {
                    $0.handle(.claimsEnded(selection, generation: source.generation, claimed: claimed, announces: announces))
                }
                queue = decided[...] + queue
            case .release(let selection, let sides):
                for side in sides {
                    guard let endpoint = state.endpoints[side], endpoint.shares(selection) else { continue }
                    await endpoint.release(selection)
                }
            case .report(let event):
                report(event)
            }
        }
    }

    /// Whether `generation` is still the source of `selection` (a paste relays only the content it was offered).
    private func isCurrent(_ selection: SelectionName, generation: UInt64) -> Bool {
        machine.withLock { $0.isCurrent(selection, generation: generation) }
    }

    /// Reads what side `side`'s owner of `selection` offers — its types, or the whole content where the coupling
    /// says its owner will not stay — in a task of its own; the outcome comes back as an event.
    private func readOffer(_ selection: SelectionName, on side: Int, generation: UInt64, _ state: State) {
        guard let endpoint = state.endpoints[side] else { return }
        let readsAhead = coupling?.readsAhead(on: side) ?? false
        let timeout = timeout, feed = feed
        Task {
            let result: Result<BridgeEndpoint.SourceOffer, BridgeMachine.TargetsFailure>
            do {
                if readsAhead {
                    let (offer, facts) = try await endpoint.keptOffer(selection, timeout)
                    // Kept without its flavours: the machine sees the hint and bridges nothing.
                    result = .success(facts.isSensitive
                        ? BridgeEndpoint.SourceOffer(types: facts.omitted + [.passwordManagerHint]) { type, _ in
                            throw RelayRefusal("\(type) was not kept: the content is marked sensitive")
                        }
                        : offer)
                } else {
                    result = .success(try await endpoint.liveOffer(selection, timeout))
                }
            } catch {
                result = .failure(.init(reason: reportedMessage(of: error), ownClaimIsOwner: await endpoint.ownsSelection(selection)))
            }
            feed.yield(.offerRead(selection, side: side, generation: generation, result))
        }
    }

    /// Claims `selection` on `side` with the source's offer, each flavour relayed from the source when asked. False
    /// when the side cannot take it (reported when the claim failed).
    private func claim(
        _ selection: SelectionName, on side: Int, from source: BridgeMachine.Source, _ state: State
    ) async -> Bool {
        guard let endpoint = state.endpoints[side], endpoint.shares(selection), let targets = source.targets,
            let sourceEndpoint = state.endpoints[source.display], let offer = state.offers[selection]?[source.generation]
        else { return false }
        let translated: [TranslatedFlavour]
        if sourceEndpoint.naming == endpoint.naming {
            translated = targets.map(TranslatedFlavour.same)
        } else {
            let offered = Set(targets)
            translated = (translation?.flavours(for: targets, from: sourceEndpoint.naming, to: endpoint.naming) ?? [])
                .filter { offered.contains($0.source) }
        }
        guard !translated.isEmpty else { return false }
        let name = sides[side].name, report = report
        let relay = RelayOffer(
            flavours: translated.map { relayed($0, of: selection, from: offer, sourceName: sides[source.display].name, generation: source.generation) },
            marks: BridgePolicy.markers.map { FlavourChunk(markBytes, type: $0) },
            isSensitive: source.isSensitive,
            outcome: { outcome in
                switch outcome {
                case .served(let target, let byteCount):
                    report(.served(selection, display: name, target: target, byteCount: byteCount))
                case .failed(let target, let reason):
                    report(.failed(selection, display: name, target: target, reason: reason))
                }
            })
        do {
            try await endpoint.claim(selection, relay)
            return true
        } catch {
            report(.failed(selection, display: name, target: "TARGETS", reason: "could not claim: \(reportedMessage(of: error))"))
            return false
        }
    }

    /// A flavour made, when asked, from the source's offer of `generation`: refused once that content is not the
    /// source's any more — before the paste, or during it (what came may be the old owner's or a mix; refused rather
    /// than presented as the content offered).
    private func relayed(
        _ flavour: TranslatedFlavour, of selection: SelectionName, from offer: BridgeEndpoint.SourceOffer,
        sourceName: String, generation: UInt64
    ) -> RelayFlavour {
        RelayFlavour(type: flavour.type) { [weak self] sink in
            guard let self, self.isCurrent(selection, generation: generation) else {
                throw RelayRefusal("\(selection) on \(sourceName) changed owner; this offer is stale")
            }
            @Sendable func checked(_ chunk: FlavourChunk) throws -> FlavourChunk {
                guard !BridgePolicy.displayBoundTypes.contains(chunk.type) else {
                    throw RelayRefusal(
                        "\(selection):\(flavour.source) on \(sourceName) answered \(chunk.type) values, which name things of "
                            + "that display only")
                }
                return chunk
            }
            switch flavour.conversion {
            case .stream(let type):
                try await offer.read(flavour.source) { chunk in
                    var chunk = try checked(chunk)
                    if let type { chunk.type = type }
                    try await sink(chunk)
                }
            case .whole(let convert):
                let whole = Mutex((bytes: Data(), type: flavour.source))
                try await offer.read(flavour.source) { chunk in
                    let chunk = try checked(chunk)
                    whole.withLock { whole in
                        whole.bytes.append(chunk.bytes)
                        whole.type = chunk.type
                    }
                }
                let (bytes, type) = whole.withLock { ($0.bytes, $0.type) }
                try await sink(try convert(bytes, type))
            }
            guard self.isCurrent(selection, generation: generation) else {
                throw RelayRefusal("\(selection) on \(sourceName) changed owner during the paste")
            }
        }
    }

}
