import ClipBridge
import FoundationEssentials
import Glibc
import Synchronization
import WaylandSelection
import X11Selection

/// Carries out a running ``X11WaylandBridge``'s decisions (`BridgeMachine`, side 0 the X display, side 1 the
/// compositor): one task per side keeps it connected and turns its owner changes into events; one task takes the
/// events one at a time, hands each to the machine and carries out what it decides. Pastes are served by tasks of
/// their own, which ask the machine whether the content they were offered is still the source's.
final class X11WaylandCoordinator: Sendable, BridgeEffects {
    static let xSide = 0
    static let waylandSide = 1

    private enum Input: Sendable {
        case xLinked(X11Connection, owned: Set<SelectionName>, windowManager: WindowManager?)
        case xOwnerChanged(OwnerChange)
        /// An X window got the focus, or none has it now (followed only when the compositor syncs the X display).
        case xFocusChanged(hasFocus: Bool)
        case xUnlinked(X11Connection, reason: String)
        case waylandLinked(WaylandConnection, offers: [SelectionName: [String]])
        case waylandUnlinked(WaylandConnection, reason: String)
        /// A new offer on the Wayland side (`isOwn`: one of our sources coming back).
        case waylandOffered(SelectionName, types: [String], isOwn: Bool)
        case machine(BridgeMachine.Event)
    }

    /// One of our Wayland sources: the content it offers, and where each of its types comes from.
    private struct WaylandClaim: Sendable {
        var source: WaylandSourceID
        var generation: UInt64
        var representations: [String: WaylandTypeMapping.WaylandRepresentation]
        var isSensitive: Bool
        /// The X content read ahead (``CompositorSync``), served instead of the X owner's.
        var snapshot: SelectionSnapshot?
    }

    /// What the serving tasks read: the live connections, our Wayland sources, and the Wayland types of each
    /// generation that came from the compositor.
    private struct Shared: Sendable {
        var x: X11Connection?
        var wayland: WaylandConnection?
        var waylandClaims: [SelectionName: WaylandClaim] = [:]
        var waylandTypes: [SelectionName: (generation: UInt64, types: [String])] = [:]
        /// The compositor's window manager, when it syncs the X display itself (``CompositorSync``).
        var compositor: WindowManager?
        /// Whether each selection's Wayland offer is one of our sources.
        var waylandOwn: [SelectionName: Bool] = [:]
        /// X content read ahead, by selection and generation, until a Wayland claim serves it or a newer one replaces it.
        var snapshots: [SelectionName: [UInt64: SelectionSnapshot]] = [:]
    }

    let bridge: X11WaylandBridge
    let report: @Sendable (SelectionBridge.Event) -> Void
    private let machine: Mutex<BridgeMachine>
    private let shared = Mutex(Shared())
    private let inputs: AsyncStream<Input>
    private let feed: AsyncStream<Input>.Continuation
    /// What the bridge's marks carry: which bridge made the claim.
    private let markBytes = Data("clipbridge bridge \(getpid())".utf8)

    init(bridge: X11WaylandBridge, report: @escaping @Sendable (SelectionBridge.Event) -> Void) {
        self.bridge = bridge
        self.report = report
        machine = Mutex(BridgeMachine(displays: bridge.sideNames, selections: bridge.selections, includeSensitive: bridge.includeSensitive))
        (inputs, feed) = AsyncStream<Input>.makeStream()
    }

    private var xName: String { bridge.sideNames[Self.xSide] }
    private var waylandName: String { bridge.sideNames[Self.waylandSide] }
    private var timeout: Duration { bridge.configuration.readTimeout }

    private func isCurrent(_ selection: SelectionName, generation: UInt64) -> Bool {
        machine.withLock { $0.isCurrent(selection, generation: generation) }
    }

    // MARK: The X side

    /// Connects the X display and subscribes to its owner changes; nil when it cannot be reached (reported when
    /// `reportingFailure`).
    func connectX(reportingFailure: Bool = true) async -> BridgeLink? {
        do {
            let link = try await BridgeLink.open(bridge.xDisplay, selections: bridge.selections, configuration: bridge.configuration)
            let manager = (try? await link.connection.windowManager()).flatMap { $0?.isWaylandCompositor == true ? $0 : nil }
            feed.yield(.xLinked(link.connection, owned: link.owned, windowManager: manager))
            return link
        } catch {
            if reportingFailure { report(.disconnected(display: xName, reason: Self.describe(error))) }
            return nil
        }
    }

    /// Keeps the X display connected: follows its owner changes while the connection lives, and reconnects with
    /// backoff when it breaks, until the bridge is closed.
    func maintainX(from first: BridgeLink?) async {
        await BridgeLink.maintain(
            from: first, maximumDelay: bridge.maximumRetryDelay,
            reconnect: { await connectX(reportingFailure: false) },
            changed: { feed.yield(.xOwnerChanged($0)) },
            lost: { feed.yield(.xUnlinked($0, reason: $1)) })
    }

    // MARK: The Wayland side

    /// Keeps the compositor connected: follows its events while the connection lives (serving requests for our
    /// sources as they come), and reconnects with backoff when it ends — a compositor restarted — until the bridge is
    /// closed. The first failure to connect is reported; the rest of an outage is not.
    func maintainWayland() async {
        var failures = 0
        var reported = false
        while !Task.isCancelled {
            let connection: WaylandConnection
            do {
                connection = try await WaylandConnection.open(display: bridge.waylandDisplay, timeout: timeout)
                bridge.protocolInUse.withLock { $0 = connection.dataControlProtocol }
            } catch {
                if !reported { report(.disconnected(display: waylandName, reason: error.message)) }
                reported = true
                failures += 1
                do {
                    try await Task.sleep(for: BridgePolicy.retryDelay(failures: failures - 1, maximum: bridge.maximumRetryDelay))
                } catch {
                    return
                }
                continue
            }
            failures = 0
            reported = false
            var reason = "the compositor closed the connection"
            // The current offers come first, one per selection: they are what the compositor had as we connected.
            var initial: [SelectionName: [String]] = [:]
            var pending = 2
            for await event in connection.events {
                switch event {
                case .offered(let selection, let types, let isOwn):
                    guard let name = SelectionName(selection) else { continue }
                    if pending > 0 {
                        pending -= 1
                        initial[name] = types
                        if pending == 0 { feed.yield(.waylandLinked(connection, offers: initial)) }
                    } else if bridge.selections.contains(name) {
                        feed.yield(.waylandOffered(name, types: types, isOwn: isOwn))
                    }
                case .sendRequested(let request):
                    Task { await self.serve(request) }
                case .cancelled:
                    break
                case .ended(let error):
                    reason = error.message
                }
            }
            connection.close()
            if Task.isCancelled { return }
            if pending == 0 { feed.yield(.waylandUnlinked(connection, reason: reason)) }
            failures = 1
            do {
                try await Task.sleep(for: BridgePolicy.retryDelay(failures: 0, maximum: bridge.maximumRetryDelay))
            } catch {
                return
            }
        }
    }

    // MARK: The bridge's task

    /// Takes the events one at a time until cancelled; then releases everything and closes both connections.
    func drive() async {
        for await input in inputs {
            if Task.isCancelled { break }
            await take(input)
        }
        let (x, wayland, snapshots) = shared.withLock { shared in
            defer { shared = Shared() }
            return (shared.x, shared.wayland, shared.snapshots.values.flatMap(\.values))
        }
        for snapshot in snapshots { snapshot.removeFiles() }
        if let wayland {
            for selection in bridge.selections { if let name = WaylandSelectionName(selection) { await wayland.release(name) } }
            wayland.close()
        }
        await x?.shutdown()
    }

    /// Ends ``drive()``.
    func close() {
        feed.finish()
    }

    private func take(_ input: Input) async {
        switch input {
        case .xLinked(let connection, let owned, let manager):
            shared.withLock { shared in
                shared.x = connection
                shared.compositor = manager
            }
            if let manager, let changes = try? await connection.activeWindowChanges() {
                let feed = self.feed
                Task {
                    for await active in changes {
                        feed.yield(.xFocusChanged(hasFocus: CompositorSync.xHasFocus(activeWindow: active, windowManager: manager)))
                    }
                }
            }
            await carryOut(.connected(display: Self.xSide, owned: owned))
        case .xOwnerChanged(let change):
            var action = change.meaning
            if case let (x?, manager?) = shared.withLock({ ($0.x, $0.compositor) }) {
                let ownerIsManager = change.owner.map(manager.madeWindow) ?? false
                let focused = await Self.xHasFocus(x, manager)
                action = CompositorSync.xChange(change, ownerIsWindowManager: ownerIsManager, xHasFocus: focused) ?? action
            }
            await carryOut(.ownerChanged(change.selection, action, display: Self.xSide))
        case .xUnlinked(let connection, let reason):
            shared.withLock { $0.x = nil }
            await carryOut(.disconnected(display: Self.xSide, reason: reason))
            await connection.shutdown()
        case .waylandLinked(let connection, let offers):
            shared.withLock { $0.wayland = connection }
            var owned: Set<SelectionName> = []
            for (selection, types) in offers where bridge.selections.contains(selection) {
                record(types, for: selection)
                if !types.isEmpty { owned.insert(selection) }
            }
            await carryOut(.connected(display: Self.waylandSide, owned: owned))
        case .waylandUnlinked(let connection, let reason):
            shared.withLock { shared in
                if shared.wayland === connection {
                    shared.wayland = nil
                    shared.waylandClaims = [:]
                }
            }
            await carryOut(.disconnected(display: Self.waylandSide, reason: reason))
        case .xFocusChanged(let hasFocus):
            await focusChanged(hasFocus: hasFocus)
        case .waylandOffered(let selection, let types, let isOwn):
            record(types, for: selection)
            shared.withLock { $0.waylandOwn[selection] = isOwn }
            var action: OwnerChangeMeaning = isOwn ? .ours : types.isEmpty ? .ownerGone : .newOwner
            if !isOwn, case let (x?, manager?) = shared.withLock({ ($0.x, $0.compositor) }) {
                let focused = await Self.xHasFocus(x, manager)
                action = CompositorSync.waylandOffer(xHasFocus: focused) ?? action
            }
            await carryOut(.ownerChanged(selection, action, display: Self.waylandSide))
        case .machine(let event):
            await carryOut(event)
        }
    }

    /// Whether an X window has the focus now, as the compositor's window manager tells it.
    private static func xHasFocus(_ x: X11Connection, _ manager: WindowManager) async -> Bool {
        CompositorSync.xHasFocus(activeWindow: (try? await x.activeWindow()) ?? nil, windowManager: manager)
    }

    /// The focus left X (or came to it): while an X window had it, the compositor took the X selection with the
    /// Wayland content, and it refuses X requestors without the focus — so the Wayland content is offered on X again
    /// by the bridge, whose claim the compositor now leaves alone (`CompositorSync`).
    private func focusChanged(hasFocus: Bool) async {
        let (x, manager) = shared.withLock { ($0.x, $0.compositor) }
        guard let x, let manager else { return }
        for selection in bridge.selections {
            let (types, isOwn) = shared.withLock { ($0.waylandTypes[selection]?.types ?? [], $0.waylandOwn[selection] ?? false) }
            let owner = (try? await x.owner(of: selection)) ?? nil
            guard CompositorSync.reoffersOnX(
                xHasFocus: hasFocus, xOwnerIsWindowManager: owner.map(manager.madeWindow) ?? false, waylandTypes: types,
                waylandOfferIsOwn: isOwn)
            else { continue }
            await carryOut(.ownerChanged(selection, .newOwner, display: Self.waylandSide))
        }
    }

    /// The Wayland offer of `selection` now; the generation is set when the machine adopts it.
    private func record(_ types: [String], for selection: SelectionName) {
        shared.withLock { $0.waylandTypes[selection] = (generation: 0, types: types) }
    }

    /// Carries out what the machine decides on `event` (`BridgeEffects.perform`, the X display bridge's loop too).
    private func carryOut(_ event: BridgeMachine.Event) async {
        var effects = self
        await effects.perform(event)
    }

    func decide(_ event: BridgeMachine.Event) -> [BridgeMachine.Action] {
        machine.withLock { $0.handle(event) }
    }

    func tell(_ event: SelectionBridge.Event) {
        report(event)
    }

    /// Reads what `side`'s owner of `selection` offers, as X targets; the outcome is fed back as an event.
    func readTargets(_ selection: SelectionName, on side: Int, generation: UInt64) {
        if side == Self.waylandSide {
            // The compositor told the types with the offer: no round trip. They are kept for this generation, for the
            // X side's relays.
            let types = shared.withLock { shared -> [String]? in
                guard shared.wayland != nil, var entry = shared.waylandTypes[selection] else { return nil }
                entry.generation = generation
                shared.waylandTypes[selection] = entry
                return entry.types
            }
            let result: Result<[SelectionTarget], BridgeMachine.TargetsFailure> = types.map {
                .success(WaylandTypeMapping.xOffer(forWayland: $0).map(\.target))
            } ?? .failure(.init(reason: "the compositor is not connected", ownClaimIsOwner: false))
            feed.yield(.machine(.targetsRead(selection, display: side, generation: generation, result)))
            return
        }
        guard let connection = shared.withLock({ $0.x }) else { return }
        let timeout = self.timeout, feed = self.feed, readsAhead = shared.withLock { $0.compositor != nil }
        Task {
            let result: Result<[SelectionTarget], BridgeMachine.TargetsFailure>
            if readsAhead {
                // The compositor will take the X selection from its owner (CompositorSync): read it whole now.
                do {
                    let snapshot = try await connection.snapshot(selection, timeout: timeout)
                    if snapshot.isSensitive {
                        result = .success(snapshot.omissions.map(\.target) + [SelectionOffer.passwordManagerHint])
                    } else {
                        self.shared.withLock { $0.snapshots[selection, default: [:]][generation] = snapshot }
                        result = .success(snapshot.flavours.map(\.target))
                    }
                } catch {
                    let ours = await (try? connection.owner(of: selection)) == connection.utilityWindow
                    result = .failure(.init(reason: Self.describe(error), ownClaimIsOwner: ours))
                }
            } else {
                result = await connection.bridgeTargets(of: selection, timeout: timeout)
            }
            feed.yield(.machine(.targetsRead(selection, display: Self.xSide, generation: generation, result)))
        }
    }

    /// Claims `selection` on `side` with the source's offer. False when that failed (reported).
    func claim(_ selection: SelectionName, on side: Int, from source: BridgeMachine.Source) async -> Bool {
        guard let targets = source.targets else { return false }
        let sideName = bridge.sideNames[side]
        if side == Self.waylandSide {
            guard let wayland = shared.withLock({ $0.wayland }), let name = WaylandSelectionName(selection) else { return false }
            if name == .primary && !wayland.hasPrimarySelection { return false }
            let representations = WaylandTypeMapping.waylandOffer(forX: targets)
            var types = representations.map(\.mimeType) + BridgePolicy.markers.map(\.rawValue)
            if source.isSensitive { types.append(SelectionOffer.passwordManagerHint.rawValue) }
            do {
                let id = try await wayland.offer(types, as: name)
                let released = shared.withLock { shared -> [SelectionSnapshot] in
                    // The snapshot of this generation is served now; older ones are not any more.
                    var kept = shared.snapshots[selection] ?? [:]
                    let snapshot = kept[source.generation]
                    let dropped = kept.filter { $0.key < source.generation }.map(\.value)
                    kept = kept.filter { $0.key >= source.generation }
                    shared.snapshots[selection] = kept
                    shared.waylandClaims[selection] = WaylandClaim(
                        source: id, generation: source.generation,
                        representations: Dictionary(representations.map { ($0.mimeType, $0) }, uniquingKeysWith: { first, _ in first }),
                        isSensitive: source.isSensitive, snapshot: snapshot)
                    return dropped
                }
                for snapshot in released { snapshot.removeFiles() }
                return true
            } catch {
                report(.failed(selection, display: sideName, target: "TARGETS", reason: "could not claim: \(error.message)"))
                return false
            }
        }
        guard let x = shared.withLock({ $0.x }) else { return false }
        let types = shared.withLock { shared -> [String] in
            guard let entry = shared.waylandTypes[selection], entry.generation == source.generation else { return [] }
            return entry.types
        }
        let offered = Set(targets)
        let representations = WaylandTypeMapping.xOffer(forWayland: types).filter { offered.contains($0.target) }
        guard !representations.isEmpty else { return false }
        let marks = BridgePolicy.markers.map { SelectionOffer.Representation(target: $0, source: .bytes(markBytes)) }
        let offer = SelectionOffer(
            representations.map { relayedFromWayland($0, of: selection, generation: source.generation) } + marks,
            isSensitive: source.isSensitive)
        let lease: SelectionLease
        do {
            lease = try await x.claim(selection, offering: offer)
        } catch {
            report(.failed(selection, display: sideName, target: "TARGETS", reason: "could not claim: \(Self.describe(error))"))
            return false
        }
        let report = self.report
        Task { await lease.reportPastes(of: selection, on: sideName, to: report) }
        return true
    }

    func release(_ selection: SelectionName, on side: Int) async {
        if side == Self.waylandSide {
            let (wayland, snapshot) = shared.withLock { shared -> (WaylandConnection?, SelectionSnapshot?) in
                let claim = shared.waylandClaims.removeValue(forKey: selection)
                if let generation = claim?.generation { shared.snapshots[selection]?[generation] = nil }
                return (shared.wayland, claim?.snapshot)
            }
            if let wayland, let name = WaylandSelectionName(selection) { await wayland.release(name) }
            snapshot?.removeFiles()
        } else if let x = shared.withLock({ $0.x }) {
            await x.release(selection)
        }
    }

    // MARK: Pastes

    /// An X target whose bytes are read from the Wayland owner when an X requestor asks, and relayed as they stream.
    private func relayedFromWayland(
        _ representation: WaylandTypeMapping.XRepresentation, of selection: SelectionName, generation: UInt64
    ) -> SelectionOffer.Representation {
        let timeout = self.timeout, waylandName = self.waylandName
        return SelectionOffer.Representation(target: representation.target, source: .relay { [weak self] relay in
            guard let self, self.isCurrent(selection, generation: generation),
                let wayland = self.shared.withLock({ $0.wayland }), let name = WaylandSelectionName(selection)
            else {
                throw SelectionError(.ownerGone, "\(selection) on \(waylandName) changed owner; this offer is stale")
            }
            let mimeType = representation.mimeType
            switch representation.conversion {
            case .verbatim(let type):
                var sent = false
                try await wayland.read(mimeType, from: name, timeout: timeout) { chunk in
                    sent = true
                    try await relay.send(chunk, type: type, format: 8)
                }
                if !sent { try await relay.send(Data(), type: type, format: 8) }
            case .latin1, .text:
                let utf8 = try await wayland.read(mimeType, from: name, timeout: timeout)
                guard let text = String(validating: utf8, as: UTF8.self) else {
                    throw SelectionError(.invalidReply, "\(selection):\(mimeType) on \(waylandName) is not UTF-8 text")
                }
                if let latin1 = TextEncodings.latin1(text) {
                    try await relay.send(latin1, type: .string, format: 8)
                } else if representation.conversion == .text {
                    try await relay.send(utf8, type: .utf8String, format: 8)
                } else {
                    // Nothing substituted: the requestor falls back to UTF8_STRING.
                    throw SelectionError(.targetUnavailable, "\(selection): the text has characters outside ISO-8859-1 (STRING)")
                }
            }
            // The owner changed while it was read: refuse what came rather than present it as the content offered.
            guard self.isCurrent(selection, generation: generation) else {
                throw SelectionError(.ownerGone, "\(selection) on \(waylandName) changed owner during the paste")
            }
        })
    }

    /// Serves a Wayland requestor's ask for one of our sources: reads the X owner's data and writes it as it streams.
    private func serve(_ request: WaylandSendRequest) async {
        defer { request.finish() }
        guard let selection = SelectionName(request.selection) else { return }
        let (claim, x) = shared.withLock { ($0.waylandClaims[selection], $0.x) }
        guard let claim, claim.source == request.source else { return }
        let target = SelectionTarget(rawValue: request.mimeType)
        if BridgePolicy.markers.contains(target) {
            try? await request.write(markBytes, timeout: timeout)
            return
        }
        if target == SelectionOffer.passwordManagerHint, claim.isSensitive {
            try? await request.write(Data("secret".utf8), timeout: timeout)
            return
        }
        // Refused (the descriptor closes with nothing written) when the offer is stale or the type unknown.
        guard let representation = claim.representations[request.mimeType], let x,
            isCurrent(selection, generation: claim.generation)
        else {
            report(.failed(selection, display: waylandName, target: target, reason: "the offer is stale or the type not offered"))
            return
        }
        let timeout = self.timeout
        var total = 0
        if let snapshot = claim.snapshot {
            do {
                total = try await serve(request, representation, from: snapshot)
                report(.served(selection, display: waylandName, target: target, byteCount: total))
            } catch {
                report(.failed(selection, display: waylandName, target: target, reason: Self.describe(error)))
            }
            return
        }
        do {
            switch representation.conversion {
            case .verbatim, .utf8Text(from: .utf8String):
                // Whole or not at all up to the holdback's limit: a pipe has no way to say a transfer failed.
                let holdback = Mutex(WaylandWriteHoldback())
                let summary = try await x.readChunks(selection, target: representation.target, timeout: timeout) { chunk in
                    guard !BridgePolicy.displayBoundTypes.contains(chunk.type) else {
                        throw SelectionError(.invalidReply, "\(selection):\(representation.target) answered \(chunk.type) values, which name things of the X display only")
                    }
                    for piece in holdback.withLock({ $0.take(chunk.bytes) }) { try await request.write(piece, timeout: timeout) }
                }
                for piece in holdback.withLock({ $0.finish() }) { try await request.write(piece, timeout: timeout) }
                total = summary.byteCount
            case .utf8Text(let from):
                let reply = try await x.read(selection, target: from, timeout: timeout)
                guard let text = TargetMapping.canonicalText(reply.bytes, target: from, propertyType: reply.type) else {
                    throw SelectionError(.invalidReply, "\(selection):\(from) is not text that can be decoded")
                }
                try await request.write(text, timeout: timeout)
                total = text.count
            }
            report(.served(selection, display: waylandName, target: target, byteCount: total))
        } catch {
            report(.failed(selection, display: waylandName, target: target, reason: Self.describe(error)))
        }
    }

    /// Writes a flavour of X content read ahead: its bytes, or its file in pieces, or its text decoded.
    private func serve(
        _ request: WaylandSendRequest, _ representation: WaylandTypeMapping.WaylandRepresentation, from snapshot: SelectionSnapshot
    ) async throws -> Int {
        let wanted: SelectionTarget
        switch representation.conversion {
        case .verbatim: wanted = representation.target
        case .utf8Text(let from): wanted = from
        }
        guard let flavour = snapshot.flavours.first(where: { $0.target == wanted }) else {
            throw SelectionError(.targetUnavailable, "\(wanted) was not read")
        }
        if case .utf8Text(let from) = representation.conversion, from != .utf8String {
            let bytes: Data
            switch flavour.content {
            case .bytes(let data): bytes = data
            case .file(let url): bytes = try Data(contentsOf: url)
            }
            guard let text = TargetMapping.canonicalText(bytes, target: from, propertyType: flavour.type) else {
                throw SelectionError(.invalidReply, "\(from) is not text that can be decoded")
            }
            try await request.write(text, timeout: timeout)
            return text.count
        }
        switch flavour.content {
        case .bytes(let data):
            try await request.write(data, timeout: timeout)
        case .file(let url):
            let file = try FileHandleReader(url)
            defer { file.close() }
            while let piece = try file.next(1 << 20) { try await request.write(piece, timeout: timeout) }
        }
        return flavour.byteCount
    }

    static func describe(_ error: any Error) -> String {
        (error as? SelectionError)?.message ?? (error as? WaylandError)?.message ?? "\(error)"
    }
}

extension SelectionName {
    /// The X selection a Wayland selection corresponds to.
    init?(_ wayland: WaylandSelectionName) {
        switch wayland {
        case .clipboard: self = .clipboard
        case .primary: self = .primary
        }
    }
}

extension WaylandSelectionName {
    /// The Wayland selection an X selection corresponds to; nil for SECONDARY, which Wayland has not.
    init?(_ x: SelectionName) {
        switch x {
        case .clipboard: self = .clipboard
        case .primary: self = .primary
        default: return nil
        }
    }
}

/// A file read in pieces (FoundationEssentials has no FileHandle).
private struct FileHandleReader {
    let fd: Int32

    init(_ url: URL) throws {
        fd = open(url.path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw SelectionError(.storageFailed, "cannot open \(url.path): errno \(errno)") }
    }

    /// The next piece of at most `count` bytes; nil at the end.
    func next(_ count: Int) throws -> Data? {
        var piece = Data(count: count)
        let read = piece.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, count) }
        guard read >= 0 else { throw SelectionError(.storageFailed, "cannot read a kept flavour: errno \(errno)") }
        if read == 0 { return nil }
        piece.count = read
        return piece
    }

    func close() { _ = Glibc.close(fd) }
}
