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
        /// The offer made to the other displays, once its TARGETS were read (nil while they are read).
        var offer: SelectionOffer?
    }

    private struct ClaimKey: Hashable {
        var display: Int
        var selection: SelectionName
    }

    let bridge: SelectionBridge
    let report: @Sendable (SelectionBridge.Event) -> Void
    private var connections: [Int: X11Connection] = [:]
    private var sources: [SelectionName: Source] = [:]
    private var generation: UInt64 = 0
    /// Tasks reporting what happens to each claim of ours.
    private var leaseWatchers: [ClaimKey: Task<Void, Never>] = [:]
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
                if await isClosed { return }
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

    private var isClosed: Bool { closed }

    /// Display `index` went away: what it was the source of is withdrawn from the others.
    private func disconnected(_ index: Int, reason: String) {
        guard !closed, connections.removeValue(forKey: index) != nil else { return }
        for key in leaseWatchers.keys where key.display == index {
            leaseWatchers.removeValue(forKey: key)?.cancel()
        }
        report(.disconnected(display: name(index), reason: reason))
        for (selection, source) in sources where source.display == index {
            sources[selection] = nil
            Task { await self.withdraw(selection, keeping: index) }
        }
    }

    /// Releases everything and closes every connection.
    func closeAll() async {
        closed = true
        for watcher in leaseWatchers.values { watcher.cancel() }
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
    private func newSource(_ selection: SelectionName, on index: Int) async {
        guard let connection = connections[index] else { return }
        generation += 1
        let current = generation
        sources[selection] = Source(display: index, generation: current, offer: nil)
        let targets: [SelectionTarget]
        do {
            targets = try await connection.targets(of: selection, timeout: bridge.configuration.readTimeout)
        } catch {
            guard sources[selection]?.generation == current else { return }
            await refuse(selection, on: index, reason: "its TARGETS could not be read: \(Self.describe(error))")
            return
        }
        guard sources[selection]?.generation == current else { return }
        switch BridgePolicy.plan(for: targets, includeSensitive: bridge.includeSensitive) {
        case .skipSensitive:
            await refuse(selection, on: index, reason: "the content is marked sensitive (x-kde-passwordManagerHint)")
        case .skipBridged:
            await refuse(selection, on: index, reason: "another bridge owns it (\(BridgePolicy.marker))")
        case .offer(let bridged, let isSensitive):
            guard !bridged.isEmpty else {
                await refuse(selection, on: index, reason: "it offers nothing that can cross displays")
                return
            }
            let marker = SelectionOffer.Representation(
                target: BridgePolicy.marker, source: .bytes(Data(connection.displayName.utf8)))
            let offer = SelectionOffer(
                bridged.map { relayedRepresentation($0, of: selection, from: connection, generation: current) } + [marker],
                isSensitive: isSensitive)
            sources[selection]?.offer = offer
            guard let source = sources[selection] else { return }
            var claimed: [String] = []
            for other in connections.keys.sorted() where other != index {
                if await claim(selection, on: other, offering: offer, from: source) { claimed.append(name(other)) }
                guard sources[selection]?.generation == current else { return }
            }
            report(.bridged(selection, from: name(index), to: claimed, targets: bridged))
        }
    }

    /// The new owner is not bridged: the other displays stop offering the previous content.
    private func refuse(_ selection: SelectionName, on index: Int, reason: String) async {
        sources[selection]?.offer = nil
        await withdraw(selection, keeping: index)
        report(.notBridged(selection, from: name(index), reason: reason))
    }

    /// Releases `selection` on every display but `keeping` where the bridge holds it.
    private func withdraw(_ selection: SelectionName, keeping index: Int) async {
        for (other, connection) in connections where other != index {
            leaseWatchers.removeValue(forKey: ClaimKey(display: other, selection: selection))?.cancel()
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
        let key = ClaimKey(display: index, selection: selection)
        leaseWatchers.removeValue(forKey: key)?.cancel()
        let display = name(index)
        let report = self.report
        leaseWatchers[key] = Task {
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

    // MARK: Relaying

    /// Whether `generation` is still the source of `selection` (a paste relays only the content it was offered).
    func isCurrent(_ selection: SelectionName, generation: UInt64) -> Bool {
        sources[selection]?.generation == generation
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
            let summary = try await source.readChunks(selection, target: target, timeout: timeout, into: { chunk in
                guard !BridgePolicy.displayBoundTypes.contains(chunk.type) else {
                    throw SelectionError(
                        .invalidReply, "\(selection):\(target) on \(sourceName) answered \(chunk.type) values, which name "
                            + "things of that display only")
                }
                try await relay.send(chunk.bytes, type: chunk.type, format: chunk.format)
            })
            if summary.byteCount == 0 {
                guard !BridgePolicy.displayBoundTypes.contains(summary.type) else {
                    throw SelectionError(.invalidReply, "\(selection):\(target) answered \(summary.type)")
                }
                try await relay.send(Data(), type: summary.type, format: summary.format)
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
