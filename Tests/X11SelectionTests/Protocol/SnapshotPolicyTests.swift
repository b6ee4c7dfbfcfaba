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

@Suite struct SnapshotPolicySaveTargetsTests {
    @Test func aRequestedListIsKeptInItsOrderByTheSameRules() {
        let offered: [SelectionTarget] = [.utf8String, "text/html", "image/png"]
        #expect(SnapshotPolicy.plan(for: offered, requested: ["image/png", .targets, "DELETE", "text/html", "image/png"])
            == .keep(["image/png", "text/html"]))
        // Listed but not in TARGETS: the spec says convert the listed targets, so it is tried.
        #expect(SnapshotPolicy.plan(for: offered, requested: ["application/x-private"]) == .keep(["application/x-private"]))
        #expect(SnapshotPolicy.plan(for: [], requested: [.utf8String, SelectionOffer.passwordManagerHint]) == .sensitive)
        #expect(SnapshotPolicy.plan(for: [SelectionOffer.passwordManagerHint], requested: [.utf8String]) == .sensitive)
    }

    @Test func announcedSizesSkipUnknownDuplicatesAndAnOddTail() {
        let sizes = SnapshotPolicy.announcedSizes([300, 12, 301, 0xFFFF_FFFF, 300, 99, 0, 5, 302, 70_000_000, 303])
        #expect(sizes.map(\.atom.rawValue) == [300, 302])
        #expect(sizes.map(\.size) == [12, 70_000_000])
    }

    @Test func anAnnouncedSizeOverEitherLimitIsSkipped() {
        #expect(!(100 > SnapshotPolicy.flavourBudget(flavourLimit: 100, remaining: 1000)))
        #expect(101 > SnapshotPolicy.flavourBudget(flavourLimit: 100, remaining: 1000))
        #expect(60 > SnapshotPolicy.flavourBudget(flavourLimit: 100, remaining: 50))
    }
}
