import Testing
@testable import X11Selection

@Suite struct BridgePolicyTests {
    private func change(owner: UInt?, ours: Bool) -> OwnerChange {
        OwnerChange(
            selection: .clipboard, reason: owner == nil ? .ownerClientClosed : .newOwner,
            owner: owner.map(X11Window.init(rawValue:)), timestamp: .currentTime, selectionTimestamp: .currentTime,
            isOwnedByThisProcess: ours)
    }

    @Test func ourOwnClaimsNeverEchoBack() {
        #expect(BridgePolicy.action(for: change(owner: 0x400001, ours: true)) == .ignore)
        #expect(BridgePolicy.action(for: change(owner: 0x600001, ours: false)) == .newSource)
        #expect(BridgePolicy.action(for: change(owner: nil, ours: false)) == .ownerGone)
    }

    @Test func theOwnersTargetsAreOfferedInOrderLessWhatCannotCross() {
        let offered: [SelectionTarget] = [
            "TARGETS", "text/html", "PIXMAP", "UTF8_STRING", "MULTIPLE", "WINDOW", "TIMESTAMP", "text/html",
            "application/x-custom", "INSERT_SELECTION", "SAVE_TARGETS",
        ]
        #expect(BridgePolicy.plan(for: offered, includeSensitive: false)
            == .offer(["text/html", "UTF8_STRING", "application/x-custom"], isSensitive: false))
    }

    @Test func sensitiveContentCrossesOnlyWhenAskedTo() {
        let offered: [SelectionTarget] = ["UTF8_STRING", SelectionOffer.passwordManagerHint]
        #expect(BridgePolicy.plan(for: offered, includeSensitive: false) == .skipSensitive)
        #expect(BridgePolicy.plan(for: offered, includeSensitive: true) == .offer(["UTF8_STRING"], isSensitive: true))
    }

    @Test func anotherBridgesClaimIsLeftAlone() {
        #expect(BridgePolicy.plan(for: ["UTF8_STRING", BridgePolicy.marker], includeSensitive: true) == .skipBridged)
    }

    @Test func reconnectionBacksOffToTheMaximum() {
        #expect(BridgePolicy.retryDelay(failures: 0) == .milliseconds(250))
        #expect(BridgePolicy.retryDelay(failures: 1) == .milliseconds(500))
        #expect(BridgePolicy.retryDelay(failures: 3) == .seconds(2))
        #expect(BridgePolicy.retryDelay(failures: 10) == .seconds(5))
        #expect(BridgePolicy.retryDelay(failures: 1_000, maximum: .seconds(1)) == .seconds(1))
    }
}
