import Foundation
import Testing
@testable import X11Selection

/// The X side of a snapshot's plan: MULTIPLE batches, TARGET_SIZES, and the file list a kept copy gets back.
@Suite struct SnapshotBatchingTests {
    private func names(_ count: Int) -> [SelectionTarget] { (0..<count).map { SelectionTarget(rawValue: "t\($0)") } }

    @Test func announcedSizesSkipUnknownDuplicatesAndAnOddTail() {
        let sizes = SnapshotBatching.announcedSizes([300, 12, 301, 0xFFFF_FFFF, 300, 99, 0, 5, 302, 70_000_000, 303])
        #expect(sizes.map(\.atom.rawValue) == [300, 302])
        #expect(sizes.map(\.size) == [12, 70_000_000])
    }

    @Test func manyTargetsAreReadInMultipleBatchesWhenTheOwnerOffersMultiple() {
        let steps = SnapshotPolicy.steps(for: names(150), keeps: nil, maximumFlavours: 256)
        let batches = SnapshotBatching.batches(
            steps, ownerOffersMultiple: true, handover: false, announced: [:], inMemoryBytes: 1 << 20)
        #expect(batches.map(\.count) == [64, 64, 22])
        #expect(batches.joined().map(\.rawValue) == names(150).map(\.rawValue))
        // No MULTIPLE offered: none.
        #expect(SnapshotBatching.batches(
            steps, ownerOffersMultiple: false, handover: true, announced: [:], inMemoryBytes: 1 << 20).isEmpty)
    }

    @Test func fewTargetsAreReadOneByOneUnlessTheOwnerHandsOver() {
        // xsel 1.2 lists MULTIPLE among six targets and never answers it: a whole timeout lost.
        let steps = SnapshotPolicy.steps(for: names(6), keeps: nil, maximumFlavours: 256)
        #expect(SnapshotBatching.batches(
            steps, ownerOffersMultiple: true, handover: false, announced: [:], inMemoryBytes: 1 << 20).isEmpty)
        #expect(SnapshotBatching.batches(
            steps, ownerOffersMultiple: true, handover: true, announced: [:], inMemoryBytes: 1 << 20).map(\.count) == [6])
    }

    @Test func largeAnnouncedAndOmittedTargetsStayOutOfBatches() {
        let steps = SnapshotPolicy.steps(for: names(20), keeps: { $0 != "t1" }, maximumFlavours: 18)
        let batches = SnapshotBatching.batches(
            steps, ownerOffersMultiple: true, handover: false, announced: ["t2": 5 << 20, "t3": 10], inMemoryBytes: 1 << 20)
        let batched = Set(batches.joined())
        #expect(!batched.contains("t1") && !batched.contains("t2") && batched.contains("t3"))
        #expect(!batched.contains("t19"))  // over the flavour limit
        #expect(batched.count == 17)  // t0 and t3…t18
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
