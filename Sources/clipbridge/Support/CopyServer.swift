// ClipBridge — the clipbridge command-line tool.
// Owning the selection and serving it: in the foreground, or in the detached server.

import ClipBridge
import ClipBridgeOptions
import FoundationEssentials
import UniformTypes
import X11Selection

/// Serves one `CopyPlan` until ownership is lost, the loop count is reached, or SIGINT/SIGTERM.
struct CopyServer: Sendable {
    /// What to offer.
    var plan: CopyPlan
    /// The payloads, indexed by `CopyPlan.Representation.payload`.
    var payloads: [SpooledPayload]
    /// The selection already claimed before a fork (see `Detach`); nil claims it here.
    var prepared: PreparedClaim? = nil

    /// Payloads up to this size are served from memory; larger ones stream from their descriptor.
    static let inMemoryLimit = 4 << 20
    /// Text up to this size gets the full text family with real re-encodings (STRING as Latin-1,
    /// COMPOUND_TEXT); larger text is served as UTF-8 straight from disk (the bridge's own limit for
    /// file-backed text is the same).
    static let textConversionLimit = 4 << 20
    /// A requestor fetching again within this window is the same paste (browsers ask twice:
    /// bugaevc/wl-clipboard#107); it is also how long the last allowed paste may linger.
    static let graceWindow: Duration = .milliseconds(500)

    /// Why serving ended.
    enum Ending: Equatable {
        case ownershipLost, loopsDone, signal(Int32)
        /// The X connection broke (the server went away).
        case connectionEnded

        var isSignal: Bool {
            if case .signal = self { return true }
            return false
        }
    }

    /// Owns the selection, calls `ready` once (with success or the failure), then serves.
    func run(ready: (Result<Void, CLIFailure>) -> Void) async -> Ending? {
        if case .wayland(let compositor) = DisplayChoice.resolve(plan.display) {
            return await WaylandCopyServer(server: self, compositor: compositor).run(ready: ready)
        }
        MIMEDatabase.restrict()
        let selection = SelectionName(rawValue: plan.selection)
        // Signal delivery is redirected before the claim, so a SIGTERM during start-up still
        // releases cleanly instead of killing us between claim and serve.
        let signals = Signals.terminationRequests()
        let clipboard: Clipboard
        let lease: SelectionLease
        do {
            if let prepared {
                clipboard = try await Clipboard.open(continuing: prepared, configuration: .command)
            } else {
                clipboard = try await Clipboard.open(selection, display: plan.display, configuration: .command)
            }
        } catch {
            ready(.failure(CLIFailure(error, display: plan.display, selection: selection)))
            return nil
        }
        do {
            let options = CopyOptions(isSensitive: plan.isSensitive)
            if !plan.flavours.isEmpty {
                lease = try await clipboard.connection.claim(selection, offering: try rawOffer())
            } else if plan.files.isEmpty {
                lease = try await clipboard.copy([try makeItem()], options: options)
            } else {
                let urls = plan.files.map { URL(fileURLWithPath: $0) }
                lease = try await clipboard.copyFiles(urls, cut: plan.isCut, options: options)
            }
        } catch {
            ready(.failure(CLIFailure(error, display: plan.display, selection: selection)))
            await clipboard.shutdown()
            return nil
        }
        ready(.success(()))

        let connection = clipboard.connection
        let ending = await Self.serve(until: signals) {
            await Self.serve(lease, loops: plan.loops) { await connection.release(selection) }
        }
        // A broken connection ends the lease too (as a loss): tell it apart, it is a failure.
        if ending != .loopsDone, !ending.isSignal, await clipboard.connection.isBroken {
            await clipboard.shutdown()
            return .connectionEnded
        }
        await clipboard.shutdown()
        return ending
    }

    /// Follows the lease's events: counts content transfers (the engine never reports TARGETS or
    /// TIMESTAMP probes as `.served`), treating a repeat by the same requestor within the grace
    /// window as the same paste; after the last allowed paste, lingers for the grace window so a
    /// requestor that asks twice still gets its second answer; then `release` gives the selection up
    /// and the transfers that started meanwhile still finish, as after a loss (a paste begun within the
    /// grace window was torn down midway, leaving xclip waiting forever).
    ///
    /// After ownership is lost it keeps following until the lease's events finish, which the engine does
    /// once the transfers in flight end: a paste requested while we owned the selection must still
    /// complete (ICCCM 2.2; xclip likewise exits only when its current INCR transfer is done). Shutting
    /// down at `.lost` tore down a large paste midway and left its requestor to time out.
    static func serve(
        _ lease: SelectionLease, loops: Int?, release: @escaping @Sendable () async -> Void
    ) async -> Ending {
        let (events, continuation) = AsyncStream<PasteEvent>.makeStream()
        // Unstructured on purpose: we must not wait for the pump to notice cancellation before
        // shutting the connection down (shutdown is what finishes the lease's events).
        let pump = Task {
            for await event in lease.events {
                switch event {
                case .served(_, let requestor, _): continuation.yield(.served(requestor: UInt64(requestor.rawValue)))
                case .lost: continuation.yield(.lost)
                case .failed, .saveTargetsRequested: continue
                }
            }
            continuation.finish()
        }
        defer { pump.cancel() }
        return await serve(events, loops: loops, release: release)
    }

    /// What a server hears about its claim, whatever the display server: a paste served, and the claim lost. The
    /// stream finishes once the pastes asked for before the loss (or the release) have ended.
    enum PasteEvent: Sendable {
        /// A content transfer served to `requestor` (0 where the display server does not say who asks: Wayland).
        case served(requestor: UInt64)
        case lost
    }

    /// ``serve(_:loops:release:)-(SelectionLease,_,_)``'s rule, over any display server's events.
    static func serve(
        _ events: AsyncStream<PasteEvent>, loops: Int?, release: @escaping @Sendable () async -> Void
    ) async -> Ending {
        enum Tick: Sendable { case event(PasteEvent), finished, graceOver }
        let (ticks, continuation) = AsyncStream<Tick>.makeStream()
        let pump = Task {
            for await event in events { continuation.yield(.event(event)) }
            continuation.yield(.finished)
        }
        var timer: Task<Void, Never>?
        defer {
            pump.cancel()
            timer?.cancel()
            continuation.finish()
        }
        var counted = 0
        var lost = false
        var loopsDone = false
        var lastServed: [UInt64: ContinuousClock.Instant] = [:]
        for await tick in ticks {
            switch tick {
            case .event(.served(let requestor)):
                let now = ContinuousClock.now
                defer { lastServed[requestor] = now }
                if lost || loopsDone { continue }
                if let previous = lastServed[requestor], previous.duration(to: now) < graceWindow { continue }
                counted += 1
                if let loops, counted >= loops, timer == nil {
                    timer = Task {
                        try? await Task.sleep(for: graceWindow)
                        continuation.yield(.graceOver)
                    }
                }
            case .event(.lost):
                lost = true
            case .finished:
                return loopsDone ? .loopsDone : lost ? .ownershipLost : .connectionEnded
            case .graceOver:
                loopsDone = true
                await release()
            }
        }
        return .connectionEnded
    }

    /// Runs `serving` until it ends or one of `signals` comes first (`.signal`).
    static func serve(
        until signals: AsyncStream<Int32>, _ serving: @escaping @Sendable () async -> Ending
    ) async -> Ending {
        await withTaskGroup(of: Ending.self) { group in
            group.addTask { await serving() }
            group.addTask {
                for await signal in signals { return .signal(signal) }
                return .connectionEnded
            }
            let first = await group.next() ?? .connectionEnded
            group.cancelAll()
            return first
        }
    }

    /// The plan's offer as a copy makes it on any display server (what `WaylandCopyServer` serves): the exact
    /// flavours of a history entry, the files, or the one item of a raw copy.
    func offer() async throws -> SelectionOffer {
        if !plan.flavours.isEmpty { return try rawOffer() }
        let options = CopyOptions(isSensitive: plan.isSensitive)
        if !plan.files.isEmpty {
            return try await .copyingFiles(plan.files.map { URL(fileURLWithPath: $0) }, cut: plan.isCut, options: options,
                                           configuration: .command)
        }
        return try await .copying([try makeItem()], options: options, configuration: .command)
    }

    /// The offer of exact flavours (`history restore`), in the plan's order.
    func rawOffer() throws -> SelectionOffer {
        SelectionOffer(try plan.flavours.map { flavour in
            let payload = payloads[flavour.payload]
            let source: SelectionOffer.DataSource = payload.size <= Self.inMemoryLimit
                ? .bytes(Data(try payload.readAll())) : .file(URL(fileURLWithPath: payload.reopenablePath))
            return SelectionOffer.Representation(
                target: SelectionTarget(rawValue: flavour.target), type: SelectionTarget(rawValue: flavour.type),
                format: flavour.format, source: source)
        })
    }

    /// The one item of a raw copy.
    func makeItem() throws -> ClipboardItem {
        var item = ClipboardItem()
        for representation in plan.representations {
            let payload = payloads[representation.payload]
            if let typeName = representation.typeName {
                guard let type = TypeName.resolve(typeName) else {
                    throw CLIFailure(status: .usage, message: "unknown type \(typeName)")
                }
                item.append(type.contentType, target: type.exactTarget, source: try source(for: payload))
                continue
            }
            // The text family. Text the bridge can hold in memory gets every target with its real
            // encoding (STRING as Latin-1, COMPOUND_TEXT); larger text, or bytes that are not UTF-8, is
            // served as is under the UTF-8 targets, streamed from disk.
            if payload.size <= Self.textConversionLimit {
                let bytes = try payload.readAll()
                if String(validating: bytes, as: UTF8.self) != nil {
                    item.append(.utf8PlainText, source: .data(Data(bytes)))
                    continue
                }
            }
            let source = try source(for: payload)
            item.append(.utf8PlainText, target: .utf8PlainText, source: source)
            item.append(.utf8PlainText, target: .utf8String, source: source)
        }
        return item
    }

    /// Small payloads from memory, large ones streamed from the descriptor through a reopenable path.
    func source(for payload: SpooledPayload) throws -> ClipboardItem.Source {
        if payload.size <= Self.inMemoryLimit { return .data(Data(try payload.readAll())) }
        return .file(URL(fileURLWithPath: payload.reopenablePath))
    }
}
