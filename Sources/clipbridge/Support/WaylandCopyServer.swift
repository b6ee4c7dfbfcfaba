// ClipBridge — the clipbridge command-line tool.
// Owning a Wayland compositor's selection and serving a copy from it, through data-control.

import ClipBridge
import ClipBridgeOptions
import FoundationEssentials
import SelectionCore
import Synchronization
import WaylandBridge
import WaylandSelection
import X11Selection

/// Serves one `CopyPlan` on a compositor's selection until another client replaces it, the loop count is reached,
/// or SIGINT/SIGTERM — `CopyServer`'s job where the display is a Wayland compositor.
///
/// The offer is the one a copy makes on X (`SelectionOffer.copying`), named for Wayland clients by the bridge's
/// translation; the --loops rule is `CopyServer`'s (Wayland does not say who asks, so any paste within the grace
/// window of the last one counts once). After the selection is lost or released, the pastes already asked for are
/// written to their end before the server returns: a requestor is never left with a cut transfer.
struct WaylandCopyServer: Sendable {
    /// What to offer.
    var server: CopyServer
    /// The compositor: a socket name or path; nil: `$WAYLAND_DISPLAY`.
    var compositor: String?

    /// Owns the selection, calls `ready` once (with success or the failure), then serves.
    func run(ready: (Result<Void, CLIFailure>) -> Void) async -> CopyServer.Ending? {
        MIMEDatabase.restrict()
        let selection = SelectionName(rawValue: server.plan.selection)
        let signals = Signals.terminationRequests()
        let shown = compositor.map { "wayland:\($0)" }
        let backend: WaylandSelectionBackend
        do {
            backend = try await WaylandSelectionBackend.open(compositor)
        } catch {
            ready(.failure(CLIFailure(error, display: shown, selection: selection)))
            return nil
        }
        let (events, continuation) = AsyncStream<CopyServer.PasteEvent>.makeStream()
        let pastes = PastesInFlight(continuation)
        let changes: AsyncThrowingStream<BackendOwnerChange<WaylandSelectionBackend.Terms>, any Error>
        do {
            // Followed before the claim, so a replacement that comes at once is not missed.
            changes = try await backend.ownerChanges(of: [selection])
            let flavours = server.plan.flavours.map(\.target)
            let asKept = !flavours.isEmpty && WaylandTypeMapping.servesAsKept(flavours)
            let offer = RelayOffer(servingOnWayland: try await server.offer(), asKept: asKept, inFlight: pastes.add) { outcome in
                if case .served = outcome { continuation.yield(.served(requestor: 0)) }
            }
            try await backend.claim(selection, relaying: offer)
        } catch {
            ready(.failure(CLIFailure(error, display: shown, selection: selection)))
            await backend.shutdown()
            return nil
        }
        ready(.success(()))

        let compositorGone = Mutex(false)
        let follower = Task {
            var ours = false, replaced = false
            do {
                for try await change in changes {
                    // Changes before our claim's own echo are the previous owner's.
                    if change.meaning == .ours { ours = true; continue }
                    if ours { replaced = true; break }
                }
            } catch {}
            if !replaced && !Task.isCancelled { compositorGone.withLock { $0 = true } }
            // Replaced, released, or the compositor gone: the pastes asked for still end.
            continuation.yield(.lost)
            pastes.endWhenIdle()
        }
        defer { follower.cancel() }
        let loops = server.plan.loops
        let ending = await CopyServer.serve(until: signals) {
            await CopyServer.serve(events, loops: loops) { await backend.release(selection) }
        }
        if ending.isSignal { await backend.release(selection) }
        await backend.shutdown()
        return ending == .ownershipLost && compositorGone.withLock({ $0 }) ? .connectionEnded : ending
    }
}

/// The pastes being written, so that a server that lost its selection ends only when they have.
private final class PastesInFlight: Sendable {
    private let state = Mutex((count: 0, ending: false))
    private let continuation: AsyncStream<CopyServer.PasteEvent>.Continuation

    init(_ continuation: AsyncStream<CopyServer.PasteEvent>.Continuation) {
        self.continuation = continuation
    }

    /// One paste started (+1) or ended (−1).
    func add(_ change: Int) {
        let done = state.withLock { state in
            state.count += change
            return state.ending && state.count == 0
        }
        if done { continuation.finish() }
    }

    /// Finishes the events once no paste is being written.
    func endWhenIdle() {
        let done = state.withLock { state in
            state.ending = true
            return state.count == 0
        }
        if done { continuation.finish() }
    }
}
