import FoundationEssentials
import Glibc

/// One clipboard across X displays: keeps selections in sync between two or more X servers — a nested Xephyr
/// or Xpra session, a VNC or x2go desktop, a container's or a VM's X server, a display forwarded over ssh.
///
/// When an app on one display takes a selection, the bridge takes it on every other display, offering the
/// same targets in the same order, less what cannot cross servers (see `BridgePolicy`: meta targets, resource
/// IDs, side-effect targets). Nothing is copied ahead: each paste on another display converts on the source
/// display at that moment and is relayed as it streams (``SelectionOffer/DataSource/relay(_:)``) — INCR on
/// both sides, the two transfers in a pipeline, at most `Configuration.streamBufferLimit` bytes in between.
///
/// Rules:
/// - **No loops**: the bridge's own claims are never bridged back.
/// - **No stale data**: when the source's owner goes with no successor, the other displays are released;
///   a paste whose source changed or vanished while it ran is refused if it had not started, and otherwise
///   ends without INCR's end marker, so a partial reply is never presented as complete.
/// - **Sensitive content** (`x-kde-passwordManagerHint`) crosses only with `includeSensitive`; without it the
///   other displays are released, so they do not go on pasting what came before.
/// - **Displays come and go**: a display that cannot be reached is retried with backoff (250 ms doubling to
///   `maximumRetryDelay`) while the others go on; when it comes back it is offered the current content.
/// - At start, the first display named whose selection has an owner is the source.
///
/// What it does not do: keep content whose owner exited without a clipboard manager — run `clipbridge daemon`
/// (``SelectionKeeper``) on the displays whose apps may exit; the bridge relays the manager's copy when it takes
/// over. Targets whose replies are atoms or resource IDs are refused (they name things of the source server).
public final class SelectionBridge: Sendable {
    /// What the bridge reports (SelectionCore's `BridgeReport`).
    public typealias Event = BridgeReport

    /// The displays bridged, as given (`:0`, `localhost:10.0`, …).
    public let displays: [String]
    /// The selections kept in sync.
    public let selections: [SelectionName]
    /// Bridge content marked sensitive too.
    public let includeSensitive: Bool
    /// The connections' settings (timeouts, INCR sizes).
    public let configuration: Configuration
    /// The longest wait between attempts to reach a display that went away.
    public let maximumRetryDelay: Duration

    /// Creates a bridge between `displays` (two or more); ``run(_:)`` starts it.
    public init(
        displays: [String], selections: [SelectionName] = [.clipboard, .primary], includeSensitive: Bool = false,
        configuration: Configuration = .init(), maximumRetryDelay: Duration = .seconds(5)
    ) {
        self.displays = displays
        self.selections = selections
        self.includeSensitive = includeSensitive
        self.configuration = configuration
        self.maximumRetryDelay = maximumRetryDelay
    }

    /// Runs the bridge until the task is cancelled; then releases every selection it holds and closes its
    /// connections. Never ends because a display went away.
    /// - Parameter report: called with each event, from any task.
    public func run(_ report: @escaping @Sendable (Event) -> Void) async {
        let configuration = configuration
        let driver = BridgeDriver(
            sides: displays.map { display in
                BridgeDriver.Side(name: display) {
                    BridgeEndpoint(try await X11SelectionBackend.open(display, configuration: configuration))
                }
            },
            selections: selections, includeSensitive: includeSensitive, timeout: configuration.readTimeout,
            maximumRetryDelay: maximumRetryDelay, markBytes: Data("clipbridge bridge \(getpid())".utf8), report: report)
        await driver.run()
    }
}
