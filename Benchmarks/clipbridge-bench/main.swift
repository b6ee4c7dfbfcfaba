// clipbridge-bench: X11Selection measured between two processes, against the C ceiling in Benchmarks/c.
//
//   clipbridge-bench owner [--selection S] [--target T] (--file PATH | --bytes N) [--source memory|file]
//                          [--transfers N] [--chunk BYTES] [--max-chunk BYTES] [--path default|isolated]
//   clipbridge-bench requestor [--selection S] [--target T] [--output PATH]
//   clipbridge-bench latency [--selection S] [--target T] [--count N]
//   clipbridge-bench roundtrip [--selection S] [--count N]
//   clipbridge-bench watch-latency [--selection S] [--count N]
//
// Each mode prints the same RESULT/READY/CHANGE lines as its C counterpart, so Benchmarks/run.sh treats both
// alike. Timings use CLOCK_MONOTONIC (comparable with the C programs' timestamps) and cover the X work only,
// not process start-up.

import Foundation
import Glibc
import X11Selection

let arguments = Array(CommandLine.arguments.dropFirst())
guard let mode = arguments.first, let options = try? BenchOptions(Array(arguments.dropFirst())) else {
    fail(BenchOptions.usage)
}
do {
    switch mode {
    case "owner": try await runOwner(options)
    case "requestor": try await runRequestor(options)
    case "latency": try await runLatency(options)
    case "roundtrip": try await runRoundTrip(options)
    case "watch-latency": try await runWatchLatency(options)
    default: fail(BenchOptions.usage)
    }
} catch {
    fail("clipbridge-bench \(mode): \(error)")
}
