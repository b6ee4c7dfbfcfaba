/// Copies each settled change of one selection to another (the autocutsel job: PRIMARY ↔ CLIPBOARD) over any
/// ``SelectionBackend``. Every decision is ``SyncMachine``'s; this task carries its actions out, one event at a time:
/// owner changes come from the backend, the waits run on `clock` (a manual one in the unit tests), reads and
/// claims go to the backend, and each outcome comes back as the machine's next event, stamped with its generation.
package struct SyncDriver<Backend: SelectionBackend, TaskClock: Clock<Duration>>: Sendable {
    package let backend: Backend
    package let clock: TaskClock
    package let source: SelectionName
    package let destination: SelectionName
    package let limits: SnapshotLimits
    package let settle: Duration
    package let maximumWait: Duration

    package init(
        backend: Backend, clock: TaskClock, from source: SelectionName, to destination: SelectionName,
        limits: SnapshotLimits, settle: Duration, maximumWait: Duration
    ) {
        self.backend = backend
        self.clock = clock
        self.source = source
        self.destination = destination
        self.limits = limits
        self.settle = settle
        self.maximumWait = maximumWait
    }

    typealias Machine = SyncMachine<Backend.Kept, TaskClock.Instant>

    private enum Input: Sendable {
        case machine(Machine.Event)
        case changesEnded((any Error)?)
    }

    /// Copies each settled change until the task is cancelled or the backend's owner changes end.
    /// - Parameter report: called with each copy or refusal.
    /// - Throws: what the backend's owner changes throw (a lost connection), or why they could not start.
    package func run(_ report: @escaping @Sendable (SyncReport) -> Void) async throws {
        let changes = try await backend.ownerChanges(of: [source])
        let (inputs, feed) = AsyncStream<Input>.makeStream()
        let clock = clock
        let changeFeeder = Task {
            do {
                for try await change in changes { feed.yield(.machine(.changed(change.meaning, now: clock.now))) }
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
                    work[generation] = Task { [backend] in
                        if let delay { do { try await clock.sleep(for: delay) } catch { return } }
                        // A backend that cannot see the pointer lets the settle time alone decide.
                        let held = await backend.isPointerButtonHeld() ?? false
                        feed.yield(.machine(.looked(generation: generation, buttonHeld: held, now: clock.now)))
                    }
                case .read(let generation):
                    work[generation] = Task { [backend, source, limits] in
                        let result: Result<(Backend.Kept, KeptFacts), Machine.ReadFailure>
                        do {
                            result = .success(try await backend.snapshot(of: source, SnapshotRequest(limits: limits)))
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
                        result = .success(try await backend.claim(destination, with: kept))
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
}
