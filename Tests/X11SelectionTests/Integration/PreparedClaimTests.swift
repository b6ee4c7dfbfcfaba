import ClipBridgeTestSupport
import Foundation
import Testing
import X11Selection

/// Claim-then-continue, the engine half of `clipbridge copy`'s claim-then-fork.
@Suite(.xvfb, .timeLimit(.minutes(1)))
struct PreparedClaimTests {
    @Test func requestsBeforeTheOfferAreHeldThenAnswered() async throws {
        let selection = uniqueSelection()
        let prepared = try PreparedClaim(selection, display: try currentDisplay())
        let reader = try await openConnection()
        // The selection is owned already; a read now must wait for the offer, not be refused.
        #expect(try await reader.owner(of: selection) != nil)
        async let early = reader.read(selection, target: "application/x-early")
        try await Task.sleep(for: .milliseconds(200))
        let owner = try await X11Connection.open(continuing: prepared)
        let lease = try await owner.claim(selection, offering: SelectionOffer([
            .init(target: "application/x-early", source: .bytes(Data("held".utf8))),
        ]))
        #expect(try await early.bytes == Data("held".utf8))
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
        let thief = try await openConnection()
        _ = try await thief.claim(selection, offering: SelectionOffer([.init(target: "text/x-thief", source: .bytes(Data()))]))
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
        let thief = try await openConnection()
        _ = try await thief.claim(selection, offering: SelectionOffer([.init(target: "text/x-thief", source: .bytes(Data()))]))
        let started = ContinuousClock.now
        #expect(prepared.awaitActivity(for: .seconds(10)) == .lost)
        #expect(ContinuousClock.now - started < .seconds(5))
        #expect(try await thief.owner(of: selection) == thief.utilityWindow)
        await thief.shutdown()
    }

    @Test func aRequestBeforeTheLossIsAnsweredNotDropped() async throws {
        let selection = uniqueSelection()
        let prepared = try PreparedClaim(selection, display: try currentDisplay())
        let reader = try await openConnection()
        async let early = reader.read(selection, target: "application/x-early")
        try await Task.sleep(for: .milliseconds(200))
        let thief = try await openConnection()
        _ = try await thief.claim(selection, offering: SelectionOffer([.init(target: "text/x-thief", source: .bytes(Data()))]))
        try await Task.sleep(for: .milliseconds(200))
        // The request came before the SelectionClear: the continuing connection must answer it.
        #expect(prepared.awaitActivity(for: .seconds(10)) == .events)
        let owner = try await X11Connection.open(continuing: prepared)
        let started = ContinuousClock.now
        let outcome: Result<SelectionData, any Error>
        do { outcome = .success(try await early) } catch { outcome = .failure(error) }
        #expect(throws: SelectionError.self) { _ = try outcome.get() }
        #expect(ContinuousClock.now - started < .seconds(4), "refused, not left to time out")
        await owner.shutdown()
        await thief.shutdown()
        await reader.shutdown()
    }

    @Test func awaitActivityLeavesARequestForTheContinuingConnection() async throws {
        let selection = uniqueSelection()
        let prepared = try PreparedClaim(selection, display: try currentDisplay())
        let reader = try await openConnection()
        async let early = reader.read(selection, target: "application/x-early")
        try await Task.sleep(for: .milliseconds(200))
        let started = ContinuousClock.now
        #expect(prepared.awaitActivity(for: .seconds(10)) == .events)
        #expect(ContinuousClock.now - started < .seconds(5))
        let owner = try await X11Connection.open(continuing: prepared)
        _ = try await owner.claim(selection, offering: SelectionOffer([
            .init(target: "application/x-early", source: .bytes(Data("after the wait".utf8))),
        ]))
        #expect(try await early.bytes == Data("after the wait".utf8))
        await owner.shutdown()
        await reader.shutdown()
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
