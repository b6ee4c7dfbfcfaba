import Foundation
import Testing
@testable import SelectionCore

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
        #expect(SnapshotPolicy.plan(for: [.utf8String, SelectionTarget.passwordManagerHint]) == .sensitive)
        #expect(SnapshotPolicy.plan(for: [SelectionTarget.passwordManagerHint, .utf8String]) == .sensitive)
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
        #expect(SnapshotPolicy.plan(for: [], requested: [.utf8String, SelectionTarget.passwordManagerHint]) == .sensitive)
        #expect(SnapshotPolicy.plan(for: [SelectionTarget.passwordManagerHint], requested: [.utf8String]) == .sensitive)
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

}
