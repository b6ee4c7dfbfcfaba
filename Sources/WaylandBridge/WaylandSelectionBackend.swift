import FoundationEssentials
import Glibc
import SelectionCore
import Synchronization
import WaylandSelection
import X11Selection

/// A Wayland compositor's selections as the core's drivers use them (`SelectionBackend`), over one
/// `WaylandConnection` through data-control: owner changes from its offers, snapshots read type by type, claims of
/// sources of ours whose data it writes when a requestor asks — so `KeeperDriver` keeps a Wayland copy alive after the
/// client that made it exits, as it does on X.
///
/// What Wayland does not have, it does not pretend: no owner identity (each new offer is counted), no server time
/// (claims are made now), no pointer (the sync's settle time alone decides), no handover (a client's copy dies with
/// it; nothing asks a manager to take it over).
///
/// One task reads the connection's events: offers go to the owner-change watchers, requests for our sources' data
/// are answered from the content each source was made with, each on a task of its own.
package final class WaylandSelectionBackend: SelectionBackend, Sendable {
    package enum Terms: BackendTerms {
        /// Each offer another client made, counted as they come.
        package typealias Owner = Int
        /// Wayland gives no time to claim at.
        package typealias Time = Never
        package typealias Handover = NoHandover
    }

    /// Content read from an owner: its flavours in its order, each in memory or — past `SnapshotLimits.inMemoryBytes`
    /// — in a private file, which goes with the last reference (the keeper's, a source still serving it).
    package final class Kept: Sendable {
        package struct Flavour: Sendable {
            package var type: String
            package var content: SelectionSnapshot.Content
            package var byteCount: Int
        }

        package let flavours: [Flavour]
        /// The offer carried the password managers' hint: nothing was read.
        package let isSensitive: Bool
        /// Every file it had: a narrowed copy shares them with the content it came from.
        private let files: SpooledFiles

        package convenience init(_ flavours: [Flavour], isSensitive: Bool = false) {
            self.init(flavours, isSensitive: isSensitive, sharing: SpooledFiles(of: flavours.map(\.content)))
        }

        private init(_ flavours: [Flavour], isSensitive: Bool, sharing files: SpooledFiles) {
            self.flavours = flavours
            self.isSensitive = isSensitive
            self.files = files
        }

        /// Only the flavours of `types`, in that order; the files stay until both are gone.
        func narrowed(to types: [String]) -> Kept {
            Kept(types.compactMap { type in flavours.first { $0.type == type } }, isSensitive: isSensitive, sharing: files)
        }

        package var types: [String] { flavours.map(\.type) }

        /// The content as the backend-neutral snapshot a validator and a history take: each flavour under its MIME
        /// type, bytes as Wayland has them (no reply type, 8-bit). It refers to this content's files: keep this
        /// value alive while the snapshot is used.
        package func snapshot(of selection: SelectionName) -> SelectionSnapshot {
            SelectionSnapshot(
                selection: selection,
                flavours: flavours.map { flavour in
                    let name = SelectionTarget(rawValue: flavour.type)
                    return SelectionSnapshot.Flavour(
                        target: name, type: name, format: 8, content: flavour.content, byteCount: flavour.byteCount)
                },
                isSensitive: isSensitive)
        }
    }

    /// The connection it reads and serves on.
    package let connection: WaylandConnection
    /// How long a requestor may leave a full pipe unread, and an owner a read silent.
    package let timeout: Duration

    private let watchers = OwnerChangeFanOut<BackendOwnerChange<Terms>>()

    private struct State {
        var offers = 0
        /// What each source of ours serves.
        var served: [WaylandSourceID: Served] = [:]
        /// Claims between their offer and the registration of what they serve.
        var claimsInFlight = 0
        /// Requests that came for a source not registered yet while a claim was in flight: a requestor as quick as a
        /// clipboard manager asks before the claim's own task has recorded what its source serves.
        var parked: [WaylandSendRequest] = []
    }

    /// What a source of ours serves: content kept whole, or flavours relayed from another display when asked.
    private enum Served: Sendable {
        case kept(Kept)
        case relayed(RelayOffer)
        /// A rewritten offer, and the kept content whose files it streams.
        case rewritten(RelayOffer, holding: Kept)
    }

    private let state = Mutex(State())
    private let pump: Mutex<Task<Void, Never>?> = Mutex(nil)

    /// Starts taking `connection`'s events (they are this backend's alone from now on).
    /// Connects `display` (nil: `$WAYLAND_DISPLAY`).
    package static func open(_ display: String?, timeout: Duration = .seconds(5)) async throws -> WaylandSelectionBackend {
        WaylandSelectionBackend(try await WaylandConnection.open(display: display, timeout: timeout), timeout: timeout)
    }

    package init(_ connection: WaylandConnection, timeout: Duration = .seconds(5)) {
        self.connection = connection
        self.timeout = timeout
        let task = Task { [weak self] in
            for await event in connection.events {
                guard let self else { return }
                self.take(event)
            }
        }
        pump.withLock { $0 = task }
    }

    deinit {
        pump.withLock { $0?.cancel() }
    }

    private func take(_ event: WaylandSelectionEvent) {
        switch event {
        case .current(let selection, let types):
            // The selection found at connection: the drivers take it as a change (a keeper keeps what is there).
            take(.offered(selection, types: types, isOwn: false))
        case .offered(let selection, let types, let isOwn):
            let name = SelectionName(selection)
            let change = state.withLock { state -> BackendOwnerChange<Terms> in
                var owner: Int?
                if !isOwn && !types.isEmpty {
                    state.offers += 1
                    owner = state.offers
                }
                // An empty selection: its client went away (or cleared it; data-control cannot tell the two apart,
                // and a clipboard manager restores both, as Klipper does).
                let meaning: OwnerChangeMeaning = isOwn ? .ours : types.isEmpty ? .ownerGone : .newOwner
                return BackendOwnerChange<Terms>(selection: name, meaning: meaning, owner: owner, time: nil)
            }
            watchers.tell(change, about: name)
        case .sendRequested(let request):
            let served = state.withLock { state -> Served?? in
                if let served = state.served[request.source] { return .some(served) }
                guard state.claimsInFlight > 0 else { return .some(nil) }
                state.parked.append(request)
                return nil
            }
            if let served { answer(request, with: served) }
        case .cancelled(_, let source):
            state.withLock { _ = $0.served.removeValue(forKey: source) }
        case .ended(let error):
            watchers.finishAll(throwing: error, forGood: true)
        }
    }

    /// Answers `request` from what its source serves (nothing: a source that is not ours any more).
    private func answer(_ request: WaylandSendRequest, with served: Served?) {
        let timeout = timeout
        Task {
            defer { request.finish() }
            switch served {
            case .kept(let kept):
                guard let flavour = kept.flavours.first(where: { $0.type == request.mimeType }) else { return }
                try? await flavour.content.read(as: SelectionTarget(rawValue: flavour.type)) { piece in
                    try await request.write(piece.bytes, timeout: timeout)
                }
            case .relayed(let offer), .rewritten(let offer, _):
                await Self.serve(request, from: offer, timeout: timeout)
            case nil:
                return
            }
        }
    }

    /// Offers `types` on `selection` and records what the new source serves, answering the requests that came for it
    /// meanwhile.
    private func claim(_ types: [String], on selection: SelectionName, serving served: Served) async throws -> WaylandSourceID {
        state.withLock { $0.claimsInFlight += 1 }
        let source: WaylandSourceID
        do {
            source = try await connection.offer(types, as: try selection.wayland())
        } catch {
            answerParked(after: nil, served: served)
            throw error
        }
        answerParked(after: source, served: served)
        return source
    }

    /// The claim of `source` (nil: failed) is done: its parked requests are answered; once no claim is in flight,
    /// requests for sources that never became ours get nothing.
    private func answerParked(after source: WaylandSourceID?, served: Served) {
        let (mine, orphans) = state.withLock { state -> ([WaylandSendRequest], [WaylandSendRequest]) in
            state.claimsInFlight -= 1
            if let source { state.served[source] = served }
            let mine = state.parked.filter { $0.source == source }
            state.parked.removeAll { $0.source == source }
            guard state.claimsInFlight == 0 else { return (mine, []) }
            defer { state.parked.removeAll() }
            return (mine, state.parked)
        }
        for request in mine { answer(request, with: served) }
        for request in orphans { request.finish() }
    }

    /// Whether a driver watches the owners (tests wait for it).
    package var watching: Bool { watchers.count > 0 }

    // MARK: SelectionBackend

    package func ownerChanges(of selections: [SelectionName]) async throws
        -> AsyncThrowingStream<BackendOwnerChange<Terms>, any Error>
    {
        watchers.changes(of: selections)
    }

    package func owner(of selection: SelectionName) async -> Int? {
        guard let wayland = try? selection.wayland(), let types = try? await connection.types(of: wayland), !types.isEmpty,
            await !connection.holds(wayland)
        else { return nil }
        return state.withLock { $0.offers }
    }

    package func isPointerButtonHeld() async -> Bool? { nil }

    package func snapshot(of selection: SelectionName, _ request: SnapshotRequest) async throws -> (Kept, KeptFacts) {
        let wayland = try selection.wayland()
        let offered = try await connection.types(of: wayland)
        guard !offered.isEmpty else { throw WaylandError(.typeUnavailable, "the Wayland \(selection) is empty") }
        let timeout = request.timeout ?? timeout
        let (flavours, facts) = await SnapshotReading.read(offered: offered.map(SelectionTarget.init(rawValue:)), request) {
            target, spool in
            do {
                try await self.connection.read(target.rawValue, from: wayland, timeout: timeout) { try spool.append($0) }
            } catch let error as WaylandError where error.code == .typeUnavailable {
                // The offer changed under the read: its owner is gone (or replaced); what was read whole stays.
                throw SnapshotReading.Stop.ownerLeft
            }
        }
        let kept = flavours.map { Kept.Flavour(type: $0.target.rawValue, content: $0.content, byteCount: $0.byteCount) }
        return (Kept(kept, isSensitive: facts.isSensitive), facts)
    }

    package func narrow(_ kept: Kept, to targets: [SelectionTarget]) -> Kept {
        kept.narrowed(to: targets.map(\.rawValue))
    }

    /// What a source of ours offers for the keeper.
    package enum Offer: Sendable {
        /// Kept content, served as kept: every flavour under its own name, byte-exact.
        case kept(Kept)
        /// Kept content rewritten by the daemon's rules (`ContentRewriter`, whose offer names its representations as
        /// X targets), named for Wayland clients as a copy's are (`RelayOffer(servingOnWayland:)`); the kept content is
        /// held while it serves, since the rewritten offer streams its files.
        case rewritten(SelectionOffer, of: Kept)
    }

    package func offer(of kept: Kept) -> Offer { .kept(kept) }

    package func flavourCount(of offer: Offer) -> Int {
        switch offer {
        case .kept(let kept): kept.flavours.count
        case .rewritten(let offer, _): offer.representations.count
        }
    }

    package func claim(_ selection: SelectionName, offering offer: Offer, at time: Never?) async throws -> WaylandSourceID {
        switch offer {
        case .kept(let kept):
            return try await claim(kept.types, on: selection, serving: .kept(kept))
        case .rewritten(let offer, let kept):
            let relay = RelayOffer(servingOnWayland: offer)
            return try await claim(Self.types(of: relay), on: selection, serving: .rewritten(relay, holding: kept))
        }
    }

    /// A source keeps its content until the compositor cancels it (`served`), whatever the keeper does.
    package func hold(_ kept: Kept, while claim: WaylandSourceID) {}

    package func release(_ selection: SelectionName) async {
        guard let wayland = try? selection.wayland() else { return }
        await connection.release(wayland)
    }

    /// Empties the selection whoever holds it (a vetoed copy is taken from its client).
    package func clear(_ selection: SelectionName) async {
        guard let wayland = try? selection.wayland() else { return }
        try? await connection.clear(wayland, timeout: timeout)
    }

    package func answer(_ request: NoHandover, saved: Bool) async {}

    // MARK: What a bridge uses

    package var naming: FlavourNaming { .mimeTypes }

    /// The compositor's socket, as a path: one compositor named twice is one server.
    package func serverIdentity() async -> String {
        let name = connection.displayName
        if name.hasPrefix("/") { return "wayland:" + name }
        let runtime = getenv("XDG_RUNTIME_DIR").map { String(cString: $0) } ?? ""
        return "wayland:\(runtime)/\(name)"
    }

    package func shares(_ selection: SelectionName) -> Bool {
        selection == .clipboard || (selection == .primary && connection.hasPrimarySelection)
    }

    package func offeredTypes(of selection: SelectionName, timeout: Duration?) async throws -> [SelectionTarget] {
        let types = try await connection.types(of: try selection.wayland())
        guard !types.isEmpty else { throw WaylandError(.typeUnavailable, "the Wayland \(selection) is empty") }
        return types.map(SelectionTarget.init(rawValue:))
    }

    package func ownsSelection(_ selection: SelectionName) async -> Bool {
        guard let wayland = try? selection.wayland() else { return false }
        return await connection.holds(wayland)
    }

    package func read(_ selection: SelectionName, type: SelectionTarget, timeout: Duration?, into sink: FlavourSink) async throws {
        var sent = false
        try await connection.read(type.rawValue, from: try selection.wayland(), timeout: timeout ?? self.timeout) { bytes in
            sent = true
            try await sink(FlavourChunk(bytes, type: type))
        }
        if !sent { try await sink(FlavourChunk(Data(), type: type)) }
    }

    package func types(of kept: Kept) -> [SelectionTarget] { kept.types.map(SelectionTarget.init(rawValue:)) }

    package func read(_ type: SelectionTarget, of kept: Kept, into sink: FlavourSink) async throws {
        guard let flavour = kept.flavours.first(where: { $0.type == type.rawValue }) else {
            throw WaylandError(.typeUnavailable, "\(type) was not kept")
        }
        try await flavour.content.read(as: type, into: sink)
    }

    package func claim(_ selection: SelectionName, relaying offer: RelayOffer) async throws {
        _ = try await claim(Self.types(of: offer), on: selection, serving: .relayed(offer))
    }

    /// The MIME types a source serving `offer` offers: its flavours, its marks, and the hint when it is sensitive.
    private static func types(of offer: RelayOffer) -> [String] {
        var types = offer.flavours.map(\.type.rawValue) + offer.marks.map(\.type.rawValue)
        if offer.isSensitive { types.append(SelectionTarget.passwordManagerHint.rawValue) }
        return types
    }

    package func shutdown() async { connection.close() }

    /// Writes a relayed flavour to a requestor's pipe as it is made. Whole or not at all up to the holdback's limit:
    /// a pipe has no way to say a transfer failed, so a cut reply closes it with nothing written where it can.
    private static func serve(_ request: WaylandSendRequest, from offer: RelayOffer, timeout: Duration) async {
        let type = SelectionTarget(rawValue: request.mimeType)
        if let mark = offer.marks.first(where: { $0.type == type }) {
            try? await request.write(mark.bytes, timeout: timeout)
            return
        }
        if type == .passwordManagerHint, offer.isSensitive {
            try? await request.write(Data("secret".utf8), timeout: timeout)
            return
        }
        guard let flavour = offer.flavours.first(where: { $0.type == type }) else {
            offer.outcome(.failed(type, reason: "the type is not offered"))
            return
        }
        let holdback = Mutex(WaylandWriteHoldback())
        let total = Mutex(0)
        do {
            try await flavour.produce { chunk in
                // Bytes held back are not written, so a requestor gone would not be noticed until the end: asked
                // at each piece, so an endless or trickling source is read for no one no longer than one piece.
                if request.requestorHasGone {
                    throw RelayRefusal("the requestor of \(type) closed its end")
                }
                total.withLock { $0 += chunk.bytes.count }
                for piece in holdback.withLock({ $0.take(chunk.bytes) }) { try await request.write(piece, timeout: timeout) }
            }
            for piece in holdback.withLock({ $0.finish() }) { try await request.write(piece, timeout: timeout) }
            offer.outcome(.served(type, byteCount: total.withLock { $0 }))
        } catch {
            offer.outcome(.failed(type, reason: reportedMessage(of: error)))
        }
    }
}

/// Wayland has no handover: no client asks a manager to take its content over.
package struct NoHandover: HandoverRequest {
    package var requestor: Int { 0 }
    package var targets: [SelectionTarget]? { nil }
}

