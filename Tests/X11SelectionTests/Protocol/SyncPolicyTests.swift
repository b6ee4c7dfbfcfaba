import Testing
@testable import X11Selection

@Suite struct SyncPolicyTests {
    private func change(_ reason: OwnerChange.Reason, owner: UInt? = 0x40_0001, ours: Bool = false) -> OwnerChange {
        OwnerChange(
            selection: .primary, reason: reason, owner: owner.map(X11Window.init(rawValue:)),
            timestamp: X11Timestamp(rawValue: 10), selectionTimestamp: X11Timestamp(rawValue: 9), isOwnedByThisProcess: ours)
    }

    @Test func copiesOnlyAnotherClientsNewOwner() {
        #expect(SyncPolicy.copies(change(.newOwner)))
        #expect(!SyncPolicy.copies(change(.newOwner, ours: true)), "our own copy must not bounce back")
        #expect(!SyncPolicy.copies(change(.newOwner, owner: nil)), "a cleared selection has nothing to copy")
        #expect(!SyncPolicy.copies(change(.ownerWindowDestroyed, owner: nil)))
        #expect(!SyncPolicy.copies(change(.ownerClientClosed, owner: nil)))
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
