import FoundationEssentials

/// Copies one selection's content to another whenever it changes — PRIMARY to CLIPBOARD, CLIPBOARD to
/// PRIMARY, or (two of them) both ways: what autocutsel does, every flavour rather than only text.
///
/// A change is copied once it settled: after `settle`, and once no pointer button is held (a PRIMARY
/// selection still being dragged out is not copied half-way), at most `maximumWait` after the change. The
/// copy is a `SelectionSnapshot` of the source served on the destination, so it outlives the source's
/// owner. Our own claims are never copied back, so syncing both ways does not loop; sensitive content is not
/// copied; a change overtaken by a newer one is dropped.
public final class SelectionSync: Sendable {
    /// What the sync reports (SelectionCore's `SyncReport`).
    public typealias Event = SyncReport

    /// The connection it reads and serves on.
    public let connection: X11Connection
    /// The selection copied from.
    public let source: SelectionName
    /// The selection copied to.
    public let destination: SelectionName
    /// Bounds on what is copied.
    public let limits: SnapshotLimits
    /// How long the source must stay unchanged before it is copied.
    public let settle: Duration
    /// The longest a copy waits for the pointer's buttons to be released.
    public let maximumWait: Duration

    /// Creates a sync from `source` to `destination`; ``run(_:)`` starts it.
    public init(
        connection: X11Connection, from source: SelectionName, to destination: SelectionName,
        limits: SnapshotLimits = SnapshotLimits(), settle: Duration = .milliseconds(100),
        maximumWait: Duration = .seconds(30)
    ) {
        self.connection = connection
        self.source = source
        self.destination = destination
        self.limits = limits
        self.settle = settle
        self.maximumWait = maximumWait
    }

    /// Copies each settled change until the task is cancelled or the connection ends. Every decision is
    /// SelectionCore's `SyncMachine`'s; its driver (`SyncDriver`, the same for every backend) carries the actions
    /// out over this connection.
    /// - Parameter report: called with each copy or refusal.
    /// - Throws: `SelectionError` `.extensionUnavailable` (no XFixes), `.connectionLost`.
    public func run(_ report: @escaping @Sendable (Event) -> Void) async throws {
        try await SyncDriver(
            backend: X11SelectionBackend(connection), clock: ContinuousClock(), from: source, to: destination,
            limits: limits, settle: settle, maximumWait: maximumWait
        ).run(report)
    }
}
