import CX11
import ClipBridgeTestSupport
import Foundation
import Synchronization
import Testing
@testable import X11Selection

/// Streamed INCR reads hand their chunks over in batches (`Requestor.handOverBatch`): up to
/// `streamBatchBytes` at once, but a chunk never waits longer than `streamBatchDelay` for its batch to fill,
/// so an owner that pauses does not hold back what already arrived.
@Suite(.xvfb, .timeLimit(.minutes(1)))
struct StreamBatchTests {
    /// Serves one INCR transfer by hand (ICCCM 2.7.2) — `first`, a pause of `stall`, then `second` — the way a
    /// slow producer would. Returns when it resumed after the pause.
    private static func serveStalling(
        _ owner: RawXClient, first: Data, second: Data, stall: Duration
    ) throws -> ContinuousClock.Instant {
        let display = owner.display
        guard let request = owner.waitForEvent(timeout: .seconds(10), { $0.type == SelectionRequest }) else {
            throw RawXError("no SelectionRequest")
        }
        let asked = request.xselectionrequest
        // The owner learns that the requestor took a chunk from PropertyNotify(Delete) on the requestor's window.
        XSelectInput(display, asked.requestor, PropertyChangeMask)
        var size = [Int(first.count + second.count)]
        _ = size.withUnsafeMutableBytes { raw in
            XChangeProperty(
                display, asked.requestor, asked.property, owner.atom("INCR"), 32, PropModeReplace,
                raw.baseAddress!.assumingMemoryBound(to: UInt8.self), 1)
        }
        owner.notify(
            requestor: asked.requestor, selection: asked.selection, target: asked.target, property: asked.property,
            time: asked.time)
        func waitForDeletion(_ what: String) throws {
            let deleted = owner.waitForEvent(timeout: .seconds(10)) { event in
                event.type == PropertyNotify && event.xproperty.window == asked.requestor
                    && event.xproperty.atom == asked.property && event.xproperty.state == PropertyDelete
            }
            guard deleted != nil else { throw RawXError("the requestor never took \(what)") }
        }
        func write(_ chunk: Data) {
            var bytes = [UInt8](chunk)
            if bytes.isEmpty { bytes = [0] }
            XChangeProperty(
                display, asked.requestor, asked.property, owner.atom("application/octet-stream"), 8, PropModeReplace,
                &bytes, Int32(chunk.count))
            XFlush(display)
        }
        try waitForDeletion("the INCR header")
        write(first)
        try waitForDeletion("the first chunk")
        usleep(UInt32(stall.components.seconds * 1_000_000 + stall.components.attoseconds / 1_000_000_000_000))
        let resumed = ContinuousClock.now
        write(second)
        try waitForDeletion("the second chunk")
        write(Data())
        try waitForDeletion("the end")
        return resumed
    }

    @Test func aChunkIsHandedOverWhileTheOwnerPauses() async throws {
        let (owner, selection) = try await rawOwner("stall")
        let first = Data((0..<20_000).map { UInt8(truncatingIfNeeded: $0 &* 7) })
        let second = Data((0..<30_000).map { UInt8(truncatingIfNeeded: $0 &* 13) })
        // Long enough for a loaded machine: in the parallel test run on two CPUs, a task of the cooperative pool
        // was once resumed 1.2 s late.
        let stall = Duration.seconds(4)
        let serving = Task.detached {
            try await onThread { try Self.serveStalling(owner, first: first, second: second, stall: stall) }
        }
        let reader = try await openConnection()
        let arrivals = Mutex<[(at: ContinuousClock.Instant, bytes: Data)]>([])
        let summary = try await reader.read(selection, target: "application/octet-stream") { chunk in
            arrivals.withLock { $0.append((.now, chunk)) }
        }
        let resumed = try await serving.value
        let seen = arrivals.withLock { $0 }
        #expect(summary.byteCount == first.count + second.count)
        #expect(seen.reduce(Data()) { $0 + $1.bytes } == first + second)
        // 20 KB is far below a batch (1 MiB): only the batch delay (5 ms) can hand the first chunk over while
        // the owner pauses (for four seconds). Timed against the owner's own clock, so a loaded machine that is
        // slow to start the read does not matter.
        let firstArrival = try #require(seen.first?.at)
        #expect(firstArrival < resumed, "the first chunk waited for the owner's pause to end")
        #expect(try #require(seen.last?.at) > resumed)
        #expect(await reader.activeReadCount == 0)
        _ = try await onThread { owner.close() }
        await reader.shutdown()
    }
}
