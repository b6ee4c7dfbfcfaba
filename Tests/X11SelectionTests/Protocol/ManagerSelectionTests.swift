import FoundationEssentials
import Testing
@testable import X11Selection

@Suite struct ManagerSelectionTests {
    private let ours = X11Window(rawValue: 0x40_0001)
    private let other = X11Window(rawValue: 0x60_0003)
    private let atomType = X11Atom(rawValue: 4)

    private func atomList(_ values: [UInt], type: X11Atom? = nil, format: Int = 32, bytesAfter: Int = 0) -> PropertyValue {
        var bytes = Data()
        for value in values { withUnsafeBytes(of: UInt32(value).littleEndian) { bytes.append(contentsOf: $0) } }
        return PropertyValue(type: type ?? atomType, format: format, bytes: bytes, bytesAfter: bytesAfter, itemCount: values.count)
    }

    @Test func takesAFreeSelectionRefusesOrReplacesAnothersManager() {
        #expect(ManagerSelection.acquisition(owner: nil, ours: ours, replacing: false) == .take)
        #expect(ManagerSelection.acquisition(owner: ours, ours: ours, replacing: false) == .take)
        #expect(ManagerSelection.acquisition(owner: other, ours: ours, replacing: false) == .refuse(other))
        #expect(ManagerSelection.acquisition(owner: other, ours: ours, replacing: true) == .replace(other))
    }

    @Test func announcesTimeSelectionAndOwner() {
        let message = ManagerSelection.announcement(
            time: X11Timestamp(rawValue: 1234), selection: X11Atom(rawValue: 300), owner: ours)
        #expect(message == [1234, 300, ours.rawValue, 0, 0])
    }

    @Test func anAbsentListSavesEverything() {
        #expect(ManagerSelection.saveTargets(nil, atomType: atomType) == .all)
        let absent = PropertyValue(type: .none, format: 0, bytes: Data(), bytesAfter: 0, itemCount: 0)
        #expect(ManagerSelection.saveTargets(absent, atomType: atomType) == .all)
    }

    @Test func aListKeepsItsOrderWithoutDuplicatesOrNone() {
        #expect(ManagerSelection.saveTargets(atomList([310, 0, 305, 310, 320]), atomType: atomType)
            == .listed([X11Atom(rawValue: 310), X11Atom(rawValue: 305), X11Atom(rawValue: 320)]))
        #expect(ManagerSelection.saveTargets(atomList([]), atomType: atomType) == .listed([]))
    }

    @Test func aListOfAnotherTypeFormatOrSizeIsMalformed() {
        #expect(ManagerSelection.saveTargets(atomList([310], type: X11Atom(rawValue: 31)), atomType: atomType) == .malformed)
        #expect(ManagerSelection.saveTargets(atomList([310], format: 8), atomType: atomType) == .malformed)
        #expect(ManagerSelection.saveTargets(atomList([310], bytesAfter: 4), atomType: atomType) == .malformed)
        let tooLong = atomList(Array(repeating: 310, count: ManagerSelection.maximumSaveTargets + 1))
        #expect(ManagerSelection.saveTargets(tooLong, atomType: atomType) == .malformed)
    }
}
