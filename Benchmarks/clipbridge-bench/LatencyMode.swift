// clipbridge-bench latency: many small reads in a row (the counterpart of `requestor -r N`).

import X11Selection

/// Reads the target `--count` times in a row over one connection and prints the latency distribution.
///
/// `--path default`: each read is awaited by this task, which runs on the global executor: the request goes
/// to the connection's loop thread and the reply comes back (two thread wake-ups per read, the price of
/// calling from anywhere). `--path isolated`: all reads run inside one `withIsolation` body, on the loop
/// thread itself; each sample is still one whole read (request → reply → bytes), timed where it runs.
func runLatency(_ options: BenchOptions) async throws {
    let connection = try await X11Connection.open(configuration: options.configuration)
    let count = max(options.count, 1)
    let (samples, bytes): ([Int64], Int)
    let cpuStart = processCPUNanoseconds()
    if options.isolated {
        (samples, bytes) = try await connection.withIsolation { connection in
            try await timeReads(connection, options, count: count)
        }
    } else {
        (samples, bytes) = try await timeReads(connection, options, count: count)
    }
    let cpuPerRead = Double(processCPUNanoseconds() - cpuStart) / 1e3 / Double(count)
    say("RESULT bytes=\(bytes)")
    printLatency("latency", samples)
    say("RESULT cpu per_read_us=\((cpuPerRead * 10).rounded() / 10)")
    // How the reads ran: on loan (the caller drove the connection) or parked, and how often the loop was woken.
    let loans = connection.loanStatistics
    say("RESULT loans taken=\(loans.taken) finished=\(loans.finished) loop_wakeups=\(loans.wakeUps)")
    await connection.shutdown()
}

/// Times `count` reads on the caller's executor (the reads are `nonisolated(nonsending)`: they run where
/// this function runs).
nonisolated(nonsending) func timeReads(_ connection: X11Connection, _ options: BenchOptions, count: Int)
    async throws -> ([Int64], Int)
{
    var samples: [Int64] = []
    samples.reserveCapacity(count)
    var bytes = 0
    let selection = options.selection
    let target = options.target
    for _ in 0..<count {
        let start = monotonicNanoseconds()
        switch options.api {
        case "stream":
            bytes = try await connection.read(selection, target: target, into: { _ in }).byteCount
        case "multiple":
            bytes = try await connection.read(selection, targets: [target])[target]?.get().bytes.count ?? -1
        case "text":
            bytes = try await connection.readText(selection).utf8.count
        default:
            bytes = try await connection.read(selection, target: target).bytes.count
        }
        samples.append(monotonicNanoseconds() - start)
    }
    return (samples, bytes)
}

/// Times `--count` calls of `owner(of:)`: one X round trip plus, on the default path, the hops into and out
/// of the connection's thread — the floor under every read (the C counterpart is `requestor -R N`, bare
/// XGetSelectionOwner). On the isolated path the calls run on the loop thread: the round trip alone.
func runRoundTrip(_ options: BenchOptions) async throws {
    let connection = try await X11Connection.open(configuration: options.configuration)
    let count = max(options.count, 1)
    let selection = options.selection
    let samples: [Int64]
    if options.isolated {
        samples = try await connection.withIsolation { connection in
            var samples: [Int64] = []
            samples.reserveCapacity(count)
            for _ in 0..<count {
                let start = monotonicNanoseconds()
                _ = try connection.owner(of: selection)
                samples.append(monotonicNanoseconds() - start)
            }
            return samples
        }
    } else {
        var collected: [Int64] = []
        collected.reserveCapacity(count)
        for _ in 0..<count {
            let start = monotonicNanoseconds()
            _ = try await connection.owner(of: selection)
            collected.append(monotonicNanoseconds() - start)
        }
        samples = collected
    }
    printLatency("roundtrip", samples)
    await connection.shutdown()
}
