import Testing
@testable import X11Selection

@Suite struct MultipleRequestTests {
    let multiple = X11Atom(rawValue: 50)

    @Test func parsesPairsAndIgnoresAnOddTrailingAtom() {
        let request = MultipleRequest(items: [1, 2, 3, 4, 5])
        #expect(request.pairs == [.init(target: X11Atom(rawValue: 1), property: X11Atom(rawValue: 2)),
                                  .init(target: X11Atom(rawValue: 3), property: X11Atom(rawValue: 4))])
        #expect(request.pending == 2)
    }

    @Test func rejectsNestedMultipleAndPropertyNone() {
        var request = MultipleRequest(items: [1, 2, 50, 3, 4, 0])
        let result1 = request.rejectInvalid(multipleAtom: multiple)
        #expect(result1 == [1, 2])
        #expect(request.pending == 1)
        let result2 = request.complete(0, success: true)
        #expect(result2)
        #expect(request.writeBackItems == [1, 2, 50, 0, 4, 0])
    }

    @Test func failedPairsAreWrittenBackAsNone() {
        var request = MultipleRequest(items: [10, 11, 12, 13, 14, 15])
        let result3 = request.complete(1, success: false)
        #expect(!result3)
        let result4 = request.complete(0, success: true)
        #expect(!result4)
        let result5 = request.complete(2, success: true)
        #expect(result5)
        #expect(request.isComplete)
        #expect(request.writeBackItems == [10, 11, 12, 0, 14, 15])
    }

    @Test func completingTwiceDoesNotUnderflow() {
        var request = MultipleRequest(items: [10, 11])
        let result6 = request.complete(0, success: true)
        #expect(result6)
        let result7 = request.complete(0, success: false)
        #expect(result7)
        #expect(request.pending == 0)
    }

    @Test func requestorSideReadsTheWriteBack() {
        let succeeded = MultipleRequest.succeededProperties(writeBack: [10, 11, 12, 0, 14, 15])
        #expect(succeeded == [X11Atom(rawValue: 11), X11Atom(rawValue: 15)])
    }
}
