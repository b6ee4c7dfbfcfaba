import Foundation
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

    // MARK: Bounded work per owner

    private func names(_ count: Int) -> [SelectionTarget] { (0..<count).map { SelectionTarget(rawValue: "t\($0)") } }

    @Test func atMostTheFlavourLimitIsReadTheRestOmittedInOrder() {
        let steps = SnapshotPolicy.steps(for: names(5), keeps: nil, maximumFlavours: 3)
        #expect(steps.prefix(3) == [.read("t0"), .read("t1"), .read("t2")])
        #expect(steps.suffix(2) == [.omit("t3", reason: SnapshotPolicy.overFlavourLimit(3)),
                                    .omit("t4", reason: SnapshotPolicy.overFlavourLimit(3))])
    }

    @Test func targetsNotKeptDoNotCountAgainstTheLimit() {
        let steps = SnapshotPolicy.steps(for: names(4), keeps: { $0 != "t0" }, maximumFlavours: 2)
        #expect(steps == [.omit("t0", reason: "not among the kept types"), .read("t1"), .read("t2"),
                          .omit("t3", reason: SnapshotPolicy.overFlavourLimit(2))])
    }

    @Test func aMillionTargetsAreReadUpToTheLimit() {
        let steps = SnapshotPolicy.steps(for: names(1_000_000), keeps: nil, maximumFlavours: 256)
        #expect(steps.count == 1_000_000)
        #expect(steps.filter { if case .read = $0 { true } else { false } }.count == 256)
    }

    @Test func manyTargetsAreReadInMultipleBatchesWhenTheOwnerOffersMultiple() {
        let steps = SnapshotPolicy.steps(for: names(150), keeps: nil, maximumFlavours: 256)
        let batches = SnapshotPolicy.batches(
            steps, ownerOffersMultiple: true, handover: false, announced: [:], inMemoryBytes: 1 << 20)
        #expect(batches.map(\.count) == [64, 64, 22])
        #expect(batches.joined().map(\.rawValue) == names(150).map(\.rawValue))
        // No MULTIPLE offered: none.
        #expect(SnapshotPolicy.batches(
            steps, ownerOffersMultiple: false, handover: true, announced: [:], inMemoryBytes: 1 << 20).isEmpty)
    }

    @Test func fewTargetsAreReadOneByOneUnlessTheOwnerHandsOver() {
        // xsel 1.2 lists MULTIPLE among six targets and never answers it: a whole timeout lost.
        let steps = SnapshotPolicy.steps(for: names(6), keeps: nil, maximumFlavours: 256)
        #expect(SnapshotPolicy.batches(
            steps, ownerOffersMultiple: true, handover: false, announced: [:], inMemoryBytes: 1 << 20).isEmpty)
        #expect(SnapshotPolicy.batches(
            steps, ownerOffersMultiple: true, handover: true, announced: [:], inMemoryBytes: 1 << 20).map(\.count) == [6])
    }

    @Test func largeAnnouncedAndOmittedTargetsStayOutOfBatches() {
        let steps = SnapshotPolicy.steps(for: names(20), keeps: { $0 != "t1" }, maximumFlavours: 18)
        let batches = SnapshotPolicy.batches(
            steps, ownerOffersMultiple: true, handover: false, announced: ["t2": 5 << 20, "t3": 10], inMemoryBytes: 1 << 20)
        let batched = Set(batches.joined())
        #expect(!batched.contains("t1") && !batched.contains("t2") && batched.contains("t3"))
        #expect(!batched.contains("t19"))  // over the flavour limit
        #expect(batched.count == 17)  // t0 and t3…t18
    }

    // MARK: Side effects (a file manager's cut)

    @Test func aFileManagersCopiedFilesListIsNeverRead() {
        let steps = SnapshotPolicy.steps(
            for: ["text/uri-list", "x-special/gnome-copied-files", "application/x-kde-cutselection", "x-special/mate-copied-files"],
            keeps: nil, maximumFlavours: 256)
        #expect(steps == [.read("text/uri-list"), .omit("x-special/gnome-copied-files", reason: SnapshotPolicy.sideEffectReason),
                          .read("application/x-kde-cutselection"),
                          .omit("x-special/mate-copied-files", reason: SnapshotPolicy.sideEffectReason)])
    }

    @Test func theCopiedFilesListIsRemadeFromAURIList() {
        // libfm's uri-list: CRLF lines and a NUL (it sends length + 1); comments and empty lines are not URIs.
        let list = Data("# a comment\r\nfile:///tmp/a%20b.txt\r\n\r\nfile:///tmp/c\r\n\0".utf8)
        #expect(SnapshotPolicy.copiedFiles(fromURIList: list) == Data("copy\nfile:///tmp/a%20b.txt\nfile:///tmp/c".utf8))
        #expect(SnapshotPolicy.copiedFiles(fromURIList: Data("# only a comment\r\n".utf8)) == nil)
        #expect(SnapshotPolicy.copiedFiles(fromURIList: Data()) == nil)
    }

    @Test func aCutIsKnownByTheKDECutSelection() {
        func one(_ target: String, _ text: String) -> [(target: SelectionTarget, bytes: Data)] {
            [(SelectionTarget(rawValue: target), Data(text.utf8))]
        }
        #expect(SnapshotPolicy.isCut(one("application/x-kde-cutselection", "1\0")))
        #expect(!SnapshotPolicy.isCut(one("application/x-kde-cutselection", "0")))
        #expect(!SnapshotPolicy.isCut(one("text/uri-list", "1")))
        #expect(!SnapshotPolicy.isCut([]))
    }

    @Test func aKeptCopyGetsItsListBackInTheOwnersOrderAndACutDoesNot() {
        let steps = SnapshotPolicy.steps(
            for: ["text/uri-list", "x-special/gnome-copied-files", "UTF8_STRING"], keeps: nil, maximumFlavours: 256)
        func flavour(_ target: SelectionTarget, _ text: String) -> SelectionSnapshot.Flavour {
            .init(target: target, type: target, format: 8, content: .bytes(Data(text.utf8)), byteCount: text.utf8.count)
        }
        var copy = SelectionSnapshot(selection: .clipboard, flavours: [
            flavour("text/uri-list", "file:///x\r\n"), flavour("UTF8_STRING", "/x"),
        ], omissions: [.init(target: "x-special/gnome-copied-files", reason: SnapshotPolicy.sideEffectReason)])
        copy.completeFileList(sideEffectPlaces: steps)
        #expect(copy.flavours.map(\.target) == ["text/uri-list", "x-special/gnome-copied-files", "UTF8_STRING"])
        #expect(copy.flavours[1].content == .bytes(Data("copy\nfile:///x".utf8)))
        #expect(copy.omissions.isEmpty && !copy.isCut)

        var cut = SelectionSnapshot(selection: .clipboard, flavours: [
            flavour("text/uri-list", "file:///x\r\n"), flavour("application/x-kde-cutselection", "1"),
        ])
        cut.completeFileList(sideEffectPlaces: steps)
        #expect(cut.isCut && cut.flavours.count == 2)
    }
}
