import Testing
@testable import SelectionCore

/// The display bridge's decisions, including the races met between real X servers: a newer owner while
/// TARGETS were read, two bridges claiming at once, our own claim overtaking a change, displays coming and
/// going.
@Suite struct BridgeMachineTests {
    let app = 0x40_0001
    let names = [":0", ":1", ":2"]

    func machine(_ displays: Int = 2, sensitive: Bool = false) -> BridgeMachine {
        BridgeMachine(displays: Array(names.prefix(displays)), selections: [.clipboard], includeSensitive: sensitive)
    }

    func change(_ owner: Int?, ours: Bool = false) -> OwnerChangeMeaning {
        meaning(owner: owner, ours: ours)
    }

    func source(_ display: Int, _ generation: UInt64, _ targets: [SelectionTarget]?, sensitive: Bool = false) -> BridgeMachine.Source {
        BridgeMachine.Source(display: display, generation: generation, targets: targets, isSensitive: sensitive)
    }

    /// Both displays connected, nothing owned.
    func connected(_ displays: Int = 2) -> BridgeMachine {
        var bridge = machine(displays)
        for display in 0..<displays { _ = bridge.handle(.connected(display: display, owned: [])) }
        return bridge
    }

    /// Each meaning of a change decides: ours is ignored, a new owner is read, a cleared selection or a gone owner
    /// withdraws the source's content.
    @Test func eachMeaningOfAChangeDecides() {
        var bridge = connected()
        #expect(bridge.handle(.ownerChanged(.clipboard, .ours, display: 1)) == [])
        #expect(bridge.handle(.ownerChanged(.clipboard, .newOwner, display: 1)) == [.readTargets(.clipboard, display: 1, generation: 1)])
        _ = bridge.handle(.targetsRead(.clipboard, display: 1, generation: 1, .success([.utf8String])))
        #expect(bridge.isCurrent(.clipboard, generation: 1))
        #expect(bridge.handle(.ownerChanged(.clipboard, .ownerGone, display: 1)) == [
            .release(.clipboard, displays: [0]), .report(.withdrawn(.clipboard, from: ":1")),
        ])
        #expect(!bridge.isCurrent(.clipboard, generation: 1))
        // The mark as a MIME type (what a compositor's XWayland sync passes on) is another bridge's claim too.
        _ = bridge.handle(.ownerChanged(.clipboard, .newOwner, display: 0))
        #expect(bridge.handle(.targetsRead(.clipboard, display: 0, generation: 2, .success([.utf8String, BridgePolicy.mimeMarker]))) == [
            .report(.notBridged(.clipboard, from: ":0", reason: "another bridge owns it (_CLIPBRIDGE_BRIDGED)")),
        ])
    }

    @Test func anAppsCopyIsOfferedOnTheOtherDisplaysLessWhatCannotCross() {
        var bridge = connected(3)
        #expect(bridge.handle(.ownerChanged(.clipboard, change(app), display: 1)) == [.readTargets(.clipboard, display: 1, generation: 1)])
        let offered: [SelectionTarget] = [.targets, "text/html", .utf8String, "PIXMAP", .multiple]
        #expect(bridge.handle(.targetsRead(.clipboard, display: 1, generation: 1, .success(offered))) == [
            .claim(.clipboard, displays: [0, 2], source: source(1, 1, ["text/html", .utf8String]), announces: true),
        ])
        #expect(bridge.isCurrent(.clipboard, generation: 1))
        #expect(bridge.handle(.claimsEnded(.clipboard, generation: 1, claimed: [0, 2], announces: true)) == [
            .report(.bridged(.clipboard, from: ":1", to: [":0", ":2"], targets: ["text/html", .utf8String])),
        ])
        // Our own claims on the other displays are never bridged back.
        #expect(bridge.handle(.ownerChanged(.clipboard, change(app, ours: true), display: 0)) == [])
    }

    @Test func theFirstDisplayNamedWithAnOwnerIsTheSourceAtStart() {
        var bridge = machine(2)
        #expect(bridge.handle(.connected(display: 0, owned: [.clipboard])) == [
            .report(.connected(display: ":0")), .readTargets(.clipboard, display: 0, generation: 1),
        ])
        // The second display's owner is not adopted while the first one's TARGETS are on their way.
        #expect(bridge.handle(.connected(display: 1, owned: [.clipboard])) == [.report(.connected(display: ":1"))])
        #expect(bridge.handle(.targetsRead(.clipboard, display: 0, generation: 1, .success([.utf8String]))) == [
            .claim(.clipboard, displays: [1], source: source(0, 1, [.utf8String]), announces: true),
        ])
    }

    @Test func aDisplayThatJoinsIsOfferedTheCurrentContentQuietly() {
        var bridge = machine(3)
        _ = bridge.handle(.connected(display: 0, owned: [.clipboard]))
        _ = bridge.handle(.targetsRead(.clipboard, display: 0, generation: 1, .success([.string])))
        #expect(bridge.handle(.connected(display: 2, owned: [.clipboard])) == [
            .report(.connected(display: ":2")),
            .claim(.clipboard, displays: [2], source: source(0, 1, [.string]), announces: false),
        ])
        #expect(bridge.handle(.claimsEnded(.clipboard, generation: 1, claimed: [2], announces: false)) == [])
    }

    @Test func aChangeOvertakenWhileItsTargetsWereReadIsDropped() {
        var bridge = connected()
        _ = bridge.handle(.ownerChanged(.clipboard, change(app), display: 0))
        #expect(bridge.handle(.ownerChanged(.clipboard, change(app), display: 1)) == [.readTargets(.clipboard, display: 1, generation: 2)])
        #expect(bridge.handle(.targetsRead(.clipboard, display: 0, generation: 1, .success([.string]))) == [])
        #expect(bridge.handle(.targetsRead(.clipboard, display: 1, generation: 2, .success([.string]))) == [
            .claim(.clipboard, displays: [0], source: source(1, 2, [.string]), announces: true),
        ])
    }

    @Test func twoBridgesClaimingAtOnceStillLeaveTheAppsCopyBridged() {
        var bridge = connected()
        // The app copies on :0; before its TARGETS are read, another bridge's claim lands on :1.
        _ = bridge.handle(.ownerChanged(.clipboard, change(app), display: 0))
        _ = bridge.handle(.ownerChanged(.clipboard, change(0x80_0001), display: 1))
        #expect(bridge.handle(.targetsRead(.clipboard, display: 0, generation: 1, .success([.string]))) == [])
        // The newer change was the other bridge's: the app's change on :0 is taken up again.
        #expect(bridge.handle(.targetsRead(.clipboard, display: 1, generation: 2, .success([.string, BridgePolicy.marker]))) == [
            .report(.notBridged(.clipboard, from: ":1", reason: "another bridge owns it (_CLIPBRIDGE_BRIDGED)")),
            .readTargets(.clipboard, display: 0, generation: 3),
        ])
        #expect(bridge.handle(.targetsRead(.clipboard, display: 0, generation: 3, .success([.string]))) == [
            .claim(.clipboard, displays: [1], source: source(0, 3, [.string]), announces: true),
        ])
    }

    @Test func ourOwnClaimOvertakingAChangeKeepsTheOfferCurrent() {
        var bridge = connected()
        _ = bridge.handle(.ownerChanged(.clipboard, change(app), display: 0))
        _ = bridge.handle(.targetsRead(.clipboard, display: 0, generation: 1, .success([.string])))
        _ = bridge.handle(.ownerChanged(.clipboard, change(app), display: 1))
        let failure = BridgeMachine.TargetsFailure(reason: "the owner went away", ownClaimIsOwner: true)
        #expect(bridge.handle(.targetsRead(.clipboard, display: 1, generation: 2, .failure(failure))) == [
            .report(.notBridged(.clipboard, from: ":1", reason: "our own claim replaced it before its TARGETS were read")),
        ])
        #expect(bridge.isCurrent(.clipboard, generation: 1))
    }

    @Test func aNewOwnerOnTheSourceDisplayMakesTheOldOfferStaleAtOnce() {
        var bridge = connected()
        _ = bridge.handle(.ownerChanged(.clipboard, change(app), display: 0))
        _ = bridge.handle(.targetsRead(.clipboard, display: 0, generation: 1, .success([.string])))
        _ = bridge.handle(.ownerChanged(.clipboard, change(app), display: 0))
        // Relays of the old offer refuse while the new owner's TARGETS are read.
        #expect(!bridge.isCurrent(.clipboard, generation: 1))
    }

    @Test func unbridgedOwnersReleaseTheOtherDisplays() {
        let cases: [(Result<[SelectionTarget], BridgeMachine.TargetsFailure>, String)] = [
            (.success([.utf8String, SelectionTarget.passwordManagerHint]), "the content is marked sensitive (x-kde-passwordManagerHint)"),
            (.success([.targets, "PIXMAP"]), "it offers nothing that can cross displays"),
            (.failure(.init(reason: "timed out", ownClaimIsOwner: false)), "its TARGETS could not be read: timed out"),
        ]
        for (result, reason) in cases {
            var bridge = connected()
            _ = bridge.handle(.ownerChanged(.clipboard, change(app), display: 1))
            #expect(bridge.handle(.targetsRead(.clipboard, display: 1, generation: 1, result)) == [
                .release(.clipboard, displays: [0]), .report(.notBridged(.clipboard, from: ":1", reason: reason)),
            ])
            #expect(!bridge.isCurrent(.clipboard, generation: 1))
        }
    }

    @Test func sensitiveContentCrossesOnlyWhenAskedAndCarriesTheHint() {
        var bridge = machine(2, sensitive: true)
        _ = bridge.handle(.connected(display: 0, owned: []))
        _ = bridge.handle(.connected(display: 1, owned: []))
        _ = bridge.handle(.ownerChanged(.clipboard, change(app), display: 0))
        #expect(bridge.handle(.targetsRead(.clipboard, display: 0, generation: 1,
                                           .success([.utf8String, SelectionTarget.passwordManagerHint]))) == [
            .claim(.clipboard, displays: [1], source: source(0, 1, [.utf8String], sensitive: true), announces: true),
        ])
    }

    @Test func theSourcesOwnerGoneOrItsDisplayGoneWithdrawsTheOffer() {
        var bridge = connected(3)
        _ = bridge.handle(.ownerChanged(.clipboard, change(app), display: 1))
        _ = bridge.handle(.targetsRead(.clipboard, display: 1, generation: 1, .success([.string])))
        // An owner gone on another display than the source's changes nothing.
        #expect(bridge.handle(.ownerChanged(.clipboard, change(nil), display: 0)) == [])
        #expect(bridge.handle(.ownerChanged(.clipboard, change(nil), display: 1)) == [
            .release(.clipboard, displays: [0, 2]), .report(.withdrawn(.clipboard, from: ":1")),
        ])
        _ = bridge.handle(.ownerChanged(.clipboard, change(app), display: 2))
        _ = bridge.handle(.targetsRead(.clipboard, display: 2, generation: 2, .success([.string])))
        #expect(bridge.handle(.disconnected(display: 2, reason: "the connection broke")) == [
            .report(.disconnected(display: ":2", reason: "the connection broke")), .release(.clipboard, displays: [0, 1]),
        ])
        #expect(!bridge.isCurrent(.clipboard, generation: 2))
        // A change on a display that is gone is not followed.
        #expect(bridge.handle(.ownerChanged(.clipboard, change(app), display: 2)) == [])
        #expect(bridge.handle(.disconnected(display: 2, reason: "again")) == [])
    }
}
