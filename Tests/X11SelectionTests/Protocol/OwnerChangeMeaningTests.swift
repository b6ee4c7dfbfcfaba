import Testing
@testable import X11Selection

/// XFixes owner changes sorted into the core's meanings, the one classification the keeper, the sync and the
/// bridges decide on: our own claims never echo, a client setting no owner is a clear (never restored), an owner
/// whose window or client went away is gone.
@Suite struct OwnerChangeMeaningTests {
    private func change(_ reason: OwnerChange.Reason, owner: UInt?, ours: Bool = false) -> OwnerChange {
        OwnerChange(
            selection: .clipboard, reason: reason, owner: owner.map(X11Window.init(rawValue:)),
            timestamp: X11Timestamp(rawValue: 10), selectionTimestamp: X11Timestamp(rawValue: 9), isOwnedByThisProcess: ours)
    }

    @Test func eachXFixesEventHasItsMeaning() {
        #expect(change(.newOwner, owner: 0x40_0001).meaning == .newOwner)
        #expect(change(.newOwner, owner: 0x40_0001, ours: true).meaning == .ours)
        #expect(change(.newOwner, owner: nil).meaning == .cleared)
        #expect(change(.ownerWindowDestroyed, owner: nil).meaning == .ownerGone)
        #expect(change(.ownerClientClosed, owner: nil).meaning == .ownerGone)
    }
}
