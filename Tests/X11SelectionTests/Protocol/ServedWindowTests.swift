import Testing
@testable import X11Selection

/// The adaptive batching window of `.served` events (`Claim.servedWindow`): prompt after a quiet spell,
/// wide under a sustained burst, and back to prompt once the burst ends.
@Suite struct ServedWindowTests {
    private func claim() -> Claim {
        Claim(
            id: 1, selection: SelectionName("CLIPBOARD"), selectionAtom: X11Atom(rawValue: 1),
            offer: SelectionOffer([]), time: X11Timestamp(rawValue: 1), events: LeaseEventChannel(limit: 1024),
            advertisedAtoms: [], contentAtoms: [], typeAtoms: [])
    }

    private func served(_ count: Int, on claim: Claim) -> [Bool] {
        (0..<count).map { _ in
            claim.report(.served(target: "text/a", requestor: X11Window(rawValue: 7), byteCount: 1))
        }
    }

    @Test func widensUnderABurstAndNarrowsWhenItEnds() {
        let claim = claim()
        #expect(claim.servedWindow == Claim.servedEventDelay)
        var windows: [Duration] = []
        for _ in 0..<6 {
            // Only the first held event asks for the deadline that closes the window.
            #expect(served(3, on: claim) == [true, false, false])
            claim.closeServedWindow()
            windows.append(claim.servedWindow)
        }
        #expect(windows.map { $0 / .milliseconds(1) } == [4, 8, 16, 32, 32, 32])
        #expect(served(1, on: claim) == [true])
        claim.closeServedWindow()
        #expect(claim.servedWindow == Claim.servedEventDelay)
    }

    @Test func aLostEventFlushesTheBatchAheadOfItWithoutWideningTheWindow() async {
        let claim = claim()
        _ = served(2, on: claim)
        #expect(claim.report(.lost(nil)) == false)
        claim.closeServedWindow()  // the deadline fires later, with nothing held
        #expect(claim.servedWindow == Claim.servedEventDelay)
        claim.finishIfDone()
    }
}
