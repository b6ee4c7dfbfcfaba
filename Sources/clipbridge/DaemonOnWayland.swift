// ClipBridge — the clipbridge command-line tool.
// `clipbridge daemon` on a Wayland compositor: the same keepers, sync and history over data-control.

import ClipBridge
import ClipBridgeOptions
import ClipHistory
import FoundationEssentials
import Glibc
import Logging
import SelectionCore
import Synchronization
import WaylandBridge
import WaylandSelection
import X11Selection

extension Daemon {
    /// Keeps the selections of compositor `name` (nil: `$WAYLAND_DISPLAY`) through data-control until SIGINT or
    /// SIGTERM (status 0) or the compositor's end (5): each selection's keeper (`KeeperDriver`, the one X runs)
    /// reads every flavour of every copy, restores them when the source's client exits, records one history entry per
    /// copy; the sync copies PRIMARY ↔ CLIPBOARD after its settle time (Wayland has no pointer to wait for).
    ///
    /// What Wayland has not, the daemon does not pretend: no manager selection (a client's copy is not handed over;
    /// it is kept from the moment it is made), no owner identity (the validation hook's CLIPBRIDGE_OWNER is empty).
    /// The rules (`--rule`) rewrite kept content when the daemon serves it, as on X.
    /// One daemon per compositor: a second one refuses to start unless `--replace`, which stops the first.
    func keepOnWayland(
        _ name: String?, settings: DaemonSettings, limits: SnapshotLimits, recorder: HistoryRecorder?, log: Logger
    ) async throws {
        let display = DaemonStatus.displayName(displayOptions.display)
        try Self.takeOver(display: display, replacing: settings.replace, log: log)
        let backend = try await WaylandSelectionBackend.open(name, timeout: settings.timeout.duration)
        let names = settings.selections.filter { selection in
            guard backend.shares(selection) else {
                log.warning("\(selection.rawValue): the compositor does not share it; not kept")
                return false
            }
            return true
        }
        let statusFile = DaemonStatusFile(display: displayOptions.display, manager: false, selections: names)
        defer { statusFile.remove() }
        let hook = settings.validate.map { ValidationHook(command: $0, timeout: settings.validateTimeout.duration) }
        let validator = { (selection: SelectionName) -> KeeperDriver<WaylandSelectionBackend>.Validator? in
            guard let hook else { return nil }
            return { (_: Int?, kept: WaylandSelectionBackend.Kept) async -> KeeperVerdict in
                let (verdict, problem) = await hook.judge(kept.snapshot(of: selection), owner: nil)
                if let problem { log.warning("validate \(selection.rawValue): \(problem); accepted") }
                return verdict
            }
        }
        // The rules see the kept content as a snapshot named as Wayland names it (text under its MIME types and wl-copy's
        // X names); what they serve is named for Wayland clients as a copy's offer is.
        let contentRewriter = settings.rule.isEmpty ? nil : ContentRewriter(
            rules: Set(settings.rule), extraTrackingParameters: settings.stripParameter, converters: .command)
        let rewriter = { (selection: SelectionName) -> KeeperDriver<WaylandSelectionBackend>.Rewriter? in
            guard let contentRewriter else { return nil }
            return { (kept: WaylandSelectionBackend.Kept) async -> (offer: WaylandSelectionBackend.Offer, changes: [String]) in
                let rewrite = await contentRewriter.rewrite(kept.snapshot(of: selection))
                return (.rewritten(rewrite.offer, of: kept), rewrite.changes)
            }
        }
        // The backend in use, which a stop request shuts down (ending every keeper).
        let current = Mutex<(backend: WaylandSelectionBackend?, stopped: Bool)>((backend, false))
        try await Signals.stopping(with: {
            let backend = current.withLock { state -> WaylandSelectionBackend? in
                state.stopped = true
                return state.backend
            }
            await backend?.shutdown()
        }) {
            var backend = backend
            while true {
                // The keepers end with the connection (a stop request shuts it down, too).
                var lost = WaylandError(.connectionLost, "the compositor closed the connection")
                do {
                    try await keep(names, on: backend, settings: settings, limits: limits, recorder: recorder,
                                   validator: validator, rewriter: rewriter, statusFile: statusFile, log: log, display: display)
                } catch let error as WaylandError where error.code == .connectionLost {
                    lost = error
                } catch where !current.withLock({ $0.stopped }) {
                    throw error
                }
                if current.withLock({ $0.stopped }) { return }
                // Connected again (CompositorReconnect decides when, and when the compositor is gone: status 5), the
                // keepers start over from the current selections.
                var failures = 0
                var lastError: WaylandError?
                var reconnected: WaylandSelectionBackend?
                while reconnected == nil, !current.withLock({ $0.stopped }) {
                    guard case .retry(let wait) = CompositorReconnect.next(failures: failures, lastError: lastError) else {
                        throw lost
                    }
                    try? await Task.sleep(for: wait)
                    do {
                        reconnected = try await WaylandSelectionBackend.open(name, timeout: settings.timeout.duration)
                    } catch {
                        if failures == 0 { log.notice("the compositor dropped the connection; connecting again: \(error)") }
                        lastError = error as? WaylandError ?? WaylandError(.connectionLost, "\(error)")
                        failures += 1
                    }
                }
                guard let again = reconnected else { return }
                log.notice("the compositor dropped the connection; connected again")
                backend = again
                let stopped = current.withLock { state in
                    state.backend = again
                    return state.stopped
                }
                if stopped { return await again.shutdown() }
            }
        }
    }

    /// Runs the keepers and syncs on `backend` until one ends (the connection's end, or a stop request).
    private func keep(
        _ names: [SelectionName], on backend: WaylandSelectionBackend, settings: DaemonSettings, limits: SnapshotLimits,
        recorder: HistoryRecorder?, validator: (SelectionName) -> KeeperDriver<WaylandSelectionBackend>.Validator?,
        rewriter: (SelectionName) -> KeeperDriver<WaylandSelectionBackend>.Rewriter?, statusFile: DaemonStatusFile, log: Logger,
        display: String
    ) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (from, to) in settings.sync?.pairs ?? [] where names.contains(from) && names.contains(to) {
                let sync = SyncDriver(backend: backend, clock: ContinuousClock(), from: from, to: to, limits: limits,
                                      settle: .milliseconds(100), maximumWait: .seconds(30))
                group.addTask { try await sync.run { Self.log($0, to: log) } }
            }
            for selection in names {
                let records = recorder.flatMap { recorder -> KeeperDriver<WaylandSelectionBackend>.Recorder? in
                    guard recorder.policy.records(selection) else { return nil }
                    return { _, kept in
                        recorder.record(RecordedCopy(selection: selection, ownerClass: nil,
                                                     snapshot: kept.snapshot(of: selection), files: kept))
                    }
                }
                let keeper = KeeperDriver(backend: backend, selection: selection, limits: limits,
                                          timeout: settings.timeout.duration, validator: validator(selection),
                                          rewriter: rewriter(selection), recorder: records)
                group.addTask {
                    try await keeper.run(manager: nil) { event in
                        statusFile.update(event)
                        Self.log(event, to: log)
                    }
                }
            }
            log.info("keeping \(names.map(\.rawValue).joined(separator: ", ")) on \(display) (\(backend.connection.dataControlProtocol))")
            try await group.next()
            group.cancelAll()
        }
    }

    /// Refuses to start beside another clipbridge daemon of this compositor (two would restore and record every copy
    /// twice), unless `replacing`: then it stops that one and waits up to 3 s for it to go.
    private static func takeOver(display: String, replacing: Bool, log: Logger) throws {
        guard let running = DaemonStatus.read(for: display) else { return }
        guard replacing else {
            throw CLIFailure(status: .ownershipFailed,
                             message: "another clipbridge daemon (pid \(running.pid)) keeps \(display) (--replace takes over)")
        }
        kill(running.pid, SIGTERM)
        let deadline = ContinuousClock.now + .seconds(3)
        while DaemonStatus.read(for: display) != nil, ContinuousClock.now < deadline { usleep(20_000) }
        log.info("replaced the clipbridge daemon \(running.pid)")
    }
}
