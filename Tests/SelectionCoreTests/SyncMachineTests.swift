import Testing
@testable import SelectionCore

/// The autocutsel job's decisions: settle, wait for the button, never copy our own claims or an overtaken
/// change, never serve sensitive or empty content.
@Suite struct SyncMachineTests {
    typealias Machine = SyncMachine<String, ContinuousClock.Instant>

    let start = ContinuousClock.now
    let app = 0x40_0001

    func machine() -> Machine {
        Machine(from: .primary, to: .clipboard, settle: .milliseconds(100), maximumWait: .seconds(30))
    }

    func change(_ owner: Int?, ours: Bool = false, at offset: Duration = .zero) -> Machine.Event {
        .changed(meaning(owner: owner, ours: ours), now: start + offset)
    }

    @Test func aSettledChangeIsCopiedOnceNoButtonIsHeld() {
        var sync = machine()
        #expect(sync.handle(change(app)) == [.look(generation: 1, after: .milliseconds(100))])
        // A drag still selecting: looked at again every 50 ms.
        #expect(sync.handle(.looked(generation: 1, buttonHeld: true, now: start + .milliseconds(100)))
            == [.look(generation: 1, after: .milliseconds(50))])
        #expect(sync.handle(.looked(generation: 1, buttonHeld: false, now: start + .milliseconds(150))) == [.read(generation: 1)])
        #expect(sync.handle(.read(generation: 1, .success(("text", KeptFacts(flavours: 4)))))
            == [.claim(generation: 1, "text")])
        #expect(sync.handle(.claimEnded(generation: 1, .success(4)))
            == [.report(.copied(from: .primary, to: .clipboard, flavours: 4))])
    }

    @Test func aButtonStuckDownDoesNotStopTheSyncForGood() {
        var sync = machine()
        _ = sync.handle(change(app))
        #expect(sync.handle(.looked(generation: 1, buttonHeld: true, now: start + .seconds(30))) == [.read(generation: 1)])
    }

    @Test func ourOwnClaimsAndLostOwnersAreNotCopied() {
        var sync = machine()
        #expect(sync.handle(change(app, ours: true)) == [])
        #expect(sync.handle(change(nil)) == [])
    }

    @Test func aNewerChangeOvertakesOneSettlingOrBeingRead() {
        var sync = machine()
        _ = sync.handle(change(app))
        #expect(sync.handle(change(app, at: .milliseconds(40)))
            == [.cancel(generation: 1), .look(generation: 2, after: .milliseconds(100))])
        #expect(sync.handle(.looked(generation: 1, buttonHeld: false, now: start + .milliseconds(140))) == [])
        #expect(sync.handle(.looked(generation: 2, buttonHeld: false, now: start + .milliseconds(140))) == [.read(generation: 2)])
        #expect(sync.handle(change(app, at: .milliseconds(150)))
            == [.cancel(generation: 2), .look(generation: 3, after: .milliseconds(100))])
        // The overtaken read's content is never served.
        #expect(sync.handle(.read(generation: 2, .success(("old", KeptFacts(flavours: 1))))) == [])
    }

    @Test func sensitiveEmptyAndUnreadableContentIsNotCopied() {
        let cases: [(Result<(String, KeptFacts), Machine.ReadFailure>, String)] = [
            (.success(("s", KeptFacts(flavours: 0, isSensitive: true))), "the content is marked sensitive"),
            (.success(("e", KeptFacts(flavours: 0))), "nothing could be read"),
            (.failure(.init(reason: "timed out")), "timed out"),
        ]
        for (result, reason) in cases {
            var sync = machine()
            _ = sync.handle(change(app))
            _ = sync.handle(.looked(generation: 1, buttonHeld: false, now: start + .seconds(1)))
            #expect(sync.handle(.read(generation: 1, result)) == [.report(.notCopied(from: .primary, to: .clipboard, reason: reason))])
        }
        var sync = machine()
        _ = sync.handle(change(app))
        _ = sync.handle(.looked(generation: 1, buttonHeld: false, now: start + .seconds(1)))
        _ = sync.handle(.read(generation: 1, .success(("t", KeptFacts(flavours: 1)))))
        #expect(sync.handle(.claimEnded(generation: 1, .failure(.init(reason: "BadAlloc"))))
            == [.report(.notCopied(from: .primary, to: .clipboard, reason: "BadAlloc"))])
    }
}
