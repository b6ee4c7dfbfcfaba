// clipbridge-bench watch-latency: owner-change notifications (the counterpart of Benchmarks/c/watcher.c).

import Synchronization
import X11Selection

/// Watches the selection, prints READY once the server reports changes to us, then prints
/// "CHANGE <owner window> <CLOCK_MONOTONIC ns>" for each of `--count` changes, taking the time when the change
/// reaches this code (what an application sees). Stops early if no change comes for 3 s after the first, and
/// after 60 s in any case.
func runWatchLatency(_ options: BenchOptions) async throws {
    let connection = try await X11Connection.open(configuration: options.configuration)
    let changes = try await connection.ownerChanges(of: [options.selection])
    say("READY")
    let seen = Mutex<[(owner: UInt, time: Int64)]>([])
    let collector = Task {
        for try await change in changes {
            let time = monotonicNanoseconds()
            let count = seen.withLock {
                $0.append((change.owner?.rawValue ?? 0, time))
                return $0.count
            }
            if count >= options.count { return }
        }
    }
    var lastCount = 0
    var lastProgress = monotonicNanoseconds()
    let started = lastProgress
    while monotonicNanoseconds() - started < 60_000_000_000 {
        try await Task.sleep(for: .milliseconds(20))
        let count = seen.withLock { $0.count }
        if count >= options.count { break }
        if count != lastCount {
            lastCount = count
            lastProgress = monotonicNanoseconds()
        } else if count > 0 && monotonicNanoseconds() - lastProgress > 3_000_000_000 {
            break
        }
    }
    collector.cancel()
    for change in seen.withLock({ $0 }) {
        say("CHANGE \(change.owner) \(change.time)")
    }
    await connection.shutdown()
}
