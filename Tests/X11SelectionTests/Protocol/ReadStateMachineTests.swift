import Foundation
import Testing
@testable import X11Selection

@Suite struct ReadStateMachineTests {
    let incr = X11Atom(rawValue: 90)
    let utf8 = X11Atom(rawValue: 91)
    let property = X11Atom(rawValue: 92)
    let clipboard = X11Atom(rawValue: 93)
    let textTarget = X11Atom(rawValue: 94)
    let string = X11Atom(rawValue: 31)
    let time = X11Timestamp(rawValue: 5000)

    func machine(bufferLimit: Int = 100, sliceBytes: Int = 1 << 20, time: X11Timestamp? = nil) -> ReadStateMachine {
        ReadStateMachine(
            request: .init(selection: clipboard, target: utf8, property: property, time: time ?? self.time),
            incrAtom: incr, bufferLimit: bufferLimit, sliceBytes: sliceBytes)
    }

    func value(_ bytes: Data, type: X11Atom? = nil, after: Int = 0) -> PropertyValue {
        PropertyValue(type: type ?? utf8, format: 8, bytes: bytes, bytesAfter: after, itemCount: bytes.count)
    }

    let missing = PropertyValue(type: .none, format: 0, bytes: Data(), bytesAfter: 0, itemCount: 0)

    @Test func startSendsTheConversionWithTheRequestTime() {
        #expect(machine().start() == [.convert(time: time), .armProbe])
    }

    // MARK: Which notify answers the read (ICCCM 2.4)

    @Test func theAnswerMustNameOurSelectionAndProperty() {
        let read = machine()
        #expect(read.answers(selection: clipboard, target: utf8, property: property, time: time))
        // Another selection (a decoy naming PRIMARY): never.
        #expect(!read.answers(selection: .primary, target: utf8, property: property, time: time))
        // A property we did not name.
        #expect(!read.answers(selection: clipboard, target: utf8, property: X11Atom(rawValue: 7), time: time))
    }

    @Test func aNotifyNamingAnotherTargetIsNotTheAnswer() {
        // A decoy: the owner writes other bytes into our very property and names another target (seen: a
        // notify for UTF8_STRING answering a read of a custom type). GTK 4 drops it; so do we.
        let read = machine()
        #expect(!read.answers(selection: clipboard, target: string, property: property, time: time))
        #expect(!read.answers(selection: clipboard, target: textTarget, property: property, time: time))
        #expect(!read.answers(selection: clipboard, target: string, property: property, time: .currentTime))
    }

    @Test func textMayBeAnsweredWithTheEncodingTheOwnerChose() {
        // xsel answers TEXT with target STRING (ICCCM 2.6.2: TEXT asks the owner to choose).
        let compound = X11Atom(rawValue: 95)
        let alternatives = ReadStateMachine.Request.alternatives(
            for: textTarget, text: textTarget, encodings: [string, utf8, compound])
        #expect(alternatives == [string, utf8, compound])
        let read = ReadStateMachine(
            request: .init(selection: clipboard, target: textTarget, property: property, time: time,
                           alternativeTargets: alternatives),
            incrAtom: incr, bufferLimit: 100)
        for target in [textTarget, string, utf8, compound] {
            #expect(read.answers(selection: clipboard, target: target, property: property, time: time))
        }
        #expect(!read.answers(selection: clipboard, target: X11Atom(rawValue: 96), property: property, time: time))
        // No other target has alternatives.
        #expect(ReadStateMachine.Request.alternatives(for: utf8, text: textTarget, encodings: [string]).isEmpty)
        #expect(ReadStateMachine.Request.alternatives(for: .none, text: .none, encodings: [string]).isEmpty)
    }

    @Test func anotherRealTimeMarksAnotherRequest() {
        let read = machine()
        #expect(!read.answers(selection: clipboard, target: utf8, property: property, time: X11Timestamp(rawValue: 4999)))
        // CurrentTime from the owner is tolerated; so is anything when we asked with CurrentTime.
        #expect(read.answers(selection: clipboard, target: utf8, property: property, time: .currentTime))
        #expect(machine(time: .currentTime).answers(
            selection: clipboard, target: utf8, property: property, time: X11Timestamp(rawValue: 1)))
    }

    @Test func aRefusalMustNameOurTarget() {
        let read = machine()
        #expect(read.answers(selection: clipboard, target: utf8, property: .none, time: .currentTime))
        #expect(read.answers(selection: clipboard, target: utf8, property: .none, time: time))
        // Another target, even with our time: a refusal of another read, not of ours.
        #expect(!read.answers(selection: clipboard, target: string, property: .none, time: time))
        #expect(!read.answers(selection: clipboard, target: string, property: .none, time: .currentTime))
    }

    // MARK: Replies

    @Test func directReplyDeliversAndFinishes() {
        var read = machine()
        #expect(read.selectionNotified(property: property) == [.readProperty(offset: 0)])
        #expect(read.propertyRead(value(Data("abc".utf8))) == [.deliver(Data("abc".utf8)), .finish])
        #expect(read.type == utf8)
        #expect(read.byteCount == 3)
        #expect(read.state == .finished)
    }

    @Test func emptyDirectReplyFinishesWithoutData() {
        var read = machine()
        _ = read.selectionNotified(property: property)
        #expect(read.propertyRead(value(Data())) == [.finish])
    }

    @Test func aBigPropertyIsReadInSlices() {
        var read = machine(sliceBytes: 4)
        _ = read.selectionNotified(property: property)
        #expect(read.propertyRead(value(Data("abcd".utf8), after: 6)) == [.deliver(Data("abcd".utf8)), .readProperty(offset: 4)])
        #expect(read.propertyRead(value(Data("efgh".utf8), after: 2)) == [.deliver(Data("efgh".utf8)), .readProperty(offset: 8)])
        #expect(read.propertyRead(value(Data("ij".utf8))) == [.deliver(Data("ij".utf8)), .finish])
        #expect(read.byteCount == 10)
    }

    /// A reply in one huge property is read no faster than the consumer takes it: past the buffer limit the
    /// next slice waits on the server until `consumed`, and a deadline meanwhile is ours, not the owner's.
    @Test func slicesOfOneBigPropertyWaitForTheConsumer() {
        var read = machine(bufferLimit: 8, sliceBytes: 4)
        _ = read.selectionNotified(property: property)
        #expect(read.propertyRead(value(Data("abcd".utf8), after: 8)) == [.deliver(Data("abcd".utf8)), .readProperty(offset: 4)])
        #expect(read.propertyRead(value(Data("efgh".utf8), after: 4)) == [.deliver(Data("efgh".utf8))])
        #expect(read.slicePending)
        #expect(read.deadlinePassed() == [.armIdleDeadline])
        #expect(read.consumed(4) == [.readProperty(offset: 8)])
        #expect(!read.slicePending)
        #expect(read.propertyRead(value(Data("ijkl".utf8))) == [.deliver(Data("ijkl".utf8)), .finish])
        #expect(read.byteCount == 12)
    }

    @Test func aSliceThatVanishesIsAnInvalidReply() {
        var read = machine(sliceBytes: 4)
        _ = read.selectionNotified(property: property)
        _ = read.propertyRead(value(Data("abcd".utf8), after: 4))
        guard case .fail(.invalidReply) = read.propertyRead(missing).first else {
            Issue.record("expected invalidReply")
            return
        }
    }

    @Test func aSliceWithoutProgressEndsTheProperty() {
        // bytesAfter > 0 with no bytes would ask for the same slice forever.
        var read = machine()
        _ = read.selectionNotified(property: property)
        #expect(read.propertyRead(value(Data(), after: 10)) == [.finish])
    }

    @Test func refusalIsRetriedOnceWithAFreshTime() {
        var read = machine()
        #expect(read.selectionNotified(property: .none) == [.requestTimestamp])
        #expect(read.state == .awaitingTimestamp)
        // Property changes are not the timestamp.
        #expect(read.propertyChanged(deleted: false) == [])
        #expect(read.freshTime(X11Timestamp(rawValue: 6001)) == [.convert(time: X11Timestamp(rawValue: 6001))])
        #expect(read.freshTime(X11Timestamp(rawValue: 6002)) == [])
        #expect(read.request.time == X11Timestamp(rawValue: 6001))
        #expect(read.selectionNotified(property: .none) == [.fail(.refused)])
        #expect(read.propertyRead(value(Data("late".utf8))) == [])
    }

    @Test func refusalOfACurrentTimeRequestIsFinal() {
        var read = machine(time: .currentTime)
        #expect(read.selectionNotified(property: .none) == [.fail(.refused)])
    }

    @Test func aNotifyForAPropertyNeverWrittenIsNotTheAnswer() {
        // A stale notify repeated by the owner (or a forged one) names our property before it holds data.
        var read = machine()
        _ = read.selectionNotified(property: property)
        #expect(read.propertyRead(missing) == [.shortenReplyDeadline])
        #expect(read.state == .awaitingNotify)
        // The real answer still comes through.
        #expect(read.selectionNotified(property: property) == [.readProperty(offset: 0)])
        #expect(read.propertyRead(value(Data("real".utf8))) == [.deliver(Data("real".utf8)), .finish])
    }

    @Test func onlyStaleNotifiesTimeOutAsAnInvalidReply() {
        var read = machine()
        _ = read.selectionNotified(property: property)
        _ = read.propertyRead(nil)
        guard case .fail(.invalidReply) = read.deadlinePassed().first else {
            Issue.record("expected invalidReply")
            return
        }
    }

    @Test func multipleAnswersDecideEachPair() {
        var converted = machine()
        #expect(converted.multipleAnswered(converted: true) == [.readProperty(offset: 0)])
        var refused = machine()
        // No retry: the MULTIPLE request itself was answered, only this pair failed.
        #expect(refused.multipleAnswered(converted: false) == [.fail(.refused)])
    }

    // MARK: INCR (ICCCM 2.7.2)

    @Test func incrementalTransferStreamsChunks() {
        var read = machine()
        _ = read.selectionNotified(property: property)
        #expect(read.propertyRead(value(Data([0, 0, 0, 9]), type: incr)) == [.armIdleDeadline, .probeOwner])
        #expect(read.isIncremental)
        // Our own deletion comes back as PropertyNotify(Deleted): ignored.
        #expect(read.propertyChanged(deleted: true) == [])
        #expect(read.propertyChanged(deleted: false) == [.readProperty(offset: 0)])
        #expect(read.propertyRead(value(Data("1234".utf8))) == [.deliver(Data("1234".utf8)), .armIdleDeadline])
        #expect(read.propertyChanged(deleted: false) == [.readProperty(offset: 0)])
        #expect(read.propertyRead(value(Data("56789".utf8))) == [.deliver(Data("56789".utf8)), .armIdleDeadline])
        #expect(read.propertyChanged(deleted: false) == [.readProperty(offset: 0)])
        #expect(read.propertyRead(value(Data())) == [.finish])
        #expect(read.byteCount == 9)
        #expect(read.type == utf8)
    }

    @Test func aBigChunkIsReadInSlices() {
        var read = machine(sliceBytes: 4)
        _ = read.selectionNotified(property: property)
        _ = read.propertyRead(value(Data([0]), type: incr))
        _ = read.propertyChanged(deleted: false)
        #expect(read.propertyRead(value(Data("abcd".utf8), after: 2)) == [.deliver(Data("abcd".utf8)), .readProperty(offset: 4)])
        // A NewValue while the chunk is still being read is not a new chunk.
        #expect(read.propertyChanged(deleted: false) == [])
        #expect(read.propertyRead(value(Data("ef".utf8))) == [.deliver(Data("ef".utf8)), .armIdleDeadline])
        #expect(read.propertyChanged(deleted: false) == [.readProperty(offset: 0)])
    }

    @Test func fullBufferHoldsBackTheNextChunk() {
        var read = machine(bufferLimit: 8)
        _ = read.selectionNotified(property: property)
        _ = read.propertyRead(value(Data([0]), type: incr))
        _ = read.propertyChanged(deleted: false)
        _ = read.propertyRead(value(Data(count: 8)))
        #expect(read.bufferedBytes == 8)
        // Buffer full: the chunk stays on the server, so the owner waits for us.
        #expect(read.propertyChanged(deleted: false) == [])
        #expect(read.chunkPending)
        // A stall while we are the slow side is not the owner's fault, and no reason to probe it.
        #expect(read.deadlinePassed() == [.armIdleDeadline])
        #expect(read.probeDue() == [.armProbe])
        #expect(read.consumed(8) == [.readProperty(offset: 0)])
        #expect(!read.chunkPending)
    }

    @Test func deadlinesFailByPhase() {
        var waiting = machine(bufferLimit: 8)
        #expect(waiting.deadlinePassed() == [.fail(.noReply)])
        var streaming = machine(bufferLimit: 8)
        _ = streaming.selectionNotified(property: property)
        _ = streaming.propertyRead(value(Data([0]), type: incr))
        #expect(streaming.deadlinePassed() == [.fail(.stalled)])
        #expect(streaming.deadlinePassed() == [])
    }

    // MARK: The owner's life

    @Test func aProbeFindingNoOwnerEndsTheRead() {
        var read = machine()
        #expect(read.probeDue() == [.probeOwner])
        #expect(read.ownerProbed(nil) == [.fail(.ownerGone)])
        #expect(read.isFinished)
        #expect(read.probeDue() == [])
    }

    @Test func theFirstOwnerFoundIsWatchedUntilItIsDestroyed() {
        var read = machine()
        let owner = X11Window(rawValue: 0x400001)
        #expect(read.ownerProbed(owner) == [.watchOwner(owner), .armProbe])
        // A new owner later is not watched instead: the one asked may still answer (ICCCM 2.2).
        #expect(read.ownerProbed(X11Window(rawValue: 0x500001)) == [.armProbe])
        #expect(read.windowDestroyed(X11Window(rawValue: 0x500001)) == [])
        #expect(read.windowDestroyed(owner) == [.fail(.ownerGone)])
        #expect(read.windowDestroyed(owner) == [])
    }

    @Test func theOwnerDyingMidTransferIsSeen() {
        var read = machine()
        _ = read.selectionNotified(property: property)
        _ = read.propertyRead(value(Data([0]), type: incr))
        let owner = X11Window(rawValue: 0x400001)
        _ = read.ownerProbed(owner)
        _ = read.propertyChanged(deleted: false)
        _ = read.propertyRead(value(Data("12".utf8)))
        #expect(read.windowDestroyed(owner) == [.fail(.ownerGone)])
    }

    @Test func anOwnerThatGaveUpTheSelectionStillFinishesItsTransfer() {
        var read = machine()
        _ = read.selectionNotified(property: property)
        _ = read.propertyRead(value(Data([0]), type: incr))
        #expect(read.ownerProbed(nil) == [.armProbe])
        #expect(!read.isFinished)
    }

    @Test func anOwnerThatExitsRightAfterItsEndMarkerStillCompletesTheRead() {
        // Backpressure holds the end marker on our window while the owner, done, exits (an owner that lost the
        // selection does exactly that). Its DestroyNotify comes after the marker's PropertyNotify.
        var read = machine(bufferLimit: 4)
        _ = read.selectionNotified(property: property)
        _ = read.propertyRead(value(Data([0]), type: incr))
        let owner = X11Window(rawValue: 0x400001)
        _ = read.ownerProbed(owner)
        _ = read.propertyChanged(deleted: false)
        #expect(read.propertyRead(value(Data("1234".utf8))) == [.deliver(Data("1234".utf8)), .armIdleDeadline])
        #expect(read.propertyChanged(deleted: false) == [])  // held back: the buffer is full
        #expect(read.windowDestroyed(owner) == [])
        #expect(!read.isFinished)
        #expect(read.consumed(4) == [.readProperty(offset: 0)])
        #expect(read.propertyRead(value(Data())) == [.finish])
        #expect(read.byteCount == 4)
    }

    @Test func anOwnerThatDiesWithAChunkInFlightFailsAfterThatChunk() {
        var read = machine()
        _ = read.selectionNotified(property: property)
        _ = read.propertyRead(value(Data([0]), type: incr))
        let owner = X11Window(rawValue: 0x400001)
        _ = read.ownerProbed(owner)
        #expect(read.propertyChanged(deleted: false) == [.readProperty(offset: 0)])
        #expect(read.windowDestroyed(owner) == [])
        // Not the end marker: the bytes are delivered, then the read fails, since no more can come.
        #expect(read.propertyRead(value(Data("12".utf8))) == [.deliver(Data("12".utf8)), .fail(.ownerGone)])
        #expect(read.isFinished)

        var vanished = machine()
        _ = vanished.selectionNotified(property: property)
        _ = vanished.propertyRead(value(Data([0]), type: incr))
        _ = vanished.ownerProbed(owner)
        _ = vanished.propertyChanged(deleted: false)
        _ = vanished.windowDestroyed(owner)
        #expect(vanished.propertyRead(missing) == [.fail(.ownerGone)])
    }
}
