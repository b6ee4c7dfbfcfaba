import Testing
import WaylandBridge
import WaylandSelection

@Suite struct CompositorReconnectTests {
    @Test("a drop is retried with the bridge's backoff, however often the compositor drops us again; a compositor whose socket is gone is given up on")
    func decisions() {
        #expect(CompositorReconnect.next(failures: 0, lastError: nil) == .retry(after: .milliseconds(250)))
        let dropped = WaylandError(.connectionLost, "the compositor closed the connection")
        #expect(CompositorReconnect.next(failures: 1, lastError: dropped) == .retry(after: .milliseconds(500)))
        #expect(CompositorReconnect.next(failures: 40, lastError: dropped) == .retry(after: .seconds(5)))
        #expect(CompositorReconnect.next(failures: 3, lastError: WaylandError(.timedOut, "slow")) == .retry(after: .seconds(2)))
        #expect(CompositorReconnect.next(failures: 1, lastError: WaylandError(.noCompositor, "gone")) == .giveUp)
        #expect(CompositorReconnect.next(failures: 1, lastError: WaylandError(.libraryUnavailable, "no libwayland")) == .giveUp)
    }
}
