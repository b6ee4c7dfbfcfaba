import ClipBridgeTestSupport
import Foundation
import Synchronization
import Testing
import X11Selection

/// `X11Connection.registerDropTarget`: XDND's target side on the wire, against a scripted drag source in
/// python-xlib (Tests/Peers/xdnd_source.py) that speaks the protocol to the window directly.
///
/// Serialized: every drag source owns the one `XdndSelection` of the server, so two drags at once would take
/// it from each other (as on a desktop, one drag happens at a time).
@Suite(.xvfb, .serialized, .timeLimit(.minutes(2)))
struct DropTargetTests {
    /// What the delegate saw.
    private final class Record: Sendable {
        let proposals = Mutex<[XdndProposal]>([])
        let dropped = Mutex<[(types: [SelectionTarget], data: Data, action: SelectionTarget)]>([])
        let targeted = Mutex<[Bool]>([])
        /// Drops whose data could not be read.
        let failures = Mutex(0)
    }

    /// A delegate that takes drops offering `wanted`, reading it with the drop's time.
    private func delegate(taking wanted: SelectionTarget, into record: Record) -> XdndDropDelegate {
        XdndDropDelegate(
            proposal: { proposal in
                record.proposals.withLock { $0.append(proposal) }
                return proposal.types.contains(wanted) ? proposal.action : nil
            },
            drop: { drop in
                guard let data = try? await drop.read(wanted) else {
                    record.failures.withLock { $0 += 1 }
                    return false
                }
                record.dropped.withLock { $0.append((drop.types, data.bytes, drop.action)) }
                return true
            },
            targeted: { isTargeted in record.targeted.withLock { $0.append(isTargeted) } })
    }

    private func drag(onto window: X11Window, offering offers: [(String, Data)], extra: [String] = []) async throws
        -> XdndSourcePeer.Outcome
    {
        try await XdndSourcePeer.drag(onto: window, display: try currentDisplay(), offering: offers, extra: extra)
    }

    @Test func aDropOnOurWindowIsReadWithTheDropsTimeAndFinished() async throws {
        let connection = try await openConnection()
        let record = Record()
        try await connection.registerDropTarget(delegate: delegate(taking: "text/uri-list", into: record))
        let uris = Data("file:///tmp/a%20b.txt\r\nfile:///tmp/c.txt\r\n".utf8)
        let outcome = try await drag(onto: await connection.utilityWindow,
                                     offering: [("text/uri-list", uris), ("UTF8_STRING", Data("a b.txt".utf8))])
        #expect(outcome.error == nil, "\(outcome)")
        #expect(outcome.version == 5 && outcome.accepted == true && outcome.statusAction == "XdndActionCopy")
        #expect(outcome.finished == true && outcome.finishedAccepted == true && outcome.finishedAction == "XdndActionCopy")
        #expect(outcome.requests == ["text/uri-list"])
        let dropped = record.dropped.withLock { $0 }
        #expect(dropped.count == 1 && dropped.first?.data == uris && dropped.first?.types == ["text/uri-list", "UTF8_STRING"])
        #expect(record.proposals.withLock { $0.first.map { ($0.x, $0.y) } } ?? (0, 0) == (10, 10))
        #expect(try await eventuallyTargeted(record, [true, false]))
        await connection.shutdown()
    }

    /// Another client's window (any XID): its XdndProxy sends the messages to our connection.
    @Test func anotherClientsWindowTakesDropsThroughItsProxy() async throws {
        let app = try await openConnection()
        let connection = try await openConnection()
        let record = Record()
        let appWindow = await app.utilityWindow
        try await connection.registerDropTarget(on: appWindow, delegate: delegate(taking: "application/x-note", into: record))
        let note = Data(#"{"title":"dropped"}"#.utf8)
        let outcome = try await drag(onto: appWindow, offering: [("application/x-note", note)], extra: ["--action", "move"])
        #expect(outcome.finishedAccepted == true && outcome.finishedAction == "XdndActionMove", "\(outcome)")
        #expect(record.dropped.withLock { $0.first?.data } == note)
        await connection.unregisterDropTarget(on: appWindow)
        await connection.shutdown()
        await app.shutdown()
    }

    /// The plan is made once, from the types the drag entered with; every position is answered from it and the
    /// drop gets it, read with the drop's own time.
    @Test func aDragIsPlannedOnceWhenItEnters() async throws {
        let connection = try await openConnection()
        let plans = Mutex<[[SelectionTarget]]>([])
        let positions = Mutex(0)
        let dropped = Mutex<(plan: SelectionTarget, time: X11Timestamp, data: Data)?>(nil)
        try await connection.registerDropTarget(delegate: XdndDropDelegate(
            plan: { types -> SelectionTarget? in
                plans.withLock { $0.append(types) }
                return types.first { $0 == "text/uri-list" }
            },
            proposal: { plan, proposal in
                positions.withLock { $0 += 1 }
                return plan == "text/uri-list" ? proposal.action : nil
            },
            drop: { plan, drop in
                guard let data = try? await drop.read(plan) else { return false }
                dropped.withLock { $0 = (plan, drop.time, data.bytes) }
                return true
            }))
        let uris = Data("file:///tmp/planned.txt\r\n".utf8)
        let outcome = try await drag(onto: await connection.utilityWindow,
                                     offering: [("UTF8_STRING", Data("x".utf8)), ("text/uri-list", uris)])
        #expect(outcome.finishedAccepted == true, "\(outcome)")
        #expect(plans.withLock { $0 } == [["UTF8_STRING", "text/uri-list"]])
        #expect(positions.withLock { $0 } >= 1)
        let taken = dropped.withLock { $0 }
        #expect(taken?.plan == "text/uri-list" && taken?.data == uris && taken?.time != X11Timestamp.currentTime)
        await connection.shutdown()
    }

    @Test func aRefusedDragIsLeftWithoutADrop() async throws {
        let connection = try await openConnection()
        let record = Record()
        try await connection.registerDropTarget(delegate: delegate(taking: "image/png", into: record))
        let outcome = try await drag(onto: await connection.utilityWindow, offering: [("UTF8_STRING", Data("text".utf8))])
        #expect(outcome.accepted == false && outcome.finished == nil, "\(outcome)")
        #expect(record.dropped.withLock { $0.isEmpty })
        #expect(try await eventuallyTargeted(record, [true, false]))
        await connection.shutdown()
    }

    @Test func moreThanThreeTypesAreReadFromTheSourcesTypeList() async throws {
        let connection = try await openConnection()
        let record = Record()
        try await connection.registerDropTarget(delegate: delegate(taking: "application/x-extra-2", into: record))
        let outcome = try await drag(onto: await connection.utilityWindow, offering: [("UTF8_STRING", Data("t".utf8))],
                                     extra: ["--extra-types", "4"])
        // The fifth type is only in XdndTypeList; it is offered (made up, so its conversion is refused).
        #expect(outcome.accepted == true, "\(outcome)")
        #expect(outcome.finishedAccepted == false)
        #expect(record.proposals.withLock { $0.first?.types.count } == 5)
        await connection.shutdown()
    }

    /// A source that dies right after XdndDrop: the drop's read fails at once (its owner is gone), the drag ends,
    /// and the next drag is served as usual.
    @Test func aSourceThatDiesMidDropEndsTheDragAndTheNextOneWorks() async throws {
        let connection = try await openConnection()
        let record = Record()
        try await connection.registerDropTarget(delegate: delegate(taking: "text/plain", into: record))
        let window = await connection.utilityWindow
        let started = ContinuousClock.now
        _ = try await drag(onto: window, offering: [("text/plain", Data("lost".utf8))], extra: ["--die-after-drop"])
        #expect(try await eventuallyTargeted(record, [true, false]))
        #expect(await eventually(timeout: .seconds(8)) { record.failures.withLock { $0 } > 0 })
        #expect(record.failures.withLock { $0 } == 1)
        #expect(record.targeted.withLock { $0 } == [true, false], "the end of the drag is said once")
        #expect(started.duration(to: .now) < .seconds(8), "the failed drop took \(started.duration(to: .now))")
        let outcome = try await drag(onto: window, offering: [("text/plain", Data("kept".utf8))])
        #expect(outcome.finishedAccepted == true, "\(outcome)")
        #expect(record.dropped.withLock { $0.last?.data } == Data("kept".utf8))
        await connection.shutdown()
    }

    private func eventuallyTargeted(_ record: Record, _ expected: [Bool]) async throws -> Bool {
        await eventually(timeout: .seconds(5)) { record.targeted.withLock { $0 } == expected }
    }
}
