import ClipBridgeTestSupport
import Foundation
import Testing
@testable import X11Selection

@Suite struct LoopTokenTests {
    @Test func onlyTheHoldingThreadIsMarked() async throws {
        #expect(!LoopToken.isHeld)
        LoopToken.whileHeld {
            #expect(LoopToken.isHeld)
            // Nested holds (a loan's pump inside the loan) leave the mark in place on the way out.
            LoopToken.whileHeld { #expect(LoopToken.isHeld) }
            #expect(LoopToken.isHeld)
            // Another thread is not marked by this one's hold.
            let other = Thread.detachNewThreadResult { LoopToken.isHeld }
            #expect(other == false)
        }
        #expect(!LoopToken.isHeld)
    }

    @Test func aConnectionsLoopRunsItsIsolatedCodeHoldingTheToken() async throws {
        try await withXvfb { server in
            let connection = try await X11Connection.open(display: server.display)
            let held = await connection.withIsolation { _ in LoopToken.isHeld }
            #expect(held)
            await connection.shutdown()
        }
    }
}

private extension Thread {
    /// Runs `body` on a new thread and waits for its result.
    static func detachNewThreadResult(_ body: @escaping @Sendable () -> Bool) -> Bool {
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var result = false
        Thread.detachNewThread {
            result = body()
            done.signal()
        }
        done.wait()
        return result
    }
}
