import Testing
@testable import X11Selection

private let sourceWindow = X11Window(rawValue: 0x400001)
private let targetWindow = X11Window(rawValue: 0x600001)
private let proxyWindow = X11Window(rawValue: 0x600050)
private let copy = X11Atom(rawValue: 301)
private let move = X11Atom(rawValue: 302)
private let types = [X11Atom(rawValue: 401), X11Atom(rawValue: 402)]

@Suite struct XdndMessageTests {
    @Test func everyMessageRoundTripsThroughItsWords() {
        let messages: [XdndMessage] = [
            .enter(source: sourceWindow, version: 5, types: types, hasTypeList: false),
            .enter(source: sourceWindow, version: 4, types: [types[0], types[1], types[0]], hasTypeList: true),
            .position(source: sourceWindow, rootX: 1279, rootY: 3, time: X11Timestamp(rawValue: 99), action: copy),
            .status(target: targetWindow, accepts: true, wantsPositionsInside: false,
                    rectangle: XdndRectangle(x: 10, y: 20, width: 300, height: 40), action: move),
            .status(target: targetWindow, accepts: false, wantsPositionsInside: true, rectangle: .empty, action: .none),
            .leave(source: sourceWindow),
            .drop(source: sourceWindow, time: X11Timestamp(rawValue: 0xFFFF_FFFF)),
            .finished(target: targetWindow, accepted: true, action: copy),
            .finished(target: targetWindow, accepted: false, action: .none),
        ]
        for message in messages {
            #expect(message.words.count == 5)
            #expect(XdndMessage.decode(message.kind, words: message.words) == message, "\(message)")
        }
    }

    @Test func theWireLayoutIsTheSpecs() {
        let enter = XdndMessage.enter(source: sourceWindow, version: 5, types: types, hasTypeList: true)
        #expect(enter.words == [0x400001, 0x0500_0001, 401, 402, 0])
        let position = XdndMessage.position(source: sourceWindow, rootX: 0x12, rootY: 0x34, time: X11Timestamp(rawValue: 7), action: copy)
        #expect(position.words == [0x400001, 0, 0x0012_0034, 7, 301])
        let status = XdndMessage.status(
            target: targetWindow, accepts: true, wantsPositionsInside: true,
            rectangle: XdndRectangle(x: 1, y: 2, width: 3, height: 4), action: copy)
        #expect(status.words == [0x600001, 3, 0x0001_0002, 0x0003_0004, 301])
        #expect(XdndMessage.drop(source: sourceWindow, time: X11Timestamp(rawValue: 5)).words == [0x400001, 0, 5, 0, 0])
    }

    @Test func malformedMessagesDecodeToNothing() {
        #expect(XdndMessage.decode(.enter, words: [0x400001, 0x0200_0000, 401, 0, 0]) == nil)  // version 2
        #expect(XdndMessage.decode(.leave, words: [0, 0, 0, 0, 0]) == nil)  // no window
        #expect(XdndMessage.decode(.drop, words: [0x400001, 0]) == nil)  // short
        // A refusal's action word is ignored; negative or huge coordinates are clamped when sent.
        #expect(XdndMessage.decode(.status, words: [0x600001, 0, 0, 0, 301])
            == .status(target: targetWindow, accepts: false, wantsPositionsInside: false, rectangle: .empty, action: .none))
        #expect(XdndMessage.pack(-5, 70_000) == 0x0000_FFFF)
    }
}

@Suite struct XdndSourceTests {
    private let target = XdndSource.Target(window: targetWindow, messageWindow: targetWindow, version: 5)
    private func time(_ value: UInt) -> X11Timestamp { X11Timestamp(rawValue: value) }

    @Test func enterThenOnePositionAtATimeWithTheNewestKept() {
        var drag = XdndSource(source: sourceWindow, types: types)
        let first = drag.pointerMoved(over: target, x: 10, y: 10, time: time(1), action: copy)
        #expect(first == [
            .send(.enter(source: sourceWindow, version: 5, types: types, hasTypeList: false), to: target),
            .send(.position(source: sourceWindow, rootX: 10, rootY: 10, time: time(1), action: copy), to: target),
        ])
        #expect(drag.awaitedAnswer == XdndSource.statusTimeout)
        // Two moves while the status is awaited: nothing sent, the newest kept.
        #expect(drag.pointerMoved(over: target, x: 11, y: 11, time: time(2), action: copy).isEmpty)
        #expect(drag.pointerMoved(over: target, x: 12, y: 12, time: time(3), action: copy).isEmpty)
        let answered = drag.received(.status(target: targetWindow, accepts: true, wantsPositionsInside: true, rectangle: .empty, action: copy))
        #expect(answered == [.send(.position(source: sourceWindow, rootX: 12, rootY: 12, time: time(3), action: copy), to: target)])
    }

    @Test func noPositionsInsideTheRectangleTheTargetGave() {
        var drag = XdndSource(source: sourceWindow, types: types)
        _ = drag.pointerMoved(over: target, x: 10, y: 10, time: time(1), action: copy)
        _ = drag.received(.status(target: targetWindow, accepts: true, wantsPositionsInside: false,
                                  rectangle: XdndRectangle(x: 0, y: 0, width: 100, height: 100), action: copy))
        #expect(drag.pointerMoved(over: target, x: 50, y: 50, time: time(2), action: copy).isEmpty)
        #expect(drag.pointerMoved(over: target, x: 150, y: 50, time: time(3), action: copy)
            == [.send(.position(source: sourceWindow, rootX: 150, rootY: 50, time: time(3), action: copy), to: target)])
    }

    /// A key pressed inside the quiet rectangle changes the action: the target's answer was for the old one, so a
    /// position goes out.
    @Test func aNewActionInsideTheRectangleIsAskedAgain() {
        var drag = XdndSource(source: sourceWindow, types: types)
        _ = drag.pointerMoved(over: target, x: 10, y: 10, time: time(1), action: copy)
        _ = drag.received(.status(target: targetWindow, accepts: true, wantsPositionsInside: false,
                                  rectangle: XdndRectangle(x: 0, y: 0, width: 100, height: 100), action: copy))
        #expect(drag.pointerMoved(over: target, x: 20, y: 20, time: time(2), action: copy).isEmpty)
        #expect(drag.pointerMoved(over: target, x: 20, y: 20, time: time(3), action: move)
            == [.send(.position(source: sourceWindow, rootX: 20, rootY: 20, time: time(3), action: move), to: target)])
    }

    @Test func moreThanThreeTypesGoInTheTypeListAndVersionsNegotiateDown() {
        let many = (1...5).map { X11Atom(rawValue: UInt($0)) }
        var drag = XdndSource(source: sourceWindow, types: many)
        let old = XdndSource.Target(window: targetWindow, messageWindow: proxyWindow, version: 3)
        let steps = drag.pointerMoved(over: old, x: 1, y: 1, time: time(1), action: copy)
        #expect(steps.first == .send(.enter(source: sourceWindow, version: 3, types: Array(many.prefix(3)), hasTypeList: true), to: old))
        var again = XdndSource(source: sourceWindow, types: many)
        let ancient = XdndSource.Target(window: targetWindow, messageWindow: targetWindow, version: 2)
        #expect(again.pointerMoved(over: ancient, x: 1, y: 1, time: time(1), action: copy).isEmpty)
    }

    @Test func movingToAnotherWindowLeavesTheFirst() {
        var drag = XdndSource(source: sourceWindow, types: types)
        _ = drag.pointerMoved(over: target, x: 1, y: 1, time: time(1), action: copy)
        _ = drag.received(.status(target: targetWindow, accepts: false, wantsPositionsInside: true, rectangle: .empty, action: .none))
        let other = XdndSource.Target(window: proxyWindow, messageWindow: proxyWindow, version: 5)
        let steps = drag.pointerMoved(over: other, x: 500, y: 1, time: time(2), action: copy)
        #expect(steps.first == .send(.leave(source: sourceWindow), to: target))
        #expect(steps.dropFirst().first == .send(.enter(source: sourceWindow, version: 5, types: types, hasTypeList: false), to: other))
        #expect(drag.pointerMoved(over: nil, x: 900, y: 1, time: time(3), action: copy).isEmpty == false)
        #expect(drag.currentTarget == nil)
    }

    @Test func aDropUsesTheReleaseTimeAndEndsWithTheTargetsVerdict() {
        var drag = XdndSource(source: sourceWindow, types: types)
        _ = drag.pointerMoved(over: target, x: 1, y: 1, time: time(1), action: copy)
        _ = drag.received(.status(target: targetWindow, accepts: true, wantsPositionsInside: true, rectangle: .empty, action: move))
        #expect(drag.buttonReleased(time: time(77)) == [.send(.drop(source: sourceWindow, time: time(77)), to: target)])
        #expect(drag.awaitedAnswer == XdndSource.finishTimeout)
        // A finish from another window is ignored.
        #expect(drag.received(.finished(target: proxyWindow, accepted: true, action: copy)).isEmpty)
        let finished = drag.received(.finished(target: targetWindow, accepted: true, action: move))
        #expect(finished == [.finish(.dropped(target: targetWindow, action: move, targetAccepted: true))])
        #expect(drag.outcome == .dropped(target: targetWindow, action: move, targetAccepted: true))
    }

    /// GTK 4's rule (gdk_x11_drag_handle_finished): a finish after an accepting status is a drop with the action that
    /// status accepted, whatever the finish's flag and action say — Kate (Qt 5) finishes a file drop it opened with
    /// accepted 0 and action None. The flag is reported; a late status after the drop changes nothing.
    @Test func aFinishSayingNotAcceptedAfterAnAcceptingStatusIsADropWithTheStatusAction() {
        for (version, flagReported) in [(5, false), (4, true)] {
            var drag = XdndSource(source: sourceWindow, types: types)
            let kate = XdndSource.Target(window: targetWindow, messageWindow: targetWindow, version: version)
            _ = drag.pointerMoved(over: kate, x: 1, y: 1, time: time(1), action: copy)
            _ = drag.received(.status(target: targetWindow, accepts: true, wantsPositionsInside: true, rectangle: .empty, action: copy))
            #expect(drag.buttonReleased(time: time(5)) == [.send(.drop(source: sourceWindow, time: time(5)), to: kate)])
            // A late refusing status (LibreOffice sends several per position) does not undo the drop's action.
            #expect(drag.received(.status(target: targetWindow, accepts: false, wantsPositionsInside: true, rectangle: .empty, action: .none)).isEmpty)
            let finished = drag.received(.finished(target: targetWindow, accepted: false, action: .none))
            #expect(finished == [.finish(.dropped(target: targetWindow, action: copy, targetAccepted: flagReported))], "version \(version)")
        }
    }

    @Test func releasedBeforeTheStatusItWaitsForIt() {
        var drag = XdndSource(source: sourceWindow, types: types)
        _ = drag.pointerMoved(over: target, x: 1, y: 1, time: time(1), action: copy)
        #expect(drag.buttonReleased(time: time(9)).isEmpty)
        #expect(drag.received(.status(target: targetWindow, accepts: true, wantsPositionsInside: true, rectangle: .empty, action: copy))
            == [.send(.drop(source: sourceWindow, time: time(9)), to: target)])
    }

    /// LibreOffice Writer (VCL's GTK 3 drop target) answers every position with three statuses: refuse, accept,
    /// accept. The latest word counts, as in GTK's source; believing only the awaited first one refused every drag.
    @Test func everyStatusIsTheTargetsLatestWord() {
        var drag = XdndSource(source: sourceWindow, types: types)
        _ = drag.pointerMoved(over: target, x: 1, y: 1, time: time(1), action: copy)
        let refuse = XdndMessage.status(target: targetWindow, accepts: false, wantsPositionsInside: false, rectangle: .empty, action: .none)
        let accept = XdndMessage.status(target: targetWindow, accepts: true, wantsPositionsInside: true, rectangle: .empty, action: copy)
        #expect(drag.received(refuse).isEmpty)
        #expect(!drag.targetAccepts)
        #expect(drag.received(accept).isEmpty && drag.received(accept).isEmpty)
        #expect(drag.targetAccepts)
        #expect(drag.awaitedAnswer == nil)  // nothing in flight: the extra statuses asked for no position
        #expect(drag.buttonReleased(time: time(5)) == [.send(.drop(source: sourceWindow, time: time(5)), to: target)])
    }

    @Test func releasedWhileTheAwaitedStatusRefusesItWaitsBrieflyAndTheLatestWordDecides() {
        let refuse = XdndMessage.status(target: targetWindow, accepts: false, wantsPositionsInside: false, rectangle: .empty, action: .none)
        let accept = XdndMessage.status(target: targetWindow, accepts: true, wantsPositionsInside: true, rectangle: .empty, action: copy)
        var changed = XdndSource(source: sourceWindow, types: types)
        _ = changed.pointerMoved(over: target, x: 1, y: 1, time: time(1), action: copy)
        #expect(changed.buttonReleased(time: time(9)).isEmpty)
        #expect(changed.received(refuse) == [.restartWatchdog])
        #expect(changed.awaitedAnswer == XdndSource.settleTimeout)
        // Refuse, accept, accept (Writer taking a drop): the latest word when the settle time is over decides.
        #expect(changed.received(accept).isEmpty && changed.received(accept).isEmpty)
        #expect(changed.deadlinePassed() == [.send(.drop(source: sourceWindow, time: time(9)), to: target)])
        // A target that keeps refusing: refused once the settle time is over, not after the status timeout.
        var refusing = XdndSource(source: sourceWindow, types: types)
        _ = refusing.pointerMoved(over: target, x: 1, y: 1, time: time(1), action: copy)
        _ = refusing.buttonReleased(time: time(9))
        #expect(refusing.received(refuse) == [.restartWatchdog])
        #expect(refusing.received(refuse).isEmpty)
        #expect(refusing.deadlinePassed() == [.send(.leave(source: sourceWindow), to: target), .finish(.refused)])
    }

    /// Writer's answers to a position can end with a refusal (refuse, accept, refuse): released there, the source
    /// asks once more where the button was released, and the latest word `settleTimeout` after the first answer
    /// decides — an accept in the middle is not a drop (Writer then finishes "not accepted" without reading the data,
    /// and GTK 4's source, which drops only while its last status accepts, reports no target).
    @Test func aWaveringTargetIsAskedOnceMoreAtTheReleaseAndItsLastWordDecides() {
        let refuse = XdndMessage.status(target: targetWindow, accepts: false, wantsPositionsInside: false, rectangle: .empty, action: .none)
        let accept = XdndMessage.status(target: targetWindow, accepts: true, wantsPositionsInside: true, rectangle: .empty, action: copy)
        let position = XdndSource.Step.send(.position(source: sourceWindow, rootX: 7, rootY: 8, time: time(9), action: copy), to: target)
        func wavering() -> XdndSource {
            var drag = XdndSource(source: sourceWindow, types: types)
            _ = drag.pointerMoved(over: target, x: 7, y: 8, time: time(1), action: copy)
            _ = drag.received(refuse)
            _ = drag.received(accept)
            _ = drag.received(refuse)
            return drag
        }
        // Refuse, accept, accept at the release: dropped when the settle time is over, not on the first accept.
        var taken = wavering()
        #expect(taken.buttonReleased(time: time(9)) == [position])
        #expect(taken.awaitedAnswer == taken.statusWait)
        #expect(taken.received(refuse) == [.restartWatchdog])
        #expect(taken.awaitedAnswer == XdndSource.settleTimeout)
        #expect(taken.received(accept).isEmpty && taken.received(accept).isEmpty)
        #expect(taken.deadlinePassed() == [.send(.drop(source: sourceWindow, time: time(9)), to: target)])
        // The first answer accepting changes nothing: the latest word decides.
        var acceptFirst = wavering()
        _ = acceptFirst.buttonReleased(time: time(9))
        #expect(acceptFirst.received(accept) == [.restartWatchdog])
        #expect(acceptFirst.deadlinePassed() == [.send(.drop(source: sourceWindow, time: time(9)), to: target)])
        // Refuse, accept, refuse again: refused, with a leave; the accept in the middle dropped nothing.
        var refusedAgain = wavering()
        _ = refusedAgain.buttonReleased(time: time(9))
        #expect(refusedAgain.received(refuse) == [.restartWatchdog])
        #expect(refusedAgain.received(accept).isEmpty && refusedAgain.received(refuse).isEmpty)
        #expect(refusedAgain.deadlinePassed() == [.send(.leave(source: sourceWindow), to: target), .finish(.refused)])
        // A target that talks on does not stretch the wait: statuses after the first restart nothing.
        var talkative = wavering()
        _ = talkative.buttonReleased(time: time(9))
        _ = talkative.received(accept)
        for index in 0..<1000 { #expect(talkative.received(index % 2 == 0 ? refuse : accept).isEmpty) }
        // Silent after the re-ask: abandoned when the status timeout is over.
        var silent = wavering()
        _ = silent.buttonReleased(time: time(9))
        #expect(silent.deadlinePassed().first == .send(.leave(source: sourceWindow), to: target))
        #expect(silent.outcome.map { if case .abandoned = $0 { true } else { false } } == true)
        // A target that never accepted is not asked again.
        var firm = XdndSource(source: sourceWindow, types: types)
        _ = firm.pointerMoved(over: target, x: 7, y: 8, time: time(1), action: copy)
        _ = firm.received(refuse)
        #expect(firm.buttonReleased(time: time(9)) == [.send(.leave(source: sourceWindow), to: target), .finish(.refused)])
    }

    @Test func refusedWhereNothingAcceptsAndCancelledByEscape() {
        var refused = XdndSource(source: sourceWindow, types: types)
        _ = refused.pointerMoved(over: target, x: 1, y: 1, time: time(1), action: copy)
        _ = refused.received(.status(target: targetWindow, accepts: false, wantsPositionsInside: true, rectangle: .empty, action: .none))
        #expect(refused.buttonReleased(time: time(2)) == [.send(.leave(source: sourceWindow), to: target), .finish(.refused)])
        var nowhere = XdndSource(source: sourceWindow, types: types)
        #expect(nowhere.buttonReleased(time: time(2)) == [.finish(.refused)])
        var escaped = XdndSource(source: sourceWindow, types: types)
        _ = escaped.pointerMoved(over: target, x: 1, y: 1, time: time(1), action: copy)
        #expect(escaped.cancel() == [.send(.leave(source: sourceWindow), to: target), .finish(.cancelled)])
        #expect(escaped.pointerMoved(over: target, x: 2, y: 2, time: time(3), action: copy).isEmpty)
    }

    /// The watchdog: a target that never finishes, never answers a released drag, or dies during the drop
    /// releases the source.
    @Test func aSilentOrDyingTargetReleasesTheSource() {
        var silent = XdndSource(source: sourceWindow, types: types)
        _ = silent.pointerMoved(over: target, x: 1, y: 1, time: time(1), action: copy)
        _ = silent.received(.status(target: targetWindow, accepts: true, wantsPositionsInside: true, rectangle: .empty, action: copy))
        _ = silent.buttonReleased(time: time(2))
        guard case .finish(.abandoned(targetWindow, _))? = silent.deadlinePassed().last else {
            Issue.record("no abandonment: \(String(describing: silent.outcome))")
            return
        }
        var mute = XdndSource(source: sourceWindow, types: types)
        _ = mute.pointerMoved(over: target, x: 1, y: 1, time: time(1), action: copy)
        _ = mute.buttonReleased(time: time(2))
        let steps = mute.deadlinePassed()
        #expect(steps.first == .send(.leave(source: sourceWindow), to: target))
        #expect(mute.outcome.map { if case .abandoned = $0 { true } else { false } } == true)
        var dying = XdndSource(source: sourceWindow, types: types)
        _ = dying.pointerMoved(over: target, x: 1, y: 1, time: time(1), action: copy)
        _ = dying.received(.status(target: targetWindow, accepts: true, wantsPositionsInside: true, rectangle: .empty, action: copy))
        _ = dying.buttonReleased(time: time(2))
        #expect(dying.targetVanished(targetWindow).count == 1)
        #expect(dying.outcome.map { if case .abandoned = $0 { true } else { false } } == true)
    }
}

@Suite struct XdndTargetTests {
    private func time(_ value: UInt) -> X11Timestamp { X11Timestamp(rawValue: value) }

    /// Any client can send XdndEnter: one that comes while a drop is being taken must not replace that drag, or its
    /// source never gets XdndFinished (it waits out its 30 s finish timeout). Found by the fuzzing session's review.
    @Test func anEnterDuringADropDoesNotReplaceIt() {
        var target = XdndTarget(window: targetWindow)
        let intruder = X11Window(rawValue: 0x900001)
        _ = target.received(.enter(source: sourceWindow, version: 5, types: types, hasTypeList: false))
        _ = target.received(.position(source: sourceWindow, rootX: 5, rootY: 6, time: time(1), action: copy))
        _ = target.decide(accepts: true, action: copy)
        #expect(target.received(.drop(source: sourceWindow, time: time(2))) == [.takeDrop(time: time(2), action: copy)])
        #expect(target.received(.enter(source: intruder, version: 5, types: types, hasTypeList: false)).isEmpty)
        #expect(target.source == sourceWindow)
        #expect(target.dropHandled(accepted: true, action: copy)
            == [.send(.finished(target: targetWindow, accepted: true, action: copy), to: sourceWindow)])
        // Once it is finished, a new drag may enter.
        #expect(target.received(.enter(source: intruder, version: 5, types: types, hasTypeList: false))
            == [.entered(source: intruder, types: types)])
    }

    @Test func aDragIsAnsweredPositionByPositionAndDroppedWithTheDropsTime() {
        var target = XdndTarget(window: targetWindow)
        #expect(target.received(.enter(source: sourceWindow, version: 5, types: types, hasTypeList: false))
            == [.entered(source: sourceWindow, types: types)])
        #expect(target.isTargeted)
        #expect(target.received(.position(source: sourceWindow, rootX: 5, rootY: 6, time: time(1), action: copy))
            == [.ask(x: 5, y: 6, action: copy, time: time(1))])
        let rectangle = XdndRectangle(x: 0, y: 0, width: 50, height: 50)
        #expect(target.decide(accepts: true, action: copy, rectangle: rectangle)
            == [.send(.status(target: targetWindow, accepts: true, wantsPositionsInside: false, rectangle: rectangle, action: copy), to: sourceWindow)])
        #expect(target.received(.drop(source: sourceWindow, time: time(42))) == [.takeDrop(time: time(42), action: copy)])
        #expect(target.dropHandled(accepted: true, action: copy)
            == [.send(.finished(target: targetWindow, accepted: true, action: copy), to: sourceWindow)])
        #expect(!target.isTargeted)
    }

    @Test func moreThanThreeTypesAreReadFromTheList() {
        var target = XdndTarget(window: targetWindow)
        #expect(target.received(.enter(source: sourceWindow, version: 5, types: types, hasTypeList: true)) == [.readTypeList(source: sourceWindow)])
        let list = (1...6).map { X11Atom(rawValue: UInt($0)) }
        #expect(target.typesRead(list) == [.entered(source: sourceWindow, types: list)])
    }

    @Test func aRefusedDropIsFinishedAtOnceAndOthersAreIgnored() {
        var target = XdndTarget(window: targetWindow)
        _ = target.received(.enter(source: sourceWindow, version: 5, types: types, hasTypeList: false))
        // Another client's messages are not our drag's.
        #expect(target.received(.position(source: proxyWindow, rootX: 1, rootY: 1, time: time(1), action: copy)).isEmpty)
        #expect(target.received(.drop(source: proxyWindow, time: time(1))).isEmpty)
        _ = target.received(.position(source: sourceWindow, rootX: 1, rootY: 1, time: time(1), action: copy))
        _ = target.decide(accepts: false, action: .none)
        #expect(target.received(.drop(source: sourceWindow, time: time(2)))
            == [.send(.finished(target: targetWindow, accepted: false, action: .none), to: sourceWindow), .left])
    }

    @Test func aSilentSourceIsForgottenAndALeaveEndsTheDrag() {
        var target = XdndTarget(window: targetWindow)
        _ = target.received(.enter(source: sourceWindow, version: 5, types: types, hasTypeList: false))
        #expect(target.sourceGone() == [.left])
        #expect(target.received(.position(source: sourceWindow, rootX: 1, rootY: 1, time: time(1), action: copy)).isEmpty)
        _ = target.received(.enter(source: sourceWindow, version: 5, types: types, hasTypeList: false))
        #expect(target.received(.leave(source: sourceWindow)) == [.left])
    }
}

@Suite struct XdndTargetSearchTests {
    @Test func theAwareToplevelInsideAFrameIsTheTarget() {
        let frame = XdndTargetSearch.Window(id: X11Window(rawValue: 0x200001))
        let client = XdndTargetSearch.Window(id: targetWindow, hasWMState: true, awareVersion: 5)
        let inner = XdndTargetSearch.Window(id: X11Window(rawValue: 0x600099))
        #expect(XdndTargetSearch.target(along: [frame, client, inner])
            == XdndSource.Target(window: targetWindow, messageWindow: targetWindow, version: 5))
    }

    @Test func aClientThatIsNotAwareHidesItsInnerWindows() {
        let client = XdndTargetSearch.Window(id: targetWindow, hasWMState: true)
        let inner = XdndTargetSearch.Window(id: X11Window(rawValue: 0x600099), awareVersion: 5)
        #expect(XdndTargetSearch.target(along: [client, inner]) == nil)
    }

    @Test func aValidProxyReceivesTheMessagesAndAStaleOneIsIgnored() {
        let proxied = XdndTargetSearch.Window(id: targetWindow, hasWMState: true, awareVersion: 5, proxy: proxyWindow, proxyIsValid: true)
        #expect(XdndTargetSearch.target(along: [proxied])?.messageWindow == proxyWindow)
        var stale = proxied
        stale.proxyIsValid = false
        #expect(XdndTargetSearch.target(along: [stale])?.messageWindow == targetWindow)
    }

    @Test func theSourcesOwnWindowsAreLookedThrough() {
        let icon = XdndTargetSearch.Window(id: sourceWindow, hasWMState: true, awareVersion: 5)
        let below = XdndTargetSearch.Window(id: targetWindow, hasWMState: true, awareVersion: 4)
        #expect(XdndTargetSearch.target(along: [icon, below], ignoring: [sourceWindow])?.window == targetWindow)
    }
}

@Suite struct XdndSearchEndTests {
    @Test func theSearchStopsAtAnAwareWindowOrAClient() {
        #expect(XdndTargetSearch.endsSearch(XdndTargetSearch.Window(id: targetWindow, awareVersion: 5)))
        #expect(XdndTargetSearch.endsSearch(XdndTargetSearch.Window(id: targetWindow, hasWMState: true)))
        #expect(!XdndTargetSearch.endsSearch(XdndTargetSearch.Window(id: targetWindow)))
        // Version 2 is not XDND as we speak it: the search goes on below (an embedded aware window may answer).
        #expect(!XdndTargetSearch.endsSearch(XdndTargetSearch.Window(id: targetWindow, awareVersion: 2)))
    }
}

@Suite struct XdndActionChoiceTests {
    private let all: [SelectionTarget] = [.xdndActionCopy, .xdndActionMove, .xdndActionLink]

    @Test func theKeysPickCopyMoveAndLink() {
        #expect(XdndActionChoice.action(allowed: all, modifiers: []) == .xdndActionCopy)
        #expect(XdndActionChoice.action(allowed: all, modifiers: .control) == .xdndActionCopy)
        #expect(XdndActionChoice.action(allowed: all, modifiers: .shift) == .xdndActionMove)
        #expect(XdndActionChoice.action(allowed: all, modifiers: [.shift, .control]) == .xdndActionLink)
    }

    @Test func aKeyForAnActionNotAllowedGetsTheFirstAllowed() {
        #expect(XdndActionChoice.action(allowed: [.xdndActionCopy], modifiers: .shift) == .xdndActionCopy)
        #expect(XdndActionChoice.action(allowed: [.xdndActionMove, .xdndActionCopy], modifiers: []) == .xdndActionMove)
        #expect(XdndActionChoice.action(allowed: [], modifiers: .shift) == .xdndActionCopy)
    }
}

@Suite struct XdndSourceBoundsTests {
    /// Configured bounds replace the defaults in what the watchdog waits for, and in the reason it gives.
    @Test func theWatchdogUsesTheConfiguredBounds() {
        let target = XdndSource.Target(window: targetWindow, messageWindow: targetWindow, version: 5)
        var drag = XdndSource(source: sourceWindow, types: types, statusWait: .milliseconds(300), finishWait: .seconds(7))
        _ = drag.pointerMoved(over: target, x: 1, y: 1, time: X11Timestamp(rawValue: 1), action: copy)
        #expect(drag.awaitedAnswer == .milliseconds(300))
        _ = drag.received(.status(target: targetWindow, accepts: true, wantsPositionsInside: true, rectangle: .empty, action: copy))
        #expect(drag.targetAccepts)
        _ = drag.buttonReleased(time: X11Timestamp(rawValue: 2))
        #expect(drag.awaitedAnswer == .seconds(7))
        guard case .finish(.abandoned(_, let reason))? = drag.deadlinePassed().last else {
            Issue.record("not abandoned")
            return
        }
        #expect(reason.contains("7"))
    }
}
