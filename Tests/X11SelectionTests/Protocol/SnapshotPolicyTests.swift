import Testing
@testable import X11Selection

@Suite struct SnapshotPolicyTests {
    @Test func keepsEveryContentTargetOnceInTheOwnersOrder() {
        let offered: [SelectionTarget] = [
            .targets, .timestamp, "image/png", .multiple, "text/html", .utf8String, "image/png", .saveTargets,
            "application/x-private", .delete, .targetSizes, "COMPOUND_TEXT",
        ]
        #expect(SnapshotPolicy.plan(for: offered)
            == .keep(["image/png", "text/html", .utf8String, "application/x-private", "COMPOUND_TEXT"]))
    }

    @Test func skipsSideEffectAndResourceTargets() {
        let offered: [SelectionTarget] = [
            "INSERT_SELECTION", "INSERT_PROPERTY", "PIXMAP", "BITMAP", "DRAWABLE", "COLORMAP", "WINDOW", .incr, .string,
        ]
        #expect(SnapshotPolicy.plan(for: offered) == .keep([.string]))
    }

    @Test func keepsNothingOfASensitiveOffer() {
        #expect(SnapshotPolicy.plan(for: [.utf8String, SelectionOffer.passwordManagerHint]) == .sensitive)
        #expect(SnapshotPolicy.plan(for: [SelectionOffer.passwordManagerHint, .utf8String]) == .sensitive)
    }

    @Test func anEmptyOfferKeepsNothing() {
        #expect(SnapshotPolicy.plan(for: []) == .keep([]))
        #expect(SnapshotPolicy.plan(for: [.targets, .timestamp]) == .keep([]))
    }
}
