import ClipBridgeTestSupport
import Foundation
import Testing
import X11Selection

/// Claim-then-continue, the engine half of `clipbridge copy`'s claim-then-fork.
@Suite(.xvfb, .timeLimit(.minutes(1)))
struct PreparedClaimTests {
    /// A claim prepared on a fresh selection, and a read of it started from another connection before any
    /// offer exists; when `start()` returns, the request has had time to reach the claim's connection.
    struct EarlyRequest {
        static let target: SelectionTarget = "application/x-early"
        let selection: SelectionName
        let prepared: PreparedClaim
        let reader: X11Connection
        let read: Task<SelectionData, any Error>

        static func start() async throws -> EarlyRequest {
            let selection = uniqueSelection()
            let prepared = try PreparedClaim(selection, display: try currentDisplay())
            let reader = try await openConnection()
            let read = Task { try await reader.read(selection, target: target) }
            try await Task.sleep(for: .milliseconds(200))
            return EarlyRequest(selection: selection, prepared: prepared, reader: reader, read: read)
        }
    }

    /// Another connection that takes `selection` (offering one placeholder target).
    func steal(_ selection: SelectionName) async throws -> X11Connection {
        let thief = try await openConnection()
        _ = try await thief.claim(selection, offering: SelectionOffer([.init(target: "text/x-thief", source: .bytes(Data()))]))
        return thief
    }

    @Test func requestsBeforeTheOfferAreHeldThenAnswered() async throws {
        let early = try await EarlyRequest.start()
        let (selection, prepared, reader) = (early.selection, early.prepared, early.reader)
        // The selection is owned already; the read must wait for the offer, not be refused.
        #expect(try await reader.owner(of: selection) != nil)
        let owner = try await X11Connection.open(continuing: prepared)
        let lease = try await owner.claim(selection, offering: SelectionOffer([
            .init(target: EarlyRequest.target, source: .bytes(Data("held".utf8))),
        ]))
        #expect(try await early.read.value.bytes == Data("held".utf8))
        #expect(lease.timestamp == prepared.timestamp)
        let timestamp = try await reader.read(selection, target: .timestamp)
        let value = timestamp.bytes.withUnsafeBytes { UInt($0.loadUnaligned(as: UInt32.self).littleEndian) }
        #expect(value == prepared.timestamp.rawValue)
        await owner.shutdown()
        await reader.shutdown()
    }

    @Test func aLossBeforeTheOfferIsReportedNotUndone() async throws {
        let selection = uniqueSelection()
        let prepared = try PreparedClaim(selection, display: try currentDisplay())
        let owner = try await X11Connection.open(continuing: prepared)
        let thief = try await steal(selection)
        // The thief's claim reaches the continuing connection as SelectionClear; give its loop time to
        // handle it (a claim before that would be the adoption's, and the thief's clear would then end it).
        try await Task.sleep(for: .milliseconds(300))
        let error = await #expect(throws: SelectionError.self) {
            _ = try await owner.claim(selection, offering: SelectionOffer([]))
        }
        #expect(error?.code == .ownershipLost)
        #expect(try await thief.owner(of: selection) == thief.utilityWindow)
        await owner.shutdown()
        await thief.shutdown()
    }

    @Test func awaitActivityIsQuietWhenNobodyAsks() throws {
        let prepared = try PreparedClaim(uniqueSelection(), display: try currentDisplay())
        let started = ContinuousClock.now
        #expect(prepared.awaitActivity(for: .milliseconds(300)) == .quiet)
        let elapsed = ContinuousClock.now - started
        #expect(elapsed >= .milliseconds(300) && elapsed < .seconds(3), "\(elapsed)")
    }

    @Test func awaitActivityReportsALossBeforeAnyRequest() async throws {
        let selection = uniqueSelection()
        let prepared = try PreparedClaim(selection, display: try currentDisplay())
        let thief = try await steal(selection)
        let started = ContinuousClock.now
        #expect(prepared.awaitActivity(for: .seconds(10)) == .lost)
        #expect(ContinuousClock.now - started < .seconds(5))
        #expect(try await thief.owner(of: selection) == thief.utilityWindow)
        await thief.shutdown()
    }

    @Test func aRequestBeforeTheLossIsAnsweredNotDropped() async throws {
        let early = try await EarlyRequest.start()
        let thief = try await steal(early.selection)
        try await Task.sleep(for: .milliseconds(200))
        // The request came before the SelectionClear: the continuing connection must answer it.
        #expect(early.prepared.awaitActivity(for: .seconds(10)) == .events)
        let owner = try await X11Connection.open(continuing: early.prepared)
        let started = ContinuousClock.now
        await #expect(throws: SelectionError.self) { _ = try await early.read.value }
        #expect(ContinuousClock.now - started < .seconds(4), "refused, not left to time out")
        await owner.shutdown()
        await thief.shutdown()
        await early.reader.shutdown()
    }

    @Test func awaitActivityLeavesARequestForTheContinuingConnection() async throws {
        let early = try await EarlyRequest.start()
        let started = ContinuousClock.now
        #expect(early.prepared.awaitActivity(for: .seconds(10)) == .events)
        #expect(ContinuousClock.now - started < .seconds(5))
        let owner = try await X11Connection.open(continuing: early.prepared)
        _ = try await owner.claim(early.selection, offering: SelectionOffer([
            .init(target: EarlyRequest.target, source: .bytes(Data("after the wait".utf8))),
        ]))
        #expect(try await early.read.value.bytes == Data("after the wait".utf8))
        await owner.shutdown()
        await early.reader.shutdown()
    }

    @Test func aPreparedClaimIsUsedOnce() async throws {
        let prepared = try PreparedClaim(uniqueSelection(), display: try currentDisplay())
        let first = try await X11Connection.open(continuing: prepared)
        let error = await #expect(throws: SelectionError.self) { _ = try await X11Connection.open(continuing: prepared) }
        #expect(error?.code == .shutDown)
        await first.shutdown()
    }

    @Test func anUnreachableDisplayIsNamed() {
        let error = #expect(throws: SelectionError.self) { _ = try PreparedClaim("CLIPBOARD", display: ":4078") }
        #expect(error?.code == .displayUnavailable)
        #expect(error?.message.contains(":4078") == true)
    }
}
