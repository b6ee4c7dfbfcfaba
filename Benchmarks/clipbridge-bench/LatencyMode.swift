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

/// Times `--count` calls of `owner(of:)`: one X round trip plus the hops into and out of the connection's
/// thread, the floor under every read (the C counterpart is `requestor -R N`, bare XGetSelectionOwner).
func runRoundTrip(_ options: BenchOptions) async throws {
    let connection = try await X11Connection.open(configuration: options.configuration)
    var samples: [Int64] = []
    samples.reserveCapacity(options.count)
    for _ in 0..<max(options.count, 1) {
        let start = monotonicNanoseconds()
        _ = try await connection.owner(of: options.selection)
        samples.append(monotonicNanoseconds() - start)
    }
    printLatency("roundtrip", samples)
    await connection.shutdown()
}
