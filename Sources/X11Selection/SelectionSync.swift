import FoundationEssentials

/// Copies one selection's content to another whenever it changes — PRIMARY to CLIPBOARD, CLIPBOARD to
/// PRIMARY, or (two of them) both ways: what autocutsel does, every flavour rather than only text.
///
/// A change is copied once it settled: after `settle`, and once no pointer button is held (a PRIMARY
/// selection still being dragged out is not copied half-way), at most `maximumWait` after the change. The
/// copy is a ``SelectionSnapshot`` of the source served on the destination, so it outlives the source's
/// owner. Our own claims are never copied back, so syncing both ways does not loop; sensitive content is not
/// copied; a change overtaken by a newer one is dropped.
public final class SelectionSync: Sendable {
    /// What the sync did.
    public enum Event: Sendable, Equatable {
        /// The source's content, with this many flavours, now serves the destination.
        case copied(from: SelectionName, to: SelectionName, flavours: Int)
        /// The source's content was not copied, and why (sensitive, unreadable, nothing offered).
        case notCopied(from: SelectionName, to: SelectionName, reason: String)
    }

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

    /// Copies each settled change until the task is cancelled or the connection ends.
    /// - Parameter report: called with each copy or refusal.
    /// - Throws: `SelectionError` `.extensionUnavailable` (no XFixes), `.connectionLost`.
    public func run(_ report: @escaping @Sendable (Event) -> Void) async throws {
        let changes = try await connection.ownerChanges(of: [source])
        var pending: Task<Void, Never>?
        defer { pending?.cancel() }
        for try await change in changes where SyncPolicy.copies(change) {
            // A newer change overtakes one still settling (or being read).
            pending?.cancel()
            pending = Task { await copyWhenSettled(report) }
        }
    }

    private func copyWhenSettled(_ report: @escaping @Sendable (Event) -> Void) async {
        let start = ContinuousClock.now
        while case .wait(let interval) = SyncPolicy.step(
            waited: start.duration(to: .now), buttonHeld: (try? await connection.isPointerButtonHeld()) ?? false,
            settle: settle, maximumWait: maximumWait)
        {
            do { try await Task.sleep(for: interval) } catch { return }
        }
        let kept: KeptSnapshot
        do {
            kept = KeptSnapshot(try await connection.snapshot(source, limits: limits))
        } catch {
            if !Task.isCancelled { report(.notCopied(from: source, to: destination, reason: "\(error)")) }
            return
        }
        // Anything but a claim drops `kept`, and with it the spooled files.
        if Task.isCancelled { return }
        let snapshot = kept.snapshot
        guard !snapshot.isSensitive, !snapshot.flavours.isEmpty else {
            let reason = snapshot.isSensitive ? "the content is marked sensitive" : "nothing could be read"
            report(.notCopied(from: source, to: destination, reason: reason))
            return
        }
        do {
            kept.holdWhileServing(try await connection.claim(destination, offering: snapshot.offer))
            report(.copied(from: source, to: destination, flavours: snapshot.flavours.count))
        } catch {
            report(.notCopied(from: source, to: destination, reason: "\(error)"))
        }
    }
}
