// clipbridge-bench: command-line options shared by every mode (no argument-parser: only X11Selection here).

import Foundation
import Glibc
import X11Selection

/// The options of every mode; each mode reads the ones it needs.
struct BenchOptions {
    static let usage = """
        usage: clipbridge-bench owner [--selection S] [--target T] (--file PATH | --bytes N) \
        [--source memory|file] [--transfers N] [--chunk BYTES] [--path default|isolated]
               (every mode: [--inline-wait-us N], Configuration.inlineWaitLimit; 0 turns loans off)
               clipbridge-bench requestor [--selection S] [--target T] [--output PATH]
               clipbridge-bench latency [--selection S] [--target T] [--count N] [--path default|isolated] \
        [--api read|stream|multiple|text]
               clipbridge-bench roundtrip [--selection S] [--count N] [--path default|isolated]
               clipbridge-bench watch-latency [--selection S] [--count N]
        """

    var selection: SelectionName = .clipboard
    var target: SelectionTarget = "application/octet-stream"
    var file: String?
    var bytes: Int?
    /// `memory`: the file is read into a `Data` up front (like the C owner's mmap); `file`: streamed by the engine.
    var sourceIsFile = false
    /// Content transfers to serve before exiting; 0 = until ownership is lost.
    var transfers = 0
    var chunkSize: Int?
    /// --max-chunk: the largest INCR chunk the owner grows to (`Configuration.maximumChunkSize`).
    var maximumChunkSize: Int?
    var output: String?
    var count = 1000
    /// latency/roundtrip: `default` calls from a task on the global executor; `isolated` makes every call
    /// inside one `X11Connection.withIsolation` body (on the connection's executor). owner: where the lease's
    /// events are consumed (a task on the global executor, or inside `withIsolation`).
    var isolated = false
    /// latency: which read API is timed (`read` = `read(_:target:)`; the others to count their hops).
    var api = "read"
    /// `Configuration.inlineWaitLimit` in microseconds; nil keeps the default.
    var inlineWaitMicroseconds: Int?

    struct Invalid: Error {}

    init(_ arguments: [String]) throws {
        var rest = arguments[...]
        func value() throws -> String {
            guard let next = rest.popFirst() else { throw Invalid() }
            return next
        }
        func number() throws -> Int {
            guard let parsed = Int(try value()), parsed >= 0 else { throw Invalid() }
            return parsed
        }
        while let option = rest.popFirst() {
            switch option {
            case "--selection": selection = SelectionName(rawValue: try value())
            case "--target": target = SelectionTarget(rawValue: try value())
            case "--file": file = try value()
            case "--bytes": bytes = try number()
            case "--source":
                let source = try value()
                guard source == "memory" || source == "file" else { throw Invalid() }
                sourceIsFile = source == "file"
            case "--transfers": transfers = try number()
            case "--chunk": chunkSize = try number()
            case "--max-chunk": maximumChunkSize = try number()
            case "--inline-wait-us": inlineWaitMicroseconds = try number()
            case "--output": output = try value()
            case "--count": count = try number()
            case "--path":
                let path = try value()
                guard path == "default" || path == "isolated" else { throw Invalid() }
                isolated = path == "isolated"
            case "--api":
                api = try value()
                guard ["read", "stream", "multiple", "text"].contains(api) else { throw Invalid() }
            default: throw Invalid()
            }
        }
    }

    /// The connection configuration: generous deadlines (a benchmark measures, it does not test timeouts).
    var configuration: Configuration {
        var configuration = Configuration()
        configuration.readTimeout = .seconds(60)
        configuration.incrementalIdleTimeout = .seconds(30)
        if let chunkSize { configuration.chunkSize = chunkSize }
        if let maximumChunkSize { configuration.maximumChunkSize = maximumChunkSize }
        if let inlineWaitMicroseconds { configuration.inlineWaitLimit = .microseconds(inlineWaitMicroseconds) }
        return configuration
    }
}

/// Prints `message` on stderr and exits with status 1 (a benchmark tool may exit; the library never does).
func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data((message + "\n").utf8))
    exit(1)
}

/// Writes a line to stdout at once, unbuffered (run.sh waits for READY lines in a file).
func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

/// CLOCK_MONOTONIC in nanoseconds, the clock the C programs use, so timestamps compare across processes.
func monotonicNanoseconds() -> Int64 { nanoseconds(CLOCK_MONOTONIC) }

/// CPU time of the whole process (every thread), in nanoseconds: what a loop costs, not how long it waited.
func processCPUNanoseconds() -> Int64 { nanoseconds(CLOCK_PROCESS_CPUTIME_ID) }

private func nanoseconds(_ clock: clockid_t) -> Int64 {
    var time = timespec()
    clock_gettime(clock, &time)
    return Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
}

/// Prints the RESULT line the C programs print for latency samples (nanoseconds).
func printLatency(_ name: String, _ samples: [Int64]) {
    let sorted = samples.sorted()
    let mean = Double(sorted.reduce(0, +)) / Double(sorted.count)
    func microseconds(_ value: Double) -> String { String(format: "%.1f", value / 1e3) }
    say(
        "RESULT \(name) count=\(sorted.count) median_us=\(microseconds(Double(sorted[sorted.count / 2]))) "
            + "p90_us=\(microseconds(Double(sorted[sorted.count * 9 / 10]))) mean_us=\(microseconds(mean)) "
            + "min_us=\(microseconds(Double(sorted[0])))"
    )
}
