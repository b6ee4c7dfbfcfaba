import Synchronization
import X11Selection

/// One clipboard between an X display and a Wayland compositor: the X side of a mixed session (X apps under
/// XWayland, or a separate X server) and the Wayland side kept in sync, both ways, for CLIPBOARD and PRIMARY —
/// lazily, every type, any size, without echo.
///
/// The same promises as `SelectionBridge` between X displays, decided by the same machine (`BridgeMachine`):
/// nothing is read before a paste; each paste on one side converts on the other at that moment and streams across
/// (INCR on the X side, the pipe on the Wayland side, bounded memory); the owner's order is kept; types cross by
/// name, and text as each side names it (``WaylandTypeMapping``); the sensitive hint (`x-kde-passwordManagerHint`)
/// is carried, and such content crosses only with `includeSensitive`; the bridge's own claims are never bridged
/// back, nor another bridge's (both sides' claims carry a mark, also as a MIME type, which the compositors' own
/// XWayland sync passes on); a side that goes away — the X server, or a compositor that stops or restarts — is
/// retried with backoff while the other goes on, and given the current content when it comes back.
///
/// The Wayland side goes through a data-control protocol: `ext_data_control_manager_v1` where the compositor offers
/// it (wlroots 0.19 and later, KWin 6), else `zwlr_data_control_manager_v1` (older wlroots: sway, Hyprland, river,
/// labwc, Wayfire); a compositor with neither (GNOME's Mutter) is reported, and retried.
public final class X11WaylandBridge: Sendable {
    /// The X display, as given (`:0`).
    public let xDisplay: String
    /// The Wayland display: a name in `$XDG_RUNTIME_DIR` (`wayland-1`) or a socket path; nil for `$WAYLAND_DISPLAY`.
    public let waylandDisplay: String?
    /// The selections kept in sync (SECONDARY has no Wayland counterpart and stays on X).
    public let selections: [SelectionName]
    /// Bridge content marked sensitive too.
    public let includeSensitive: Bool
    /// The X connection's settings; its `readTimeout` bounds each wait on either side.
    public let configuration: Configuration
    /// The longest wait between attempts to reach a side that went away.
    public let maximumRetryDelay: Duration
    /// The data-control protocol of the compositor's connection, once one is open (see
    /// `WaylandConnection.dataControlProtocol`); it is set before the compositor's `.connected` is reported.
    public var dataControlProtocol: String? { protocolInUse.withLock { $0 } }
    let protocolInUse = Mutex<String?>(nil)

    /// Creates a bridge; ``run(_:)`` starts it.
    public init(
        xDisplay: String, waylandDisplay: String?, selections: [SelectionName] = [.clipboard, .primary],
        includeSensitive: Bool = false, configuration: Configuration = .init(), maximumRetryDelay: Duration = .seconds(5)
    ) {
        self.xDisplay = xDisplay
        self.waylandDisplay = waylandDisplay
        self.selections = selections
        self.includeSensitive = includeSensitive
        self.configuration = configuration
        self.maximumRetryDelay = maximumRetryDelay
    }

    /// The two sides as reports name them: the X display, and the Wayland display as `wayland:NAME`.
    public var sideNames: [String] {
        [xDisplay, "wayland:" + (waylandDisplay ?? "$WAYLAND_DISPLAY")]
    }

    /// Runs the bridge until the task is cancelled; then releases what it holds on both sides and closes its
    /// connections. Never ends because a side went away.
    /// - Parameter report: called with each event (the same events as `SelectionBridge`'s), from any task.
    public func run(_ report: @escaping @Sendable (SelectionBridge.Event) -> Void) async {
        let coordinator = X11WaylandCoordinator(bridge: self, report: report)
        // The X side first: at start, its owner is the source when both sides have one (as the first display named
        // is between X displays).
        let first = await coordinator.connectX()
        await withTaskCancellationHandler {
            await withTaskGroup(of: Void.self) { group in
                group.addTask { await coordinator.drive() }
                group.addTask { await coordinator.maintainX(from: first) }
                group.addTask { await coordinator.maintainWayland() }
            }
        } onCancel: {
            coordinator.close()
        }
    }
}
