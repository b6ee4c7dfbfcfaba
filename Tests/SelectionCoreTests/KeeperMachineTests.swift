import Testing
@testable import SelectionCore

/// The keeper's decisions, event by event, including the races the daemon met on real displays: an owner
/// replaced during a read, an owner gone during a read and another one coming before it ended, a verdict after
/// the owner left, a SAVE_TARGETS request ahead of the owner's change.
@Suite struct KeeperMachineTests {
    typealias Machine = KeeperMachine<String, TestTerms>

    let app = 0x40_0001
    let other = 0x60_0001
    let copied = KeptFacts(flavours: 3, bytes: 120, omitted: ["PIXMAP"])

    /// A change at time 1: nobody (the owner went away), ours, or another client's.
    func change(_ owner: Int?, ours: Bool = false) -> Machine.Event {
        .ownerChanged(meaning(owner: owner, ours: ours), owner: owner, time: 1)
    }

    func save(_ id: UInt64, targets: [SelectionTarget]? = nil) -> TestHandover {
        TestHandover(id: id, requestor: app, targets: targets)
    }

    /// A claim as the machine makes it: a restoration is stamped with the time its owner left (`change`'s: 1).
    func claim(_ content: String, _ purpose: Machine.Purpose, narrowedTo: [SelectionTarget]? = nil) -> Machine.Action {
        .claim(Machine.Claim(
            content: content, purpose: purpose, narrowedTo: narrowedTo,
            time: purpose == .restore ? 1 : nil))
    }

    /// The race the daemon met in CI: an owner leaves, and before the restoring claim reaches the server another
    /// application takes the selection. Claimed with the time the owner left, the restoration is ignored by the
    /// server then (the selection changed later), instead of replacing the application's copy.
    @Test func aRestorationClaimsWithTheTimeItsOwnerLeft() {
        var machine = Machine(selection: .clipboard, validates: false)
        _ = machine.handle(.started(owner: nil))
        _ = machine.handle(change(app))
        _ = machine.handle(.read(generation: 1, .kept("A", copied)))
        #expect(machine.handle(.ownerChanged(.ownerGone, owner: nil, time: 77)) == [
            .claim(Machine.Claim(content: "A", purpose: .restore, narrowedTo: nil, time: 77)),
        ])
    }

    @Test func keepsEachNewOwnerAndRestoresItWhenItLeavesWithoutASuccessor() {
        var machine = Machine(selection: .clipboard, validates: false)
        #expect(machine.handle(.started(owner: nil)) == [])
        #expect(machine.handle(change(app)) == [.read(generation: 1, targets: nil, inOneRequest: false)])
        // Kept and, with no validator, accepted at once: a copy for the history.
        #expect(machine.handle(.read(generation: 1, .kept("A", copied)))
            == [.report(.kept(.clipboard, flavours: 3, bytes: 120, omitted: ["PIXMAP"])), .record(owner: app, "A")])
        #expect(machine.handle(change(nil)) == [claim("A", .restore)])
        #expect(machine.handle(.claimEnded(.success(4))) == [.report(.restored(.clipboard, flavours: 4))])
        #expect(machine.isServing)
        // The keeper's own claim, and the owner changes it causes, are not new content.
        #expect(machine.handle(change(app, ours: true)) == [])
        #expect(machine.handle(change(nil)) == [])
        // A new owner takes over: what was served leaves once its transfers end.
        #expect(machine.handle(change(other)) == [.stopServing, .read(generation: 2, targets: nil, inOneRequest: false)])
        #expect(!machine.isServing)
    }

    @Test func anOwnerAlreadyThereAtTheStartIsKept() {
        var machine = Machine(selection: .primary, validates: true)
        #expect(machine.handle(.started(owner: app)) == [.read(generation: 1, targets: nil, inOneRequest: false)])
        #expect(machine.handle(.read(generation: 1, .kept("A", copied))) == [
            .report(.kept(.primary, flavours: 3, bytes: 120, omitted: ["PIXMAP"])),
            .validate(generation: 1, owner: app, "A"),
        ])
    }

    @Test func aReadOvertakenByANewerOwnerIsNeitherReportedNorServed() {
        var machine = Machine(selection: .clipboard, validates: false)
        _ = machine.handle(change(app))
        #expect(machine.handle(change(other)) == [
            .cancelRead(generation: 1), .read(generation: 2, targets: nil, inOneRequest: false),
        ])
        // The cancelled read still ends with the old owner's content: dropped.
        #expect(machine.handle(.read(generation: 1, .kept("old", copied))) == [])
        #expect(machine.handle(.read(generation: 2, .kept("new", copied))).count == 2)
        #expect(machine.handle(change(nil)) == [claim("new", .restore)])
    }

    @Test func anOwnerGoneDuringItsReadIsRestoredOnceTheReadEnds() {
        var machine = Machine(selection: .clipboard, validates: false)
        _ = machine.handle(change(app))
        #expect(machine.handle(change(nil)) == [])
        let part = KeptFacts(flavours: 2, bytes: 10, omitted: ["image/png"], ownerLeft: true)
        #expect(machine.handle(.read(generation: 1, .kept("part", part))) == [
            .report(.keptPart(.clipboard, flavours: 2, bytes: 10, omitted: ["image/png"])), .record(owner: app, "part"),
            claim("part", .restore),
        ])
    }

    @Test func aNewOwnerAfterTheOldOneLeftMidReadIsNeverClobberedByTheRestoration() {
        var machine = Machine(selection: .clipboard, validates: false)
        _ = machine.handle(change(app))
        _ = machine.handle(change(nil))
        // Another app copies before the first one's read ended: its content stands.
        #expect(machine.handle(change(other)) == [
            .cancelRead(generation: 1), .read(generation: 2, targets: nil, inOneRequest: false),
        ])
        #expect(machine.handle(.read(generation: 1, .kept("old", copied))) == [])
    }

    @Test func sensitiveEmptyFailedAndCutContentIsNotRestored() {
        let cases: [(Machine.ReadOutcome, KeeperReport<Int>, KeeperReport<Int>)] = [
            (.kept("s", KeptFacts(flavours: 0, isSensitive: true)), .skippedSensitive(.clipboard), .lostWithOwner(.clipboard)),
            (.kept("e", KeptFacts(flavours: 0)), .kept(.clipboard, flavours: 0, bytes: 0, omitted: []), .lostWithOwner(.clipboard)),
            (.failed("timed out"), .notKept(.clipboard, reason: "timed out"), .lostWithOwner(.clipboard)),
            (.kept("cut", KeptFacts(flavours: 2, isCut: true)), .kept(.clipboard, flavours: 2, bytes: 0, omitted: []),
             .cutNotRestored(.clipboard)),
        ]
        for (outcome, readReport, goneReport) in cases {
            var machine = Machine(selection: .clipboard, validates: false)
            _ = machine.handle(change(app))
            // Reported, and not restored below. Nothing is recorded for a history but the cut, which was kept: the
            // history's policy refuses it (CapturePolicyTests), the keeper does not decide it.
            let recorded: [Machine.Action] = if case .kept("cut", _) = outcome { [.record(owner: app, "cut")] } else { [] }
            #expect(machine.handle(.read(generation: 1, outcome)) == [.report(readReport)] + recorded)
            #expect(machine.handle(change(nil)) == [.report(goneReport)])
            #expect(!machine.isServing)
        }
        var machine = Machine(selection: .clipboard, validates: false)
        #expect(machine.handle(change(nil)) == [.report(.lostWithOwner(.clipboard))])
    }

    @Test func aRestorationOvertakenByAnotherClientsClaimIsReported() {
        var machine = Machine(selection: .clipboard, validates: false)
        _ = machine.handle(change(app))
        _ = machine.handle(.read(generation: 1, .kept("A", copied)))
        _ = machine.handle(change(nil))
        #expect(machine.handle(.claimEnded(.failure(.init(reason: "lost the race")))) == [
            .report(.notKept(.clipboard, reason: "lost the race")),
        ])
        #expect(!machine.isServing)
    }

    // MARK: - SAVE_TARGETS

    @Test func aSaveAheadOfTheOwnersChangeReadsThatOwnerOnceAndIsAnsweredOnlyOnceClaimed() {
        var machine = Machine(selection: .clipboard, validates: true)
        let request = save(1, targets: ["UTF8_STRING", "text/html"])
        #expect(machine.handle(.saveRequested(request, owner: app)) == [
            .read(generation: 1, targets: ["UTF8_STRING", "text/html"], inOneRequest: true),
        ])
        // The owner's change arrives late: it is the owner the save's snapshot is of, not a new one.
        #expect(machine.handle(change(app)) == [])
        #expect(machine.handle(.read(generation: 1, .kept("A", copied))) == [
            // A handover is not judged: what the owner hands over is recorded.
            .report(.kept(.clipboard, flavours: 3, bytes: 120, omitted: ["PIXMAP"])), .record(owner: app, "A"),
            claim("A", .save([request]), narrowedTo: ["UTF8_STRING", "text/html"]),
        ])
        #expect(machine.handle(.claimEnded(.success(2))) == [
            .answer(request, saved: true), .report(.saved(.clipboard, flavours: 2, requestor: app)),
        ])
        // Already served: a second save is answered at once.
        let again = save(2)
        #expect(machine.handle(.saveRequested(again, owner: app)) == [.answer(again, saved: true)])
    }

    /// A handover never narrows what the keeper already kept of the same copy (issue 38: Emacs lists only UTF8_STRING
    /// in SAVE_TARGETS; its TEXT, STRING and COMPOUND_TEXT, kept when it copied, stay offered).
    @Test func aSaveOfACopyAlreadyKeptKeepsEveryFlavour() {
        var machine = Machine(selection: .clipboard, validates: false)
        _ = machine.handle(change(app))
        _ = machine.handle(.read(generation: 1, .kept("A", copied)))
        let request = save(1, targets: ["UTF8_STRING"])
        #expect(machine.handle(.saveRequested(request, owner: app)) == [claim("A", .save([request]), narrowedTo: nil)])
        #expect(machine.handle(.claimEnded(.success(3))) == [
            .answer(request, saved: true), .report(.saved(.clipboard, flavours: 3, requestor: app)),
        ])
    }

    @Test func twoSavesWaitingForOneReadAreBothAnswered() {
        var machine = Machine(selection: .clipboard, validates: false)
        _ = machine.handle(change(app))
        let first = save(1), second = save(2)
        #expect(machine.handle(.saveRequested(first, owner: app)) == [])
        #expect(machine.handle(.saveRequested(second, owner: app)) == [])
        #expect(machine.handle(.read(generation: 1, .kept("A", copied))).last == claim("A", .save([first, second])))
        #expect(machine.handle(.claimEnded(.success(3))) == [
            .answer(first, saved: true), .answer(second, saved: true),
            .report(.saved(.clipboard, flavours: 3, requestor: app)),
        ])
    }

    @Test func aSaveIsRefusedWhenTheSelectionChangesDuringItsReadOrNothingMayBeKept() {
        var machine = Machine(selection: .clipboard, validates: false)
        let request = save(1)
        _ = machine.handle(.saveRequested(request, owner: app))
        #expect(machine.handle(change(other)) == [
            .cancelRead(generation: 1), .answer(request, saved: false),
            .report(.saveRefused(.clipboard, requestor: app, reason: "the selection changed while it was read")),
            .read(generation: 2, targets: nil, inOneRequest: false),
        ])
        let sensitive = save(2)
        #expect(machine.handle(.saveRequested(sensitive, owner: other)) == [])
        #expect(machine.handle(.read(generation: 2, .kept("s", KeptFacts(flavours: 0, isSensitive: true)))) == [
            .report(.skippedSensitive(.clipboard)), .answer(sensitive, saved: false),
            .report(.saveRefused(.clipboard, requestor: app, reason: "the content is marked sensitive")),
        ])
        let failed = save(3)
        var fresh = Machine(selection: .clipboard, validates: false)
        _ = fresh.handle(.saveRequested(failed, owner: nil))
        #expect(fresh.handle(.read(generation: 1, .failed("no owner"))) == [
            .report(.notKept(.clipboard, reason: "no owner")), .answer(failed, saved: false),
            .report(.saveRefused(.clipboard, requestor: app, reason: "nothing could be read")),
        ])
    }

    @Test func aSaveWhoseClaimFailsIsRefused() {
        var machine = Machine(selection: .clipboard, validates: false)
        let request = save(1)
        _ = machine.handle(.saveRequested(request, owner: app))
        _ = machine.handle(.read(generation: 1, .kept("A", copied)))
        #expect(machine.handle(.claimEnded(.failure(.init(reason: "BadWindow")))) == [
            .answer(request, saved: false), .report(.saveRefused(.clipboard, requestor: app, reason: "BadWindow")),
        ])
    }

    // MARK: - Validation

    @Test func aVetoRestoresTheLastAcceptedContentOrClears() {
        var machine = Machine(selection: .clipboard, validates: true)
        _ = machine.handle(change(app))
        // Judged content is recorded only once accepted; vetoed content never.
        #expect(machine.handle(.read(generation: 1, .kept("good", copied))).contains(.record(owner: app, "good")) == false)
        #expect(machine.handle(.verdict(.accept, generation: 1)) == [.record(owner: app, "good")])
        _ = machine.handle(change(other))
        _ = machine.handle(.read(generation: 2, .kept("bad", copied)))
        #expect(machine.handle(.verdict(.restorePrevious, generation: 2)) == [claim("good", .restorePrevious)])
        #expect(machine.handle(.claimEnded(.success(3))) == [.report(.vetoed(.clipboard, restored: true))])

        var clearing = Machine(selection: .clipboard, validates: true)
        _ = clearing.handle(change(app))
        _ = clearing.handle(.read(generation: 1, .kept("bad", copied)))
        #expect(clearing.handle(.verdict(.restorePrevious, generation: 1)) == [.clear, .report(.vetoed(.clipboard, restored: false))])
        _ = clearing.handle(change(other))
        _ = clearing.handle(.read(generation: 2, .kept("worse", copied)))
        #expect(clearing.handle(.verdict(.clear, generation: 2)) == [.clear, .report(.vetoed(.clipboard, restored: false))])
    }

    @Test func aVerdictAfterTheOwnerLeftJudgesTheRestoredContent() {
        var machine = Machine(selection: .clipboard, validates: true)
        _ = machine.handle(change(app))
        _ = machine.handle(.read(generation: 1, .kept("first", copied)))
        _ = machine.handle(change(nil))
        _ = machine.handle(.claimEnded(.success(3)))
        // A slow hook accepts after the keeper restored the copy: that copy is what a later veto restores, and
        // the history's.
        #expect(machine.handle(.verdict(.accept, generation: 1)) == [.record(owner: nil, "first")])
        _ = machine.handle(change(other))
        _ = machine.handle(.read(generation: 2, .kept("second", copied)))
        #expect(machine.handle(.verdict(.restorePrevious, generation: 2)) == [claim("first", .restorePrevious)])
    }

    @Test func aVerdictOnAnOwnerSinceReplacedIsDropped() {
        var machine = Machine(selection: .clipboard, validates: true)
        _ = machine.handle(change(app))
        _ = machine.handle(.read(generation: 1, .kept("A", copied)))
        _ = machine.handle(change(other))
        #expect(machine.handle(.verdict(.clear, generation: 1)) == [])
        #expect(machine.handle(.verdict(.accept, generation: 1)) == [])
    }

    @Test func aFailedRestorationOfTheAcceptedContentClears() {
        var machine = Machine(selection: .clipboard, validates: true)
        _ = machine.handle(change(app))
        _ = machine.handle(.read(generation: 1, .kept("good", copied)))
        _ = machine.handle(.verdict(.accept, generation: 1))
        _ = machine.handle(change(other))
        _ = machine.handle(.read(generation: 2, .kept("bad", copied)))
        _ = machine.handle(.verdict(.restorePrevious, generation: 2))
        #expect(machine.handle(.claimEnded(.failure(.init(reason: "gone")))) == [
            .report(.notKept(.clipboard, reason: "gone")), .clear, .report(.vetoed(.clipboard, restored: false)),
        ])
    }

    // MARK: - Manager

    @Test func replacedAsManagerItReleasesWhatItServesAndStops() {
        var machine = Machine(selection: .clipboard, validates: false)
        #expect(machine.handle(.managerReplaced) == [.report(.replaced(.clipboard)), .stop])
        var serving = Machine(selection: .clipboard, validates: false)
        _ = serving.handle(change(app))
        _ = serving.handle(.read(generation: 1, .kept("A", copied)))
        _ = serving.handle(change(nil))
        _ = serving.handle(.claimEnded(.success(3)))
        #expect(serving.handle(.managerReplaced) == [.report(.replaced(.clipboard)), .release, .stop])
    }
}
