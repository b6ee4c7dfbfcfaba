// clipbridge-bench requestor: read one target, streaming (the counterpart of Benchmarks/c/requestor.c).

import Foundation
import Glibc
import X11Selection

/// Reads the target once through the streaming API into `--output` (or drops the bytes), and prints
/// "RESULT read bytes=... seconds=... mib_per_s=...", timing the transfer only.
func runRequestor(_ options: BenchOptions) async throws {
    let output: Int32
    if let path = options.output {
        output = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard output >= 0 else { fail("requestor: cannot create \(path)") }
    } else {
        output = -1
    }
    let connection = try await X11Connection.open(configuration: options.configuration)
    let start = monotonicNanoseconds()
    let summary = try await connection.read(options.selection, target: options.target) { chunk in
        guard output >= 0 else { return }
        try chunk.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = write(output, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 && errno == EINTR { continue }
                guard written > 0 else { throw POSIXError(.EIO) }
                offset += written
            }
        }
    }
    let seconds = Double(monotonicNanoseconds() - start) / 1e9
    if output >= 0 { close(output) }
    let rate = Double(summary.byteCount) / 1_048_576 / seconds
    say(
        "RESULT read bytes=\(summary.byteCount) seconds=\(String(format: "%.6f", seconds)) "
            + "mib_per_s=\(String(format: "%.1f", rate))"
    )
    await connection.shutdown()
}
