// clipbridge-bench owner: serve one target (the counterpart of Benchmarks/c/owner.c).

import Foundation
import X11Selection

/// Claims the selection with one target, prints READY, and serves until `transfers` content transfers
/// completed (or ownership is lost when `transfers` is 0).
func runOwner(_ options: BenchOptions) async throws {
    let source: SelectionOffer.DataSource
    if let file = options.file {
        let url = URL(fileURLWithPath: file)
        source = options.sourceIsFile ? .file(url) : .bytes(try Data(contentsOf: url))
    } else if let count = options.bytes {
        // The same pattern as owner.c's -b, so both sides serve identical bytes.
        source = .bytes(Data((0..<count).map { UInt8(truncatingIfNeeded: $0 &* 131 &+ 7) }))
    } else {
        fail("owner: give --file PATH or --bytes N")
    }
    let connection = try await X11Connection.open(configuration: options.configuration)
    let offer = SelectionOffer([.init(target: options.target, source: source)])
    let lease = try await connection.claim(options.selection, offering: offer)
    say("READY")
    if options.isolated {
        // The lease's events consumed on the connection's executor: a served paste resumes this loop in the
        // loop thread's own turn, like the C owner counting in its event loop (no other thread is woken).
        await connection.withIsolation { _ in await count(lease.events, options) }
    } else {
        // From a task on the global executor: each event wakes a pool thread.
        await count(lease.events, options)
    }
    await connection.shutdown()
}

/// Iterates the lease's events until `options.transfers` content transfers were served or ownership is lost.
nonisolated(nonsending) func count(_ events: SelectionLeaseEvents, _ options: BenchOptions) async {
    var served = 0
    loop: for await event in events {
        switch event {
        case .served:
            served += 1
            if options.transfers > 0 && served >= options.transfers { break loop }
        case .failed(let target, let requestor, let reason):
            FileHandle.standardError.write(Data("owner: \(target) to \(requestor) failed: \(reason)\n".utf8))
        case .lost:
            break loop
        case .saveTargetsRequested:
            break  // a content claim is never asked to save
        }
    }
}
