import Foundation
import Testing
@testable import X11Selection

@Suite struct ReadStateMachineTests {
    let incr = X11Atom(rawValue: 90)
    let utf8 = X11Atom(rawValue: 91)
    let property = X11Atom(rawValue: 92)

    func value(_ bytes: Data, type: X11Atom? = nil) -> PropertyValue {
        PropertyValue(type: type ?? utf8, format: 8, bytes: bytes, bytesAfter: 0, itemCount: bytes.count)
    }

    @Test func directReplyDeliversAndFinishes() {
        var machine = ReadStateMachine(incrAtom: incr, bufferLimit: 100)
        let result1 = machine.selectionNotified(property: property)
        #expect(result1 == [.readAndDeleteProperty])
        let result2 = machine.propertyRead(value(Data("abc".utf8)))
        #expect(result2 == [.deliver(Data("abc".utf8)), .finish])
        #expect(machine.type == utf8)
        #expect(machine.byteCount == 3)
        #expect(machine.state == .finished)
    }

    @Test func emptyDirectReplyFinishesWithoutData() {
        var machine = ReadStateMachine(incrAtom: incr, bufferLimit: 100)
        _ = machine.selectionNotified(property: property)
        let result3 = machine.propertyRead(value(Data()))
        #expect(result3 == [.finish])
    }

    @Test func refusalFails() {
        var machine = ReadStateMachine(incrAtom: incr, bufferLimit: 100)
        let result4 = machine.selectionNotified(property: .none)
        #expect(result4 == [.fail(.refused)])
        let result5 = machine.propertyRead(value(Data("late".utf8)))
        #expect(result5 == [])
    }

    @Test func missingPropertyIsAnInvalidReply() {
        var machine = ReadStateMachine(incrAtom: incr, bufferLimit: 100)
        _ = machine.selectionNotified(property: property)
        let actions = machine.propertyRead(PropertyValue(type: .none, format: 0, bytes: Data(), bytesAfter: 0, itemCount: 0))
        guard case .fail(.invalidReply) = actions.first else {
            Issue.record("expected invalidReply, got \(actions)")
            return
        }
    }

    @Test func incrementalTransferStreamsChunks() {
        var machine = ReadStateMachine(incrAtom: incr, bufferLimit: 100)
        _ = machine.selectionNotified(property: property)
        let result6 = machine.propertyRead(value(Data([0, 0, 0, 9]), type: incr))
        #expect(result6 == [.armIdleDeadline])
        #expect(machine.isIncremental)
        // Our own deletion comes back as PropertyNotify(Deleted): ignored.
        let result7 = machine.propertyChanged(deleted: true)
        #expect(result7 == [])
        let result8 = machine.propertyChanged(deleted: false)
        #expect(result8 == [.readAndDeleteProperty])
        let result9 = machine.propertyRead(value(Data("1234".utf8)))
        #expect(result9 == [.deliver(Data("1234".utf8)), .armIdleDeadline])
        let result10 = machine.propertyChanged(deleted: false)
        #expect(result10 == [.readAndDeleteProperty])
        let result11 = machine.propertyRead(value(Data("56789".utf8)))
        #expect(result11 == [.deliver(Data("56789".utf8)), .armIdleDeadline])
        let result12 = machine.propertyChanged(deleted: false)
        #expect(result12 == [.readAndDeleteProperty])
        let result13 = machine.propertyRead(value(Data()))
        #expect(result13 == [.finish])
        #expect(machine.byteCount == 9)
        #expect(machine.type == utf8)
    }

    @Test func fullBufferHoldsBackTheNextChunk() {
        var machine = ReadStateMachine(incrAtom: incr, bufferLimit: 8)
        _ = machine.selectionNotified(property: property)
        _ = machine.propertyRead(value(Data([0]), type: incr))
        _ = machine.propertyChanged(deleted: false)
        _ = machine.propertyRead(value(Data(count: 8)))
        #expect(machine.bufferedBytes == 8)
        // Buffer full: the chunk stays on the server, so the owner waits for us.
        let result14 = machine.propertyChanged(deleted: false)
        #expect(result14 == [])
        #expect(machine.chunkPending)
        // A stall while we are the slow side is not the owner's fault.
        let result15 = machine.deadlinePassed()
        #expect(result15 == [.armIdleDeadline])
        let result16 = machine.consumed(8)
        #expect(result16 == [.readAndDeleteProperty])
        #expect(!machine.chunkPending)
    }

    @Test func deadlinesFailByPhase() {
        var waiting = ReadStateMachine(incrAtom: incr, bufferLimit: 8)
        let result17 = waiting.deadlinePassed()
        #expect(result17 == [.fail(.noReply)])
        var streaming = ReadStateMachine(incrAtom: incr, bufferLimit: 8)
        _ = streaming.selectionNotified(property: property)
        _ = streaming.propertyRead(value(Data([0]), type: incr))
        let result18 = streaming.deadlinePassed()
        #expect(result18 == [.fail(.stalled)])
        let result19 = streaming.deadlinePassed()
        #expect(result19 == [])
    }
}
