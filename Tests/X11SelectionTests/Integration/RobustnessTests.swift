import CX11
import ClipBridgeTestSupport
import Foundation
import Glibc
import Testing
import X11Selection

@Suite(.xvfb, .timeLimit(.minutes(2)))
struct RobustnessTests {
    /// The issue's central case: an app and a clipboard manager ask together, one of them stops reading.
    @Test func stuckRequestorIsDroppedWhileAnotherIsServedInFull() async throws {
        let display = try currentDisplay()
        let owner = try await openConnection {
            $0.incrementalThreshold = 64 * 1024
            $0.chunkSize = 16 * 1024
            $0.maximumChunkSize = 16 * 1024  // fixed chunks: the stuck reader takes exactly two
            $0.incrementalIdleTimeout = .seconds(1)
        }
        let selection = uniqueSelection()
        let bytes = payload(4 << 20, seed: 5)
        let lease = try await owner.claim(selection, offering: SelectionOffer([
            .init(target: "application/x-big", source: .bytes(bytes)),
        ]))
        let stuck = try await onThread { () throws -> RawXClient in
            let client = try RawXClient(display)
            let progress = try client.startIncrementalRead(selection: selection.rawValue, target: "application/x-big", chunks: 2)
            guard progress.incremental, progress.bytes == 32 * 1024 else { throw RawXError("unexpected \(progress)") }
            return client
        }
        let reader = try await openConnection()
        let data = try await reader.read(selection, target: "application/x-big")
        #expect(data.bytes == bytes)

        var outcomes: [SelectionLeaseEvent] = []
        for await event in lease.events {
            outcomes.append(event)
            if outcomes.count == 2 { break }
        }
        let readerWindow = await reader.utilityWindow
        #expect(outcomes.contains(.served(target: "application/x-big", requestor: readerWindow, byteCount: bytes.count)))
        let failure = outcomes.first { if case .failed = $0 { true } else { false } }
        guard case .failed(let target, let requestor, let reason) = failure else {
            Issue.record("the stuck requestor was not dropped: \(outcomes)")
            return
        }
        #expect(target == "application/x-big")
        #expect(requestor == X11Window(rawValue: stuck.window))
        #expect(reason.contains("idle"))
        #expect(await owner.activeTransferCount == 0)
        _ = try await onThread { stuck.close() }
        await owner.shutdown()
        await reader.shutdown()
    }

    @Test func requestorWindowDestroyedMidTransferIsCleanedUp() async throws {
        let display = try currentDisplay()
        let owner = try await openConnection {
            $0.incrementalThreshold = 64 * 1024
            $0.chunkSize = 16 * 1024
            $0.incrementalIdleTimeout = .seconds(60)  // so only the destruction can end the transfer
        }
        let selection = uniqueSelection()
        let lease = try await owner.claim(selection, offering: SelectionOffer([
            .init(target: "application/x-big", source: .bytes(payload(1 << 20))),
        ]))
        let started = ContinuousClock.now
        let client = try await onThread { () throws -> RawXClient in
            let client = try RawXClient(display)
            _ = try client.startIncrementalRead(selection: selection.rawValue, target: "application/x-big", chunks: 1)
            client.destroyWindow()
            return client
        }
        var iterator = lease.events.makeAsyncIterator()
        let event = await iterator.next()
        guard case .failed(_, let requestor, let reason) = event else {
            Issue.record("expected a failed transfer, got \(String(describing: event))")
            return
        }
        #expect(requestor == X11Window(rawValue: client.window))
        #expect(reason.contains("destroyed") || reason.contains("vanished"))
        #expect(started.duration(to: .now) < .seconds(10))
        #expect(await owner.activeTransferCount == 0)
        // The owner still serves others afterwards.
        let reader = try await openConnection()
        #expect(try await reader.read(selection, target: "application/x-big").bytes.count == 1 << 20)
        _ = try await onThread { client.close() }
        await owner.shutdown()
        await reader.shutdown()
    }

    /// A requestor that asks and vanishes before the answer: our writes to its window fail with BadWindow,
    /// which is the peer's problem (logged), never ours.
    @Test func badWindowFromAVanishedRequestorIsContained() async throws {
        let display = try currentDisplay()
        let owner = try await openConnection {
            $0.incrementalThreshold = 64 * 1024
        }
        let selection = uniqueSelection()
        let gate = Gate()
        let lease = try await owner.claim(selection, offering: SelectionOffer([
            .init(target: "application/x-late", source: .provider {
                await gate.waitUntilOpen()
                return payload(1 << 20)
            }),
            .init(target: .utf8String, source: .bytes(Data("still here".utf8))),
        ]))
        try await onThread {
            let client = try RawXClient(display)
            XConvertSelection(client.display, client.atom(selection.rawValue), client.atom("application/x-late"),
                              client.atom("RAW_PEER_DATA"), client.window, UInt(CurrentTime))
            XSync(client.display, 0)
            client.close()  // the window goes with the client
        }
        try await Task.sleep(for: .milliseconds(100))
        await gate.open()
        // The INCR header write and the SelectionNotify hit a window that no longer exists.
        var iterator = lease.events.makeAsyncIterator()
        let event = await iterator.next()
        guard case .failed(let target, _, let reason) = event else {
            Issue.record("expected the transfer to fail, got \(String(describing: event))")
            return
        }
        #expect(target == "application/x-late")
        #expect(reason.contains("vanished") || reason.contains("destroyed"), "\(reason)")
        #expect(await owner.activeTransferCount == 0)
        let reader = try await openConnection()
        #expect(try await reader.readText(selection) == "still here")
        await owner.shutdown()
        await reader.shutdown()
    }

    @Test func droppingAConnectionWithoutShutdownClosesIt() async throws {
        let watcher = try await openConnection()
        let selection = uniqueSelection()
        do {
            let owner = try await openConnection()
            _ = try await owner.claim(selection, offering: SelectionOffer(SelectionOffer.textRepresentations("x")))
            #expect(try await watcher.owner(of: selection) != nil)
        }
        // The actor's isolated deinit closes the display on its thread; the server then drops the owner.
        #expect(try await eventually { try await watcher.owner(of: selection) == nil })
        await watcher.shutdown()
    }

    @Test func requestsOlderThanTheClaimAreRefusedAndPropertyNoneIsServed() async throws {
        let display = try currentDisplay()
        let owner = try await openConnection()
        let selection = uniqueSelection()
        let lease = try await owner.claim(selection, offering: SelectionOffer([
            .init(target: .utf8String, source: .bytes(Data("obsolete".utf8))),
        ]))
        let claimTime = Time(lease.timestamp.rawValue)
        let (stale, obsolete) = try await onThread { () throws -> (Atom, String) in
            let client = try RawXClient(display)
            defer { client.close() }
            let property = client.atom("RAW_PEER_DATA")
            let selectionAtom = client.atom(selection.rawValue)
            let target = client.atom("UTF8_STRING")
            // ICCCM 2.2: a request stamped before the owner's claim must be refused.
            XConvertSelection(client.display, selectionAtom, target, property, client.window, claimTime - 1)
            XFlush(client.display)
            guard let refused = client.waitForEvent(timeout: .seconds(5), { $0.type == SelectionNotify }) else {
                throw RawXError("no answer to the stale request")
            }
            // Obsolete requestors pass property None: the owner uses the target atom as the property.
            XConvertSelection(client.display, selectionAtom, target, 0, client.window, UInt(CurrentTime))
            XFlush(client.display)
            guard let answered = client.waitForEvent(timeout: .seconds(5), { $0.type == SelectionNotify }) else {
                throw RawXError("no answer to the property-None request")
            }
            guard answered.xselection.property == target else { throw RawXError("property \(answered.xselection.property)") }
            let value = client.property(client.window, target, delete: true)
            return (refused.xselection.property, String(decoding: value.bytes, as: UTF8.self))
        }
        #expect(stale == 0)
        #expect(obsolete == "obsolete")
        await owner.shutdown()
    }

    @Test func lossIsReportedAndTheTransferInFlightStillFinishes() async throws {
        let owner = try await openConnection {
            $0.incrementalThreshold = 64 * 1024
            $0.chunkSize = 16 * 1024
        }
        let thief = try await openConnection()
        let reader = try await openConnection { $0.streamBufferLimit = 32 * 1024 }
        let selection = uniqueSelection()
        let bytes = payload(2 << 20, seed: 9)
        let lease = try await owner.claim(selection, offering: SelectionOffer([
            .init(target: "application/x-big", source: .bytes(bytes)),
        ]))
        let received = Received()
        let gate = Gate()
        let reading = Task {
            try await reader.read(selection, target: "application/x-big") { chunk in
                await received.append(chunk)
                await gate.waitUntilOpen()
            }
        }
        #expect(await eventually { await received.data.count > 0 })
        let stolen = try await thief.claim(selection, offering: SelectionOffer([
            .init(target: .utf8String, source: .bytes(Data("mine".utf8))),
        ]))
        var iterator = lease.events.makeAsyncIterator()
        #expect(await iterator.next() == .lost(stolen.timestamp))
        await gate.open()
        let summary = try await reading.value
        #expect(summary.byteCount == bytes.count)
        #expect(await received.data == bytes)
        let readerWindow = await reader.utilityWindow
        #expect(await iterator.next() == .served(target: "application/x-big", requestor: readerWindow, byteCount: bytes.count))
        #expect(await iterator.next() == nil)
        await owner.shutdown()
        await thief.shutdown()
        await reader.shutdown()
    }

    @Test func cancellingAReadEndsItAndFreesIt() async throws {
        let owner = try await openConnection()
        let reader = try await openConnection()
        let selection = uniqueSelection()
        _ = try await owner.claim(selection, offering: SelectionOffer([
            .init(target: "application/x-slow", source: .provider {
                try await Task.sleep(for: .seconds(30))
                return Data()
            }),
        ]))
        let reading = Task { try await reader.read(selection, target: "application/x-slow", timeout: .seconds(60)) }
        #expect(await eventually { await reader.activeReadCount == 1 })
        reading.cancel()
        let result = await reading.result
        #expect(throws: CancellationError.self) { try result.get() }
        #expect(await reader.activeReadCount == 0)
        await owner.shutdown()
        await reader.shutdown()
    }

    @Test func shutdownFailsPendingCallsAndLaterCalls() async throws {
        let owner = try await openConnection()
        let reader = try await openConnection()
        let selection = uniqueSelection()
        _ = try await owner.claim(selection, offering: SelectionOffer([
            .init(target: "application/x-slow", source: .provider {
                try await Task.sleep(for: .seconds(30))
                return Data()
            }),
        ]))
        let changes = try await reader.ownerChanges(of: [selection])
        let reading = Task { try await reader.read(selection, target: "application/x-slow", timeout: .seconds(60)) }
        #expect(await eventually { await reader.activeReadCount == 1 })
        await reader.shutdown()
        let result = await reading.result
        if case .failure(let error as SelectionError) = result {
            #expect(error.code == .shutDown)
        } else {
            Issue.record("expected .shutDown, got \(result)")
        }
        var iterator = changes.makeAsyncIterator()
        #expect(try await iterator.next() == nil)
        let later = await #expect(throws: SelectionError.self) { _ = try await reader.targets(of: selection) }
        #expect(later?.code == .shutDown)
        await owner.shutdown()
    }

    @Test func aThrowingSinkAbandonsTheRead() async throws {
        struct Enough: Error {}
        let owner = try await openConnection {
            $0.incrementalThreshold = 16 * 1024
            $0.chunkSize = 16 * 1024
        }
        let reader = try await openConnection()
        let selection = uniqueSelection()
        _ = try await owner.claim(selection, offering: SelectionOffer([
            .init(target: "application/x-big", source: .bytes(payload(1 << 20))),
        ]))
        await #expect(throws: Enough.self) {
            _ = try await reader.read(selection, target: "application/x-big") { _ in throw Enough() }
        }
        #expect(await reader.activeReadCount == 0)
        // The connection is fine afterwards.
        #expect(try await reader.read(selection, target: "application/x-big").bytes.count == 1 << 20)
        await owner.shutdown()
        await reader.shutdown()
    }

    @Test func aReadWithoutReplyTimesOut() async throws {
        let owner = try await openConnection()
        // Only the per-call timeout can end the read early: the configured one is a minute.
        let reader = try await openConnection { $0.readTimeout = .seconds(60) }
        let selection = uniqueSelection()
        _ = try await owner.claim(selection, offering: SelectionOffer([
            .init(target: "application/x-slow", source: .provider {
                try await Task.sleep(for: .seconds(30))
                return Data()
            }),
        ]))
        let started = ContinuousClock.now
        let error = await #expect(throws: SelectionError.self) {
            _ = try await reader.read(selection, target: "application/x-slow", timeout: .milliseconds(300))
        }
        #expect(error?.code == .timedOut)
        #expect(started.duration(to: .now) < .seconds(10))
        await owner.shutdown()
        await reader.shutdown()
    }
}

/// Opens when told; lets a test hold a streaming sink at a chosen point.
actor Gate {
    private var isOpen = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    func open() {
        isOpen = true
        waiters.forEach { $0.resume() }
        waiters.removeAll()
    }

    func waitUntilOpen() async {
        if isOpen { return }
        await withCheckedContinuation { waiters.append($0) }
    }
}
