import FoundationEssentials
import Synchronization

/// Carries out a running ``SelectionBridge``'s decisions (``BridgeMachine``): one task per display keeps it
/// connected and turns its owner changes into events; one task takes the events one at a time, hands each to
/// the machine and carries out what it decides — TARGETS reads (in tasks of their own, their outcome an event
/// again), claims and releases (at once: the next event waits for them).
final class BridgeCoordinator: Sendable {
    typealias Link = BridgeLink

    private enum Input: Sendable {
        /// Display `display` is connected (`owned`: its selections with an owner then).
        case linked(Int, Link, owned: Set<SelectionName>)
        /// Display `display`'s connection ended.
        case unlinked(Int, X11Connection, reason: String)
        /// The task reporting on claim `id` on display `display` ended.
        case watcherEnded(display: Int, id: UInt64)
        case machine(BridgeMachine.Event)
    }

    let bridge: SelectionBridge
    let report: @Sendable (SelectionBridge.Event) -> Void
    /// The machine; behind a lock because relays ask it from their own tasks whether their offer is current.
    private let machine: Mutex<BridgeMachine>
    /// The identity of each connected display's server: the same server named twice (":0" and "unix:0") would
    /// have the bridge read its own claims.
    private let servers = Mutex<[Int: String]>([:])
    private let inputs: AsyncStream<Input>
    private let feed: AsyncStream<Input>.Continuation

    init(bridge: SelectionBridge, report: @escaping @Sendable (SelectionBridge.Event) -> Void) {
        self.bridge = bridge
        self.report = report
        machine = Mutex(BridgeMachine(
            displays: bridge.displays, selections: bridge.selections, includeSensitive: bridge.includeSensitive))
        (inputs, feed) = AsyncStream<Input>.makeStream()
    }

    private func name(_ display: Int) -> String { bridge.displays[display] }

    // MARK: Displays coming and going

    /// Connects display `index` and subscribes to its owner changes; the link goes to the bridge's task. Nil when
    /// unreachable; the failure is reported when `reportingFailure` (a reconnection attempt reports only its
    /// success: the outage was reported when it began).
    func connect(_ index: Int, reportingFailure: Bool = true) async -> Link? {
        let link: Link
        do {
            link = try await BridgeLink.open(name(index), selections: bridge.selections, configuration: bridge.configuration)
        } catch {
            if reportingFailure { report(.disconnected(display: name(index), reason: Self.describe(error))) }
            return nil
        }
        let identity = await link.connection.serverIdentity
        let twin = servers.withLock { servers -> Int? in
            if let other = servers.first(where: { $0.key != index && $0.value == identity })?.key { return other }
            servers[index] = identity
            return nil
        }
        if let twin {
            await link.connection.shutdown()
            if reportingFailure {
                report(.disconnected(display: name(index), reason: "it is the X server of \(name(twin)) again"))
            }
            return nil
        }
        feed.yield(.linked(index, link, owned: link.owned))
        return link
    }

    /// Keeps display `index` connected: follows its owner changes while the connection lives, and reconnects with
    /// backoff when it breaks (or could not be reached at first), until the bridge is closed.
    func maintain(_ index: Int, from first: Link?) async {
        await BridgeLink.maintain(
            from: first, maximumDelay: bridge.maximumRetryDelay,
            reconnect: { await connect(index, reportingFailure: false) },
            changed: { feed.yield(.machine(.ownerChanged($0.selection, $0.meaning, display: index))) },
            lost: { connection, reason in
                servers.withLock { _ = $0.removeValue(forKey: index) }
                feed.yield(.unlinked(index, connection, reason: reason))
            })
    }

    // MARK: The bridge's task

    /// Takes the events one at a time until cancelled; then releases everything and closes every connection.
    func drive() async {
        var driver = Driver(coordinator: self)
        for await input in inputs {
            if Task.isCancelled { break }
            await driver.take(input)
        }
        await driver.closeAll()
    }

    /// Ends ``drive()``.
    func close() {
        feed.finish()
    }

    /// Whether `generation` is still the source of `selection` (a paste relays only the content it was offered).
    func isCurrent(_ selection: SelectionName, generation: UInt64) -> Bool {
        machine.withLock { $0.isCurrent(selection, generation: generation) }
    }

    /// The bridge task's own state: the connections, and the tasks reporting what happens to each claim.
    private struct Driver: BridgeEffects {
        let coordinator: BridgeCoordinator
        var connections: [Int: X11Connection] = [:]
        /// Tasks reporting what happens to each claim of ours, by display. Each ends by itself once its lease
        /// does (ownership lost and the pastes in flight over, so their outcome is still reported).
        var leaseWatchers: [Int: [UInt64: Task<Void, Never>]] = [:]
        var nextWatcher: UInt64 = 0

        init(coordinator: BridgeCoordinator) {
            self.coordinator = coordinator
        }

        mutating func take(_ input: Input) async {
            switch input {
            case .linked(let index, let link, let owned):
                connections[index] = link.connection
                await perform(.connected(display: index, owned: owned))
            case .unlinked(let index, let connection, let reason):
                for watcher in (leaseWatchers.removeValue(forKey: index) ?? [:]).values { watcher.cancel() }
                connections[index] = nil
                await perform(.disconnected(display: index, reason: reason))
                await connection.shutdown()
            case .watcherEnded(let display, let id):
                leaseWatchers[display]?[id] = nil
            case .machine(let event):
                await perform(event)
            }
        }

        func decide(_ event: BridgeMachine.Event) -> [BridgeMachine.Action] {
            coordinator.machine.withLock { $0.handle(event) }
        }

        func tell(_ event: SelectionBridge.Event) {
            coordinator.report(event)
        }

        func release(_ selection: SelectionName, on display: Int) async {
            await connections[display]?.release(selection)
        }

        func readTargets(_ selection: SelectionName, on display: Int, generation: UInt64) {
            guard let connection = connections[display] else { return }
            let timeout = coordinator.bridge.configuration.readTimeout, feed = coordinator.feed
            Task {
                let result = await connection.bridgeTargets(of: selection, timeout: timeout)
                feed.yield(.machine(.targetsRead(selection, display: display, generation: generation, result)))
            }
        }

        /// Claims `selection` on `display` with the source's offer. False when that failed (reported).
        mutating func claim(_ selection: SelectionName, on display: Int, from source: BridgeMachine.Source) async -> Bool {
            guard let connection = connections[display], let sourceConnection = connections[source.display],
                let targets = source.targets
            else { return false }
            let markers = BridgePolicy.markers.map {
                SelectionOffer.Representation(target: $0, source: .bytes(Data(sourceConnection.displayName.utf8)))
            }
            let offer = SelectionOffer(
                targets.map { coordinator.relayedRepresentation($0, of: selection, from: sourceConnection, generation: source.generation) }
                    + markers,
                isSensitive: source.isSensitive)
            let lease: SelectionLease
            let report = coordinator.report, displayName = coordinator.name(display)
            do {
                lease = try await connection.claim(selection, offering: offer)
            } catch {
                report(.failed(selection, display: displayName, target: "TARGETS",
                               reason: "could not claim: \(BridgeCoordinator.describe(error))"))
                return false
            }
            nextWatcher += 1
            let id = nextWatcher, feed = coordinator.feed
            leaseWatchers[display, default: [:]][id] = Task {
                defer { feed.yield(.watcherEnded(display: display, id: id)) }
                await lease.reportPastes(of: selection, on: displayName, to: report)
            }
            return true
        }

        /// Releases everything and closes every connection.
        mutating func closeAll() async {
            for watcher in leaseWatchers.values.flatMap(\.values) { watcher.cancel() }
            leaseWatchers.removeAll()
            let open = connections
            connections.removeAll()
            for connection in open.values { await connection.shutdown() }
        }
    }

    // MARK: Relaying

    /// A representation that converts `target` on the source display when a requestor asks, and relays the reply
    /// as it streams.
    fileprivate func relayedRepresentation(
        _ target: SelectionTarget, of selection: SelectionName, from source: X11Connection, generation: UInt64
    ) -> SelectionOffer.Representation {
        let timeout = bridge.configuration.readTimeout
        let sourceName = source.displayName
        return SelectionOffer.Representation(target: target, source: .relay { [weak self] relay in
            guard let self, self.isCurrent(selection, generation: generation) else {
                throw SelectionError(.ownerGone, "\(selection) on \(sourceName) changed owner; this offer is stale")
            }
            @Sendable func pass(_ reply: SelectionData) async throws {
                guard !BridgePolicy.displayBoundTypes.contains(reply.type) else {
                    throw SelectionError(
                        .invalidReply, "\(selection):\(target) on \(sourceName) answered \(reply.type) values, which name "
                            + "things of that display only")
                }
                try await relay.send(reply.bytes, type: reply.type, format: reply.format)
            }
            let summary = try await source.readChunks(selection, target: target, timeout: timeout, into: pass)
            // An empty reply has no chunk: its type still goes over.
            if summary.byteCount == 0 {
                try await pass(SelectionData(target: target, type: summary.type, format: summary.format, bytes: Data()))
            }
            // The owner changed while the reply was read: what came may be the old owner's or a mix; refuse it
            // (mid-INCR: no end marker) rather than present it as the content offered.
            guard self.isCurrent(selection, generation: generation) else {
                throw SelectionError(.ownerGone, "\(selection) on \(sourceName) changed owner during the paste")
            }
        })
    }

    fileprivate static func describe(_ error: any Error) -> String {
        (error as? SelectionError)?.message ?? "\(error)"
    }
}
