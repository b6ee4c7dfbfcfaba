import ClipboardLink
import FoundationEssentials
import Glibc
import SelectionCore
import Synchronization
import WaylandSelection
import X11Selection

/// One clipboard across any displays: X displays and Wayland compositors, two or more, in any mix — X ↔ X (a nested
/// Xephyr, a VNC desktop, a display forwarded over ssh), X ↔ Wayland (the X side of a mixed session, XWayland or a
/// separate X server), Wayland ↔ Wayland (two compositors) — kept in sync both ways, for CLIPBOARD and PRIMARY (and
/// SECONDARY between X displays): lazily, every type, any size, without echo.
///
/// The same promises as `SelectionBridge` between X displays, decided by the same machine (`BridgeMachine`) and
/// carried out by the same driver (`BridgeDriver`): nothing is read before a paste; each paste on one display
/// converts on the source display at that moment and streams across (INCR on an X side, the pipe on a Wayland side,
/// bounded memory); the owner's order is kept; types cross by name, and text as each side names it
/// (``WaylandTypeMapping``) where an X display and a compositor meet; the sensitive hint (`x-kde-passwordManagerHint`)
/// is carried, and such content crosses only with `includeSensitive`; the bridge's own claims are never bridged back,
/// nor another bridge's (every claim carries a mark, also as a MIME type, which the compositors' own XWayland sync
/// passes on); a display that goes away — an X server, or a compositor that stops or restarts — is retried with
/// backoff while the others go on, and given the current content when it comes back.
///
/// Between one X display and one compositor, what the compositor carries itself when that display is its own XWayland
/// is left to it (`CompositorSync`).
///
/// A Wayland side goes through a data-control protocol: `ext_data_control_manager_v1` where the compositor offers it
/// (wlroots 0.19 and later, KWin 6), else `zwlr_data_control_manager_v1` (older wlroots: sway, Hyprland, river, labwc,
/// Wayfire; KWin 5.27); a compositor with neither (GNOME's Mutter, Weston) is reported, and retried.
public final class DisplayBridge: Sendable {
    /// A display the bridge joins.
    public enum Display: Sendable, Equatable {
        /// An X display, as given (`:0`, `localhost:10.0`).
        case x11(String)
        /// A Wayland compositor: a socket name in `$XDG_RUNTIME_DIR` (`wayland-1`) or a path; nil for
        /// `$WAYLAND_DISPLAY`.
        case wayland(String?)
        /// Another machine's clipboard, through a link to the `clipbridge` there (issue 41).
        case link(LinkedMachine)

        /// The display as reports name it: an X display as given, a compositor as `wayland:NAME`, a machine as its
        /// link is named (`ssh:host`).
        public var name: String {
            switch self {
            case .x11(let display): display
            case .wayland(let socket): "wayland:" + (socket ?? "$WAYLAND_DISPLAY")
            case .link(let machine): machine.name
            }
        }
    }

    /// The displays bridged, in the order given: at start, the first one whose selection has an owner is the source.
    public let displays: [Display]
    /// The selections kept in sync (a compositor has no SECONDARY; it stays between the X displays).
    public let selections: [SelectionName]
    /// Bridge content marked sensitive too.
    public let includeSensitive: Bool
    /// The X connections' settings; its `readTimeout` bounds each wait on every side.
    public let configuration: Configuration
    /// The longest wait between attempts to reach a display that went away.
    public let maximumRetryDelay: Duration
    /// This program and its version, as a link's hello names it to the far end.
    public let software: String
    private let protocols = Mutex<[Int: String]>([:])

    /// Creates a bridge between `displays` (two or more); ``run(_:)`` starts it.
    public init(
        displays: [Display], selections: [SelectionName] = [.clipboard, .primary], includeSensitive: Bool = false,
        configuration: Configuration = .init(), maximumRetryDelay: Duration = .seconds(5), software: String = "clipbridge"
    ) {
        self.software = software
        self.displays = displays
        self.selections = selections
        self.includeSensitive = includeSensitive
        self.configuration = configuration
        self.maximumRetryDelay = maximumRetryDelay
    }

    /// The data-control protocol a compositor's connection speaks (see `WaylandConnection.dataControlProtocol`), once
    /// it is open: set before that display's `.connected` is reported. Nil for an X display.
    public func dataControlProtocol(of display: Int) -> String? {
        protocols.withLock { $0[display] }
    }

    /// Runs the bridge until the task is cancelled; then releases what it holds everywhere and closes its
    /// connections. Never ends because a display went away.
    /// - Parameter report: called with each event (the same events as `SelectionBridge`'s), from any task.
    public func run(_ report: @escaping @Sendable (BridgeReport) -> Void) async {
        let timeout = configuration.readTimeout
        let sides = displays.enumerated().map { index, display in
            switch display {
            case .x11(let name):
                let configuration = configuration
                return BridgeDriver.Side(name: display.name) {
                    BridgeEndpoint(try await X11SelectionBackend.open(name, configuration: configuration))
                }
            case .wayland(let socket):
                return BridgeDriver.Side(name: display.name) { [self] in
                    let backend = try await WaylandSelectionBackend.open(socket, timeout: timeout)
                    self.protocols.withLock { $0[index] = backend.connection.dataControlProtocol }
                    return BridgeEndpoint(backend)
                }
            case .link(let machine):
                // The far end is told how this end's first display names flavours; what it announces is named so.
                let firstDisplay = displays.first { if case .link = $0 { false } else { true } }
                let naming: FlavourNaming = if case .wayland = firstDisplay { .mimeTypes } else { .x11Targets }
                let hello = LinkMessage.Hello(naming: naming, software: software)
                return BridgeDriver.Side(name: display.name) {
                    let transport = try await machine.open()
                    let peer = try await LinkPeer.open(
                        transport, name: machine.name, role: machine.role, hello: hello, timeout: timeout,
                        handshakeTimeout: machine.handshakeTimeout)
                    // The far end that started the link has its content offered here first (LinkPolicy.Role).
                    if machine.role == .responder { await peer.waitUntilSettled(machine.handshakeTimeout) }
                    return peer.endpoint
                }
            }
        }
        // CompositorSync was measured between one X display and one compositor.
        var coupling: CompositorCoupling?
        let xSides = displays.indices.filter { if case .x11 = displays[$0] { true } else { false } }
        let waylandSides = displays.indices.filter { if case .wayland = displays[$0] { true } else { false } }
        if xSides.count == 1, waylandSides.count == 1 {
            coupling = CompositorCoupling(xSide: xSides[0], waylandSide: waylandSides[0], selections: selections)
        }
        let driver = BridgeDriver(
            sides: sides, selections: selections, includeSensitive: includeSensitive, timeout: timeout,
            maximumRetryDelay: maximumRetryDelay, translation: WaylandTypeMapping.translation, coupling: coupling,
            markBytes: Data("clipbridge bridge \(getpid())".utf8), report: report)
        await driver.run()
    }
}
