import Testing
@testable import SelectionCore

@Suite struct SyncPolicyTests {
    @Test func copiesOnlyAnotherClientsNewOwner() {
        #expect(SyncPolicy.copies(.newOwner))
        #expect(!SyncPolicy.copies(.ours), "our own copy must not bounce back")
        #expect(!SyncPolicy.copies(.cleared), "a cleared selection has nothing to copy")
        #expect(!SyncPolicy.copies(.ownerGone))
    }

    @Test func waitsToSettleThenForTheButtonsThenNoLonger() {
        let settle = Duration.milliseconds(100), limit = Duration.seconds(30)
        #expect(SyncPolicy.step(waited: .zero, buttonHeld: false, settle: settle, maximumWait: limit) == .wait(settle))
        #expect(SyncPolicy.step(waited: .milliseconds(40), buttonHeld: true, settle: settle, maximumWait: limit)
            == .wait(.milliseconds(60)))
        #expect(SyncPolicy.step(waited: .milliseconds(100), buttonHeld: false, settle: settle, maximumWait: limit) == .copy)
        #expect(SyncPolicy.step(waited: .seconds(2), buttonHeld: true, settle: settle, maximumWait: limit)
            == .wait(SyncPolicy.pollInterval))
        #expect(SyncPolicy.step(waited: .milliseconds(29_980), buttonHeld: true, settle: settle, maximumWait: limit)
            == .wait(.milliseconds(20)))
        #expect(SyncPolicy.step(waited: limit, buttonHeld: true, settle: settle, maximumWait: limit) == .copy)
    }
}
