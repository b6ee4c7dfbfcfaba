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
    /// `SyncMachine`'s; this task carries its actions out, one event at a time.
    /// - Parameter report: called with each copy or refusal.
    /// - Throws: `SelectionError` `.extensionUnavailable` (no XFixes), `.connectionLost`.
    public func run(_ report: @escaping @Sendable (Event) -> Void) async throws {
        let changes = try await connection.ownerChanges(of: [source])
        let (inputs, feed) = AsyncStream<Input>.makeStream()
        let changeFeeder = Task {
            do {
                for try await change in changes { feed.yield(.machine(.changed(change.meaning, now: .now))) }
                feed.yield(.changesEnded(nil))
            } catch {
                feed.yield(.changesEnded(error))
            }
        }
        var machine = Machine(from: source, to: destination, settle: settle, maximumWait: maximumWait)
        /// What the current generation waits for (a look at the pointer, a read), by generation.
        var work: [Int: Task<Void, Never>] = [:]
        defer {
            changeFeeder.cancel()
            feed.finish()
            for task in work.values { task.cancel() }
        }
        for await input in inputs {
            guard case .machine(let event) = input else {
                if case .changesEnded(let error?) = input { throw error }
                return
            }
            var queue = machine.handle(event)[...]
            while let action = queue.popFirst() {
                switch action {
                case .cancel(let generation):
                    work.removeValue(forKey: generation)?.cancel()
                case .look(let generation, let delay):
                    work[generation] = Task {
                        if let delay { do { try await Task.sleep(for: delay) } catch { return } }
                        let held = (try? await connection.isPointerButtonHeld()) ?? false
                        feed.yield(.machine(.looked(generation: generation, buttonHeld: held, now: .now)))
                    }
                case .read(let generation):
                    work[generation] = Task {
                        let result: Result<(KeptSnapshot, KeptFacts), Machine.ReadFailure>
                        do {
                            let snapshot = try await connection.snapshot(source, limits: limits)
                            result = .success((KeptSnapshot(snapshot), KeptFacts(snapshot)))
                        } catch {
                            result = .failure(.init(reason: "\(error)"))
                        }
                        // Cancelled: a newer change overtook it, and the machine would drop it.
                        if !Task.isCancelled { feed.yield(.machine(.read(generation: generation, result))) }
                    }
                case .claim(let generation, let kept):
                    work[generation] = nil
                    let result: Result<Int, Machine.ReadFailure>
                    do {
                        // Anything but a claim drops `kept`, and with it the spooled files.
                        kept.holdWhileServing(try await connection.claim(destination, offering: kept.snapshot.offer))
                        result = .success(kept.snapshot.flavours.count)
                    } catch {
                        result = .failure(.init(reason: "\(error)"))
                    }
                    queue = machine.handle(.claimEnded(generation: generation, result)) + queue
                case .report(let event):
                    report(event)
                }
            }
        }
    }

    typealias Machine = SyncMachine<KeptSnapshot>

    private enum Input: Sendable {
        case machine(Machine.Event)
        case changesEnded((any Error)?)
    }
}
