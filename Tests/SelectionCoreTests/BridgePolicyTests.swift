import Testing
@testable import SelectionCore

@Suite struct BridgePolicyTests {
    @Test func theOwnersTargetsAreOfferedInOrderLessWhatCannotCross() {
        let offered: [SelectionTarget] = [
            "TARGETS", "text/html", "PIXMAP", "UTF8_STRING", "MULTIPLE", "WINDOW", "TIMESTAMP", "text/html",
            "application/x-custom", "INSERT_SELECTION", "SAVE_TARGETS",
        ]
        #expect(BridgePolicy.plan(for: offered, includeSensitive: false)
            == .offer(["text/html", "UTF8_STRING", "application/x-custom"], isSensitive: false))
    }

    @Test func sensitiveContentCrossesOnlyWhenAskedTo() {
        let offered: [SelectionTarget] = ["UTF8_STRING", SelectionTarget.passwordManagerHint]
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
