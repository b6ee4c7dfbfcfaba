import Testing
@testable import X11Selection

@Suite struct ManagerHandoverTests {
    @Test func savedOnlyAfterTheAnswerAndTheTransfers() {
        var handover = ManagerHandover()
        handover.transferStarted()
        let result1 = handover.managerNotified(accepted: true)
        #expect(result1 == nil)
        let result2 = handover.transferEnded(served: true)
        #expect(result2 == .saved)
    }

    @Test func answerAfterTransfersIsSaved() {
        var handover = ManagerHandover()
        handover.transferStarted()
        let result3 = handover.transferEnded(served: true)
        #expect(result3 == nil)
        let result4 = handover.managerNotified(accepted: true)
        #expect(result4 == .saved)
        #expect(handover.transfersServed == 1)
    }

    @Test func refusalIsReported() {
        var handover = ManagerHandover()
        let result5 = handover.managerNotified(accepted: false)
        #expect(result5 == .refused)
    }

    @Test func deadlineWinsOnlyWhenUndecided() {
        var pending = ManagerHandover()
        pending.transferStarted()
        _ = pending.managerNotified(accepted: true)
        let result6 = pending.deadlinePassed()
        #expect(result6 == .timedOut)
        var decided = ManagerHandover()
        _ = decided.managerNotified(accepted: true)
        let result7 = decided.deadlinePassed()
        #expect(result7 == .saved)
    }
}
