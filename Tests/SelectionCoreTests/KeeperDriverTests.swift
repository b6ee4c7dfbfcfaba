import ClipBridgeTestSupport
import FoundationEssentials
import Synchronization
import Testing
@testable import SelectionCore

/// The keeper's driver (`KeeperDriver`, the same for every backend) over the in-memory backend: what the daemon does
/// on a display — keep each copy, restore it when its owner leaves, take handovers, let a validator veto — as unit
/// tests with no display and no sleep.
@Suite struct KeeperDriverTests {
    typealias Offer = InMemoryBackend.Offer
    typealias Driver = KeeperDriver<InMemoryBackend>

    let backend = InMemoryBackend()
    let copy = Offer([
        .init("UTF8_STRING", "kept words"), .init("text/html", "<i>kept</i> words"), .init("application/x-app", "private"),
    ])

    final class Log: Sendable {
        private let reports = Mutex<[KeeperReport<Int>]>([])
        private let recorded = Mutex<[(Int?, Offer)]>([])
        func report(_ report: KeeperReport<Int>) { reports.withLock { $0.append(report) } }
        func record(_ owner: Int?, _ offer: Offer) { recorded.withLock { $0.append((owner, offer)) } }
        var all: [KeeperReport<Int>] { reports.withLock { $0 } }
        var records: [(Int?, Offer)] { recorded.withLock { $0 } }
    }

    /// Starts a keeper of CLIPBOARD and waits until it watches the backend's owners and has asked who owns the
    /// selection as it starts (a copy made before that question would be seen both ways, as the starting owner and as a
    /// change: two reads — what a loaded CI machine once did).
    func start(
        log: Log, manager: AsyncStream<ManagerEvent<InMemoryBackend.Terms>>? = nil, validator: Driver.Validator? = nil,
        rewriter: Driver.Rewriter? = nil
    ) async -> Task<Void, any Error> {
        let driver = Driver(
            backend: backend, selection: .clipboard, limits: SnapshotLimits(), validator: validator, rewriter: rewriter,
            recorder: log.record)
        let task = Task { try await driver.run(manager: manager, log.report) }
        #expect(await settled { backend.watchers == 1 && backend.ownerQueries >= 1 })
        return task
    }

    @Test func aCopyIsKeptAndRestoredWhenItsOwnerLeaves() async throws {
        let log = Log()
        let keeper = await start(log: log)
        defer { keeper.cancel() }
        backend.copy(copy, to: .clipboard, by: 7)
        #expect(await settled { log.all.count == 1 })
        #expect(log.all == [.kept(.clipboard, flavours: 3, bytes: 34, omitted: [])])
        #expect(log.records.map(\.0) == [7] && log.records.first?.1 == copy)
        backend.ownerLeaves(.clipboard)
        #expect(await settled { backend.currentOwner(of: .clipboard) == InMemoryBackend.ours })
        #expect(backend.offer(of: .clipboard) == copy)
        #expect(await settled { log.all.last == .restored(.clipboard, flavours: 3) })
        // Its own claim is not a new copy: nothing read again, nothing recorded again.
        #expect(backend.snapshots == 1 && log.records.count == 1)
        // A new application's copy replaces it; the restored offer is held until its transfers end.
        backend.copy(Offer([.init("UTF8_STRING", "newer")]), to: .clipboard, by: 8)
        #expect(await settled { log.records.count == 2 })
        #expect(backend.holds == 1)
    }

    /// The owner leaves while its offer is read: what was read whole before it went is kept and restored.
    @Test func anOwnerGoneDuringTheReadLeavesWhatWasRead() async throws {
        let log = Log()
        let keeper = await start(log: log)
        defer { keeper.cancel() }
        backend.holdReads()
        backend.copy(copy, to: .clipboard, by: 7)
        #expect(await settled { backend.readsWaiting == 1 })
        backend.ownerLeaves(.clipboard)
        backend.releaseReads()
        #expect(await settled { log.all.contains(.restored(.clipboard, flavours: 1)) }, "\(log.all)")
        #expect(log.all.first == .keptPart(.clipboard, flavours: 1, bytes: 10, omitted: ["text/html", "application/x-app"]))
        #expect(backend.offer(of: .clipboard) == Offer([.init("UTF8_STRING", "kept words")]))
    }

    /// A newer owner while the first one's offer is read: the first read is dropped, never served or recorded.
    @Test func aNewerOwnerDuringTheReadOvertakesIt() async throws {
        let log = Log()
        let keeper = await start(log: log)
        defer { keeper.cancel() }
        backend.holdReads()
        backend.copy(copy, to: .clipboard, by: 7)
        #expect(await settled { backend.readsWaiting == 1 })
        let newer = Offer([.init("UTF8_STRING", "newer")])
        backend.copy(newer, to: .clipboard, by: 8)
        #expect(await settled { backend.readsWaiting == 2 })
        backend.releaseReads()
        #expect(await settled { log.records.count == 1 })
        #expect(log.records.first?.0 == 8 && log.records.first?.1 == newer)
        backend.ownerLeaves(.clipboard)
        #expect(await settled { backend.offer(of: .clipboard) == newer })
        #expect(await settled(turns: 2_000) { log.records.count > 1 } == false)
    }

    /// The restore claims with the time its owner left: an application that copied in between keeps its copy
    /// (an X server ignores the older claim), and the keeper keeps that application's copy instead.
    @Test func theRestoreClaimsWithTheTimeItsOwnerLeft() async throws {
        let log = Log()
        let keeper = await start(log: log)
        defer { keeper.cancel() }
        backend.copy(copy, to: .clipboard, by: 7)
        #expect(await settled { log.records.count == 1 })
        // The owner leaves and another application copies before the keeper hears of either.
        let app = Offer([.init("UTF8_STRING", "copied meanwhile")])
        backend.together {
            backend.ownerLeaves(.clipboard)
            backend.copy(app, to: .clipboard, by: 9)
        }
        #expect(await settled { log.records.count == 2 })
        #expect(backend.currentOwner(of: .clipboard) == 9 && backend.offer(of: .clipboard) == app)
        #expect(!log.all.contains(.restored(.clipboard, flavours: 3)))
    }

    /// Content marked sensitive is not read, recorded or restored; a file manager's cut is kept but not restored
    /// (a paste moves the files) — it reaches the recorder, whose policy decides; its copied-files list, whose reading
    /// acts on the owner, is never read.
    @Test func secretsAndCutsAreNotServedAndSideEffectTargetsNotRead() async throws {
        let log = Log()
        let keeper = await start(log: log)
        defer { keeper.cancel() }
        backend.copy(Offer([.init("UTF8_STRING", "hunter2"), .init(.passwordManagerHint, "secret")]), to: .clipboard, by: 7)
        #expect(await settled { log.all == [.skippedSensitive(.clipboard)] }, "\(log.all)")
        backend.ownerLeaves(.clipboard)
        #expect(await settled { log.all.last == .lostWithOwner(.clipboard) }, "\(log.all)")
        #expect(log.records.isEmpty && backend.claims.isEmpty)

        backend.copy(Offer([
            .init("text/uri-list", "file:///home/me/a.txt\r\n"), .init("x-special/gnome-copied-files", "cut\nfile:///home/me/a.txt"),
            .init("application/x-kde-cutselection", "1"),
        ]), to: .clipboard, by: 8)
        #expect(await settled { log.all.count == 3 })
        guard case .kept(.clipboard, 2, _, let omitted)? = log.all.last else {
            Issue.record("\(log.all)")
            return
        }
        #expect(omitted == ["x-special/gnome-copied-files"])
        backend.ownerLeaves(.clipboard)
        #expect(await settled { log.all.last == .cutNotRestored(.clipboard) }, "\(log.all)")
        // Not served again; handed to the recorder as every kept copy is — the history's policy refuses a cut
        // (ClipHistory's CapturePolicyTests).
        #expect(backend.claims.isEmpty && log.records.map(\.0) == [8])
    }

    /// A validator's veto takes the selection back: the last accepted copy serves again, and the vetoed one is not
    /// recorded.
    @Test func aVetoRestoresTheLastAcceptedCopy() async throws {
        let log = Log()
        let keeper = await start(log: log, validator: { _, kept in
            kept.flavours.contains { $0.bytes == Data("forbidden".utf8) } ? .restorePrevious : .accept
        })
        defer { keeper.cancel() }
        backend.copy(copy, to: .clipboard, by: 7)
        #expect(await settled { log.records.count == 1 })
        backend.copy(Offer([.init("UTF8_STRING", "forbidden")]), to: .clipboard, by: 8)
        #expect(await settled { log.all.contains(.vetoed(.clipboard, restored: true)) }, "\(log.all)")
        #expect(backend.currentOwner(of: .clipboard) == InMemoryBackend.ours && backend.offer(of: .clipboard) == copy)
        #expect(log.records.count == 1)
    }

    /// A handover (X11's SAVE_TARGETS): the owner's listed targets are read at once, the selection claimed with
    /// every flavour already kept, and only then the owner told. Another manager taking the role stops the keeper.
    @Test func aHandoverIsSavedAndAnsweredThenTheRoleEnds() async throws {
        let log = Log()
        let (events, manager) = AsyncStream<ManagerEvent<InMemoryBackend.Terms>>.makeStream()
        let keeper = await start(log: log, manager: events)
        backend.copy(copy, to: .clipboard, by: 7)
        #expect(await settled { log.records.count == 1 })
        let request = InMemoryHandover(id: 1, requestor: 7, targets: ["UTF8_STRING"])
        manager.yield(.handover(request))
        #expect(await settled { backend.answers.count == 1 })
        #expect(backend.answers.first?.0 == request && backend.answers.first?.1 == true)
        #expect(backend.currentOwner(of: .clipboard) == InMemoryBackend.ours)
        #expect(backend.offer(of: .clipboard) == copy, "a listed subset keeps every flavour already kept")
        #expect(log.all.contains(.saved(.clipboard, flavours: 3, requestor: 7)), "\(log.all)")
        manager.yield(.replaced)
        try await keeper.value
        #expect(log.all.last == .replaced(.clipboard))
        #expect(backend.currentOwner(of: .clipboard) == nil, "the selection the keeper held is given up")
    }

    /// What the keeper serves is rewritten each time it serves it; the change is reported.
    @Test func aRewriteIsWhatTheRestoreServes() async throws {
        let log = Log()
        let keeper = await start(log: log, rewriter: { kept in
            (Offer(kept.flavours.filter { $0.target != "application/x-app" }), ["dropped application/x-app"])
        })
        defer { keeper.cancel() }
        backend.copy(copy, to: .clipboard, by: 7)
        #expect(await settled { log.records.count == 1 })
        backend.ownerLeaves(.clipboard)
        #expect(await settled { log.all.last == .restored(.clipboard, flavours: 2) }, "\(log.all)")
        #expect(log.all.contains(.rewritten(.clipboard, changes: ["dropped application/x-app"])))
        #expect(backend.offer(of: .clipboard)?.targets == ["UTF8_STRING", "text/html"])
    }
}
