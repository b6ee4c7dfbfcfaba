import SelectionCore
import Synchronization
import X11Selection

/// The bridge's side of `CompositorSync`: between an X display and the Wayland compositor whose XWayland it is, it
/// tells the one `BridgeDriver` which changes the compositor carries itself, that the X owners' content is read ahead,
/// and when the focus leaving X means the Wayland content is to be offered on X again. Over any other X display (no
/// compositor's window manager on it) it changes nothing.
final class CompositorCoupling: BridgeCoupling {
    let xSide: Int
    let waylandSide: Int
    let selections: [SelectionName]
    let changes: AsyncStream<(SelectionName, OwnerChangeMeaning, side: Int)>
    private let feed: AsyncStream<(SelectionName, OwnerChangeMeaning, side: Int)>.Continuation

    private struct State {
        var x: X11Connection?
        /// The compositor's window manager, when the X display is its XWayland.
        var manager: WindowManager?
        var focusWatcher: Task<Void, Never>?
        /// Whether a Wayland client's offer (not one of ours) holds each selection.
        var waylandForeign: [SelectionName: Bool] = [:]
    }

    private let state = Mutex(State())

    init(xSide: Int, waylandSide: Int, selections: [SelectionName]) {
        self.xSide = xSide
        self.waylandSide = waylandSide
        self.selections = selections
        (changes, feed) = AsyncStream.makeStream()
    }

    deinit {
        state.withLock { $0.focusWatcher?.cancel() }
        feed.finish()
    }

    func connected(_ endpoint: BridgeEndpoint, side: Int) async {
        if side == waylandSide {
            for selection in selections where endpoint.shares(selection) {
                let foreign = await endpoint.isOwned(selection)
                state.withLock { $0.waylandForeign[selection] = foreign }
            }
            return
        }
        guard side == xSide, let x = (endpoint.backend as? X11SelectionBackend)?.connection else { return }
        let manager = (try? await x.windowManager()).flatMap { $0?.isWaylandCompositor == true ? $0 : nil }
        var watcher: Task<Void, Never>?
        if let manager, let focus = try? await x.activeWindowChanges() {
            watcher = Task { [weak self] in
                for await active in focus {
                    await self?.focusChanged(hasFocus: CompositorSync.xHasFocus(activeWindow: active, windowManager: manager), x, manager)
                }
            }
        }
        state.withLock { state in
            state.focusWatcher?.cancel()
            state.x = x
            state.manager = manager
            state.focusWatcher = watcher
        }
    }

    func disconnected(side: Int) {
        guard side == xSide else { return }
        state.withLock { state in
            state.focusWatcher?.cancel()
            state.focusWatcher = nil
            state.x = nil
            state.manager = nil
        }
    }

    func meaning(of change: BridgeEndpoint.Change, on side: Int) async -> OwnerChangeMeaning? {
        if side == waylandSide { state.withLock { $0.waylandForeign[change.selection] = change.meaning == .newOwner } }
        guard let (x, manager) = state.withLock({ state in state.x.flatMap { x in state.manager.map { (x, $0) } } }) else {
            return nil
        }
        let focused = await Self.xHasFocus(x, manager)
        if side == xSide {
            let ownerIsManager = (change.owner as? X11Window).map(manager.madeWindow) ?? false
            return CompositorSync.xChange(meaning: change.meaning, ownerIsWindowManager: ownerIsManager, xHasFocus: focused)
        }
        guard side == waylandSide, change.meaning != .ours else { return nil }
        return CompositorSync.waylandOffer(xHasFocus: focused)
    }

    func readsAhead(on side: Int) -> Bool {
        side == xSide && state.withLock { $0.manager != nil }
    }

    /// Whether an X window has the focus now, as the compositor's window manager tells it.
    private static func xHasFocus(_ x: X11Connection, _ manager: WindowManager) async -> Bool {
        CompositorSync.xHasFocus(activeWindow: (try? await x.activeWindow()) ?? nil, windowManager: manager)
    }

    /// The focus left X (or came to it): the Wayland content the compositor holds on X is offered there again by the
    /// bridge where `CompositorSync.reoffersOnX(xHasFocus:xOwnerIsWindowManager:waylandHasForeignOffer:)` says so.
    private func focusChanged(hasFocus: Bool, _ x: X11Connection, _ manager: WindowManager) async {
        for selection in selections {
            let foreign = state.withLock { $0.waylandForeign[selection] ?? false }
            let owner = (try? await x.owner(of: selection)) ?? nil
            guard CompositorSync.reoffersOnX(
                xHasFocus: hasFocus, xOwnerIsWindowManager: owner.map(manager.madeWindow) ?? false, waylandHasForeignOffer: foreign)
            else { continue }
            feed.yield((selection, .newOwner, side: waylandSide))
        }
    }
}
