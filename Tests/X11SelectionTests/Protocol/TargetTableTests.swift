import Foundation
import Testing
@testable import X11Selection

@Suite struct TargetTableTests {
    let offer = SelectionOffer([
        .init(target: "text/html", source: .bytes(Data())),
        .init(target: .utf8String, source: .bytes(Data())),
        .init(target: "text/html", source: .bytes(Data("dup".utf8))),
        .init(target: .targets, source: .bytes(Data("not content".utf8))),
    ])

    @Test func advertisesExactlyTheServableTargetsThenMeta() {
        let table = TargetTable(offer: offer)
        #expect(table.advertisedTargets == [
            "text/html", "UTF8_STRING", "TARGETS", "MULTIPLE", "TIMESTAMP", "SAVE_TARGETS", "DELETE", "TARGET_SIZES",
        ])
    }

    @Test func aManagerSelectionAnswersSaveTargetsAndRefusesDelete() {
        let table = TargetTable(offer: SelectionOffer([]), role: .manager)
        #expect(table.advertisedTargets == ["TARGETS", "TIMESTAMP", "SAVE_TARGETS"])
        #expect(table.answer(for: .saveTargets) == .saveTargetsRequest)
        #expect(table.answer(for: .saveTargets, insideMultiple: true) == .refuse)
        #expect(table.answer(for: .targets) == .targets)
        #expect(table.answer(for: .timestamp) == .timestamp)
        for target: SelectionTarget in [.delete, .multiple, .targetSizes, .utf8String] {
            #expect(table.answer(for: target) == .refuse, "\(target)")
        }
    }

    @Test func answersEachTarget() {
        let table = TargetTable(offer: offer)
        #expect(table.answer(for: "text/html") == .content(0))
        #expect(table.answer(for: .utf8String) == .content(1))
        #expect(table.answer(for: .targets) == .targets)
        #expect(table.answer(for: .timestamp) == .timestamp)
        #expect(table.answer(for: .multiple) == .multiple)
        #expect(table.answer(for: .multiple, insideMultiple: true) == .refuse)
        #expect(table.answer(for: .saveTargets) == .saveTargets)
        #expect(table.answer(for: .delete) == .delete)
        #expect(table.answer(for: .targetSizes) == .targetSizes)
        #expect(table.answer(for: "image/png") == .refuse)
        #expect(table.answer(for: .string) == .refuse)
    }

    @Test func sensitiveOffersCarryTheHintAndRefuseSaveTargets() {
        let secret = SelectionOffer([.init(target: .utf8String, source: .bytes(Data("pw".utf8)))], isSensitive: true)
        let table = TargetTable(offer: secret)
        #expect(table.contentTargets == [.utf8String, SelectionOffer.passwordManagerHint])
        #expect(!table.advertisedTargets.contains(.saveTargets))
        #expect(table.answer(for: .saveTargets) == .refuse)
        guard case .bytes(let hint) = secret.representations[1].source else {
            Issue.record("the hint must be given up front")
            return
        }
        #expect(hint == Data("secret".utf8))
    }

    @Test func editedRepresentationsStillAdvertiseEachTargetOnce() {
        var edited = SelectionOffer([.init(target: .utf8String, source: .bytes(Data("a".utf8)))])
        edited.representations.append(.init(target: "text/html", source: .bytes(Data())))
        edited.representations.append(.init(target: .utf8String, source: .bytes(Data("b".utf8))))
        edited.representations.append(.init(target: .timestamp, source: .bytes(Data())))
        let table = TargetTable(offer: edited)
        #expect(table.contentTargets == [.utf8String, "text/html"])
        #expect(table.advertisedTargets.filter { $0 == .utf8String }.count == 1)
        #expect(table.answer(for: .utf8String) == .content(0))
        #expect(table.answer(for: .timestamp) == .timestamp)
    }

    @Test func targetSizesUseMinusOneForUnknown() {
        let items = TargetTable.targetSizeItems([(X11Atom(rawValue: 7), 12), (X11Atom(rawValue: 8), nil)])
        #expect(items == [7, 12, 8, 0xFFFF_FFFF])
    }
}
