import Testing
@testable import X11Selection

@Suite struct DeadlineQueueTests {
    @Test func popsInOrderAndSkipsRearmedAndCancelled() {
        var queue = DeadlineQueue<Int>()
        let start = ContinuousClock.now
        queue.arm(1, at: start + .milliseconds(30))
        queue.arm(2, at: start + .milliseconds(10))
        queue.arm(3, at: start + .milliseconds(20))
        queue.arm(2, at: start + .milliseconds(40))  // re-armed: the 10 ms entry is stale
        queue.cancel(3)
        let result1 = queue.nextInstant()
        #expect(result1 == start + .milliseconds(30))
        let result2 = queue.popExpired(now: start + .milliseconds(35))
        #expect(result2 == [1])
        let result3 = queue.popExpired(now: start + .milliseconds(50))
        #expect(result3 == [2])
        let result4 = queue.nextInstant()
        #expect(result4 == nil)
        #expect(queue.isEmpty)
    }
}

@Suite struct TimestampTests {
    @Test func comparesAcrossTheWrapAround() {
        #expect(X11Timestamp(rawValue: 10) < X11Timestamp(rawValue: 20))
        #expect(!(X11Timestamp(rawValue: 20) < X11Timestamp(rawValue: 10)))
        #expect(X11Timestamp(rawValue: 0xFFFF_FFF0) < X11Timestamp(rawValue: 5))
    }
}
