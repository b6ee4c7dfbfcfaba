// clipbridge-bench latency: many small reads in a row (the counterpart of `requestor -r N`).

import X11Selection

/// Reads the target `--count` times in a row over one connection and prints the latency distribution.
func runLatency(_ options: BenchOptions) async throws {
    let connection = try await X11Connection.open(configuration: options.configuration)
    var samples: [Int64] = []
    samples.reserveCapacity(options.count)
    var bytes = 0
    for _ in 0..<max(options.count, 1) {
        let start = monotonicNanoseconds()
        bytes = try await connection.read(options.selection, target: options.target).bytes.count
        samples.append(monotonicNanoseconds() - start)
    }
    say("RESULT bytes=\(bytes)")
    printLatency("latency", samples)
    await connection.shutdown()
}
