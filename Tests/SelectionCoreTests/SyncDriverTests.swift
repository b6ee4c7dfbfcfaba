import ClipBridgeTestSupport
import FoundationEssentials
import Synchronization
import Testing
@testable import SelectionCore

/// The sync's driver (`SyncDriver`, the same for every backend) over the in-memory backend with a manual clock: each
/// behaviour of the PRIMARY → CLIPBOARD job as a unit test, with no display and no sleep.
@Suite struct SyncDriverTests {
    typealias Offer = InMemoryBackend.Offer

    let backend = InMemoryBackend()
    let clock = ManualClock()
    let text = Offer([.init("UTF8_STRING", "selected words"), .init("text/html", "<b>selected</b> words")])

    final class Reports: Sendable {
        private let list = Mutex<[SyncReport]>([])
        func add(_ report: SyncReport) { list.withLock { $0.append(report) } }
        var all: [SyncReport] { list.withLock { $0 } }
    }

    /// Starts a sync from `source` to `destination` and waits until it watches the backend's owners.
    func start(from source: SelectionName = .primary, to destination: SelectionName = .clipboard, reports: Reports)
        async -> Task<Void, any Error>
    {
        let watching = backend.watchers
        let driver = SyncDriver(
            backend: backend, clock: clock, from: source, to: destination, limits: SnapshotLimits(),
            settle: .milliseconds(100), maximumWait: .seconds(30))
        let task = Task { try await driver.run(reports.add) }
        #expect(await settled { backend.watchers > watching })
        return task
    }

    /// Lets the driver's tasks run until one sleeps until `milliseconds` after the clock's start (and the driver
    /// has taken every change before it: a change is stamped with the clock's time when the driver takes it).
    func waits(until milliseconds: Int) async -> Bool {
        await settled { clock.deadlines.contains(.milliseconds(milliseconds)) }
    }

    @Test func aSettledCopyIsCopiedWhenTheSettleTimeIsOver() async throws {
        let reports = Reports()
        let sync = await start(reports: reports)
        defer { sync.cancel() }
        backend.copy(text, to: .primary, by: 7)
        #expect(await waits(until: 100))
        clock.advance(by: .milliseconds(99))
        #expect(await waits(until: 100), "still settling")
        #expect(backend.claims.isEmpty)
        clock.advance(by: .milliseconds(1))
        #expect(await settled { backend.offer(of: .clipboard) == text })
        #expect(backend.currentOwner(of: .clipboard) == InMemoryBackend.ours)
        #expect(await settled { reports.all == [.copied(from: .primary, to: .clipboard, flavours: 2)] }, "\(reports.all)")
    }

    /// A selection made by dragging grows until the button is released: the copy waits for it, looking every 50 ms,
    /// but never longer than the maximum wait.
    @Test func aHeldButtonDelaysTheCopyUntilReleasedOrTheMaximumWait() async throws {
        let reports = Reports()
        let sync = await start(reports: reports)
        defer { sync.cancel() }
        backend.setButtonHeld(true)
        backend.copy(text, to: .primary, by: 7)
        #expect(await waits(until: 100))
        clock.advance(by: .milliseconds(100))
        for look in 1...20 {
            #expect(await waits(until: 100 + 50 * look), "look \(look): \(clock.deadlines)")
            clock.advance(by: .milliseconds(50))
        }
        #expect(await waits(until: 1150))
        #expect(backend.claims.isEmpty, "copied while the button was held")
        backend.setButtonHeld(false)
        clock.advance(by: .milliseconds(50))
        #expect(await settled { backend.claims.count == 1 })

        // Held for good: copied once the maximum wait is over, and not before.
        backend.setButtonHeld(true)
        let second = Offer([.init("UTF8_STRING", "a second selection")])
        backend.copy(second, to: .primary, by: 8)
        #expect(await waits(until: 1250))
        clock.advance(by: .milliseconds(100))
        var now = 1250
        while now < 1150 + 30_000 {
            #expect(await waits(until: now + 50), "\(now): \(clock.deadlines)")
            #expect(backend.claims.count == 1)
            clock.advance(by: .milliseconds(50))
            now += 50
        }
        #expect(await settled { backend.offer(of: .clipboard) == second })
    }

    /// A backend that cannot see the pointer (Wayland's data-control) copies once the settle time is over.
    @Test func withoutAPointerTheSettleTimeAloneDecides() async throws {
        backend.setButtonHeld(nil)
        let reports = Reports()
        let sync = await start(reports: reports)
        defer { sync.cancel() }
        backend.copy(text, to: .primary, by: 7)
        #expect(await waits(until: 100))
        clock.advance(by: .milliseconds(100))
        #expect(await settled { backend.offer(of: .clipboard) == text })
    }

    /// Syncs both ways on one backend: each one's claim is the other's change, of meaning `.ours` — never copied
    /// back, so one copy makes one claim.
    @Test func syncsBothWaysNeverEcho() async throws {
        let reports = Reports()
        let forth = await start(from: .primary, to: .clipboard, reports: reports)
        let back = await start(from: .clipboard, to: .primary, reports: reports)
        defer { forth.cancel(); back.cancel() }
        backend.copy(text, to: .primary, by: 7)
        #expect(await waits(until: 100))
        clock.advance(by: .milliseconds(100))
        #expect(await settled { backend.claims.count == 1 })
        // Nothing waits any more: no copy back is settling.
        #expect(await settled { clock.sleepers == 0 })
        clock.advance(by: .seconds(1))
        #expect(await settled(turns: 2_000) { false } == false)
        #expect(backend.claims.count == 1 && backend.currentOwner(of: .primary) == 7)
        // And the other way round.
        backend.copy(Offer([.init("UTF8_STRING", "copied with ctrl+c")]), to: .clipboard, by: 9)
        #expect(await waits(until: 1200))
        clock.advance(by: .milliseconds(100))
        #expect(await settled { backend.claims.count == 2 && backend.currentOwner(of: .primary) == InMemoryBackend.ours })
        #expect(await settled { clock.sleepers == 0 })
        #expect(backend.claims.count == 2)
    }

    /// A newer change while one settles overtakes it: only the newer one is copied.
    @Test func aNewerChangeOvertakesOneSettling() async throws {
        let reports = Reports()
        let sync = await start(reports: reports)
        defer { sync.cancel() }
        backend.copy(Offer([.init("UTF8_STRING", "sel")]), to: .primary, by: 7)
        #expect(await waits(until: 100))
        clock.advance(by: .milliseconds(60))
        let grown = Offer([.init("UTF8_STRING", "selected")])
        backend.copy(grown, to: .primary, by: 7)
        #expect(await waits(until: 160))
        #expect(await settled { clock.deadlines == [.milliseconds(160)] }, "the first change's wait is cancelled")
        clock.advance(by: .milliseconds(60))
        #expect(await waits(until: 160), "the newer change settles for its own 100 ms")
        #expect(backend.claims.isEmpty)
        clock.advance(by: .milliseconds(40))
        #expect(await settled { backend.claims.count == 1 })
        #expect(backend.claims.first?.1 == grown && backend.snapshots == 1)
    }

    /// Content marked sensitive is never copied (nothing is read of it); an owner gone before the read leaves nothing
    /// to copy. Both are reported.
    @Test func sensitiveOrVanishedContentIsNotCopied() async throws {
        let reports = Reports()
        let sync = await start(reports: reports)
        defer { sync.cancel() }
        backend.copy(Offer([.init("UTF8_STRING", "hunter2"), .init(.passwordManagerHint, "secret")]), to: .primary, by: 7)
        #expect(await waits(until: 100))
        clock.advance(by: .milliseconds(100))
        #expect(await settled {
            reports.all == [.notCopied(from: .primary, to: .clipboard, reason: "the content is marked sensitive")]
        }, "\(reports.all)")
        backend.copy(text, to: .primary, by: 8)
        #expect(await waits(until: 200))
        backend.ownerLeaves(.primary)
        clock.advance(by: .milliseconds(100))
        #expect(await settled { reports.all.count == 2 })
        guard case .notCopied(.primary, .clipboard, _)? = reports.all.last else {
            Issue.record("\(reports.all)")
            return
        }
        #expect(backend.claims.isEmpty)
    }

    /// The backend's end ends the sync: a lost connection is thrown, a torn-down backend returns.
    @Test func theBackendsEndEndsTheSync() async throws {
        struct Lost: Error {}
        let reports = Reports()
        let lost = await start(reports: reports)
        backend.tearDown(error: Lost())
        await #expect(throws: Lost.self) { try await lost.value }
        let ended = await start(reports: reports)
        backend.tearDown()
        try await ended.value
    }
}
