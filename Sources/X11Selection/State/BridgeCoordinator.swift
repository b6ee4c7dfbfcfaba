import FoundationEssentials

/// The state of one running ``SelectionBridge``: a connection per display while it is reachable, and per
/// selection the display whose owner is the source. Every change goes through this actor, one at a time; the
/// awaits inside (reading TARGETS, claiming) are guarded by generations, so a change overtaken while it was
/// being handled is dropped rather than applied late.
actor BridgeCoordinator {
    /// A connected display: its connection and the owner changes subscribed before anything was adopted.
    struct Link: Sendable {
        var connection: X11Connection
        var changes: OwnerChanges
    }

    /// The display whose owner of a selection is offered on the others.
    struct Source {
        var display: Int
        var generation: UInt64
        /// The offer made to the other displays; nil when the owner is not bridged (sensitive, unreadable).
        var offer: SelectionOffer?
        /// The source display's owner changed: this offer's content is gone, and its relays refuse.
        var isStale = false
    }

    let bridge: SelectionBridge
    let report: @Sendable (SelectionBridge.Event) -> Void
    private var connections: [Int: X11Connection] = [:]
    private var sources: [SelectionName: Source] = [:]
    private var generation: UInt64 = 0
    /// The generation of the newest owner change being handled, per selection: an older one still reading
    /// TARGETS when a newer came is dropped.
    private var latestChange: [SelectionName: UInt64] = [:]
    /// A display whose owner change was dropped that way, per selection: taken up again if the newer change turns
    /// out to be no new content (another bridge's claim, or ours) — two bridges each dropping the app's copy
    /// for the other's claim would otherwise leave every display without it.
    private var supersededChange: [SelectionName: Int] = [:]
    /// Tasks reporting what happens to each claim of ours, by display. Each ends by itself once its lease does
    /// (ownership lost and the pastes in flight over, so their outcome is still reported).
    private var leaseWatchers: [Int: [UInt64: Task<Void, Never>]] = [:]
    private var nextWatcher: UInt64 = 0
    private var closed = false

    init(bridge: SelectionBridge, report: @escaping @Sendable (SelectionBridge.Event) -> Void) {
        self.bridge = bridge
        self.report = report
    }

    private func name(_ display: Int) -> String { bridge.displays[display] }

    // MARK: Displays coming and going

    /// Connects display `index`, subscribes to its owner changes, then brings it in line: it gets the current
    /// source's offer, or its own owners become the source of selections that have none. Nil when unreachable;
    /// the failure is reported when `reportingFailure` (a reconnection attempt reports only its success: the
    /// outage was reported when it began).
    func connect(_ index: Int, reportingFailure: Bool = true) async -> Link? {
        guard !closed else { return nil }
        let link: Link
        do {
            let connection = try await X11Connection.open(display: name(index), configuration: bridge.configuration)
            do {
                link = Link(connection: connection, changes: try await connection.ownerChanges(of: bridge.selections))
            } catch {
                await connection.shutdown()
                throw error
            }
        } catch {
            if reportingFailure { report(.disconnected(display: name(index), reason: Self.describe(error))) }
            return nil
        }
        // The same server named twice (":0" and "unix:0") would have the bridge read its own claims.
        let identity = await link.connection.serverIdentity
        for (other, connection) in connections where other != index {
            guard await connection.serverIdentity != identity else {
                await link.connection.shutdown()
                if reportingFailure {
                    report(.disconnected(display: name(index), reason: "it is the X server of \(name(other)) again"))
                }
                return nil
            }
        }
        connections[index] = link.connection
        report(.connected(display: name(index)))
        for selection in bridge.selections {
            if let source = sources[selection] {
                if source.display != index, let offer = source.offer {
                    await claim(selection, on: index, offering: offer, from: source)
                }
            } else if (try? await link.connection.owner(of: selection)) != nil {
                await newSource(selection, on: index)
            }
        }
        return link
    }

    /// Keeps display `index` connected: follows its owner changes while the connection lives, and reconnects with
    /// backoff when it breaks (or could not be reached at first), until the bridge is closed.
    nonisolated func maintain(_ index: Int, from first: Link?) async {
        var link = first
        var failures = first == nil ? 1 : 0
        while !Task.isCancelled {
            if let current = link {
                var reason = "the connection was closed"
                do {
                    for try await change in current.changes {
                        await ownerChanged(change, on: index)
                    }
                } catch {
                    reason = Self.describe(error)
                }
                // Cancelled: the bridge is closing, not the display going away.
                if Task.isCancelled { return }
                await disconnected(index, reason: reason)
                await current.connection.shutdown()
                link = nil
                failures = 1
                if await closed { return }
            }
            do {
                try await Task.sleep(for: BridgePolicy.retryDelay(failures: failures - 1, maximum: bridge.maximumRetryDelay))
            } catch {
                return
            }
            link = await connect(index, reportingFailure: false)
            if link == nil { failures += 1 }
        }
    }

    /// Display `index` went away: what it was the source of is withdrawn from the others.
    private func disconnected(_ index: Int, reason: String) async {
        guard !closed, connections.removeValue(forKey: index) != nil else { return }
        for watcher in (leaseWatchers.removeValue(forKey: index) ?? [:]).values { watcher.cancel() }
        report(.disconnected(display: name(index), reason: reason))
        for (selection, source) in sources where source.display == index {
            sources[selection] = nil
            await withdraw(selection, keeping: index)
        }
    }

    /// Releases everything and closes every connection.
    func closeAll() async {
        closed = true
        for watcher in leaseWatchers.values.flatMap(\.values) { watcher.cancel() }
        leaseWatchers.removeAll()
        sources.removeAll()
        let open = connections
        connections.removeAll()
        for connection in open.values { await connection.shutdown() }
    }

    // MARK: Owner changes

    func ownerChanged(_ change: OwnerChange, on index: Int) async {
        switch BridgePolicy.action(for: change) {
        case .ignore:
            return
        case .newSource:
            await newSource(change.selection, on: index)
        case .ownerGone:
            guard let source = sources[change.selection], source.display == index else { return }
            sources[change.selection] = nil
            await withdraw(change.selection, keeping: index)
            report(.withdrawn(change.selection, from: name(index)))
        }
    }

    /// Display `index`'s owner of `selection` becomes the source: its TARGETS are read and offered elsewhere.
    ///
    /// Until they are read the previous source stands, except on its own display: a new owner there means the
    /// old offer's content is gone, so its relays refuse from now on (`Source.isStale`).
    private func newSource(_ selection: SelectionName, on index: Int) async {
        guard let connection = connections[index] else { return }
        generation += 1
        let current = generation
        latestChange[selection] = current
        if sources[selection]?.display == index { sources[selection]?.isStale = true }
        let targets: [SelectionTarget]
        do {
            targets = try await connection.targets(of: selection, timeout: bridge.configuration.readTimeout)
        } catch {
            guard latestChange[selection] == current else {
                supersededChange[selection] = index
                return
            }
            // The change was overtaken by our own claim there (another bridge's claim, then ours, under load):
            // what we offer on that display is current, and refusing would make its relays refuse.
            if let owner = try? await connection.owner(of: selection), owner == (await connection.utilityWindow) {
                report(.notBridged(selection, from: name(index), reason: "our own claim replaced it before its TARGETS were read"))
                await takeUpSupersededChange(selection, after: current, on: index)
                return
            }
            supersededChange[selection] = nil
            await refuse(selection, on: index, generation: current, reason: "its TARGETS could not be read: \(Self.describe(error))")
            return
        }
        guard latestChange[selection] == current else {
            supersededChange[selection] = index
            return
        }
        let plan = BridgePolicy.plan(for: targets, includeSensitive: bridge.includeSensitive)
        if case .skipBridged = plan {} else { supersededChange[selection] = nil }
        switch plan {
        case .skipBridged:
            // Another bridge's claim: left alone, as our own are. Only if it replaced our source's owner is the
            // content we offer gone.
            report(.notBridged(selection, from: name(index), reason: "another bridge owns it (\(BridgePolicy.marker))"))
            if sources[selection]?.display == index {
                sources[selection] = nil
                await withdraw(selection, keeping: index)
            }
            await takeUpSupersededChange(selection, after: current, on: index)
        case .skipSensitive:
            await refuse(selection, on: index, generation: current, reason: "the content is marked sensitive (x-kde-passwordManagerHint)")
        case .offer(let bridged, let isSensitive):
            guard !bridged.isEmpty else {
                await refuse(selection, on: index, generation: current, reason: "it offers nothing that can cross displays")
                return
            }
            let marker = SelectionOffer.Representation(
                target: BridgePolicy.marker, source: .bytes(Data(connection.displayName.utf8)))
            let offer = SelectionOffer(
                bridged.map { relayedRepresentation($0, of: selection, from: connection, generation: current) } + [marker],
                isSensitive: isSensitive)
            let source = Source(display: index, generation: current, offer: offer)
            sources[selection] = source
            var claimed: [String] = []
            for other in connections.keys.sorted() where other != index {
                if await claim(selection, on: other, offering: offer, from: source) { claimed.append(name(other)) }
                guard latestChange[selection] == current else { return }
            }
            report(.bridged(selection, from: name(index), to: claimed, targets: bridged))
        }
    }

    /// A change on another display that was dropped for this one, which turned out to bring no new content: that
    /// display's owner is looked at again (it may be the app's copy both bridges dropped for each other's claim).
    private func takeUpSupersededChange(_ selection: SelectionName, after current: UInt64, on index: Int) async {
        guard latestChange[selection] == current, let pending = supersededChange.removeValue(forKey: selection),
            pending != index
        else { return }
        await newSource(selection, on: pending)
    }

    /// The new owner is not bridged: it is the source of nothing, and the other displays stop offering the
    /// previous content.
    private func refuse(_ selection: SelectionName, on index: Int, generation: UInt64, reason: String) async {
        sources[selection] = Source(display: index, generation: generation, offer: nil)
        await withdraw(selection, keeping: index)
        report(.notBridged(selection, from: name(index), reason: reason))
    }

    /// Releases `selection` on every display but `keeping` where the bridge holds it.
    private func withdraw(_ selection: SelectionName, keeping index: Int) async {
        for (other, connection) in connections where other != index {
            await connection.release(selection)
        }
    }

    /// Claims `selection` on display `index` with the source's offer. False when that failed.
    @discardableResult
    private func claim(_ selection: SelectionName, on index: Int, offering offer: SelectionOffer, from source: Source)
        async -> Bool
    {
        guard let connection = connections[index] else { return false }
        let lease: SelectionLease
        do {
            lease = try await connection.claim(selection, offering: offer)
        } catch {
            report(.failed(selection, display: name(index), target: "TARGETS", reason: "could not claim: \(Self.describe(error))"))
            return false
        }
        nextWatcher += 1
        let id = nextWatcher
        let display = name(index)
        let report = self.report
        leaseWatchers[index, default: [:]][id] = Task {
            // On this actor, so it starts only after it was stored.
            defer { self.watcherEnded(id, on: index) }
            for await event in lease.events {
                switch event {
                case .served(let target, _, let byteCount):
                    report(.served(selection, display: display, target: target, byteCount: byteCount))
                case .failed(let target, _, let reason):
                    report(.failed(selection, display: display, target: target, reason: reason))
                case .lost, .saveTargetsRequested:
                    break
                }
            }
        }
        return true
    }

    private func watcherEnded(_ id: UInt64, on index: Int) {
        leaseWatchers[index]?[id] = nil
    }

    // MARK: Relaying

    /// Whether `generation` is still the source of `selection` (a paste relays only the content it was offered).
    func isCurrent(_ selection: SelectionName, generation: UInt64) -> Bool {
        guard let source = sources[selection] else { return false }
        return source.generation == generation && !source.isStale
    }

    /// A representation that converts `target` on the source display when a requestor asks, and relays the reply
    /// as it streams.
    private func relayedRepresentation(
        _ target: SelectionTarget, of selection: SelectionName, from source: X11Connection, generation: UInt64
    ) -> SelectionOffer.Representation {
        let timeout = bridge.configuration.readTimeout
        let sourceName = source.displayName
        return SelectionOffer.Representation(target: target, source: .relay { [weak self] relay in
            guard let self, await self.isCurrent(selection, generation: generation) else {
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
            guard await self.isCurrent(selection, generation: generation) else {
                throw SelectionError(.ownerGone, "\(selection) on \(sourceName) changed owner during the paste")
            }
        })
    }

    private static func describe(_ error: any Error) -> String {
        (error as? SelectionError)?.message ?? "\(error)"
    }
}
