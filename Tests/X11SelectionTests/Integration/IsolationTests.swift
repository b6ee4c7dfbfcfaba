import ClipBridgeTestSupport
import Foundation
import Synchronization
import Testing
@testable import X11Selection

/// `X11Connection.withIsolation`: code running on the connection's executor, reads without thread hops.
@Suite(.xvfb, .timeLimit(.minutes(2)))
struct IsolationTests {
    @Test func readsInsideWithIsolationAcrossTwoConnections() async throws {
        let owner = try await openConnection()
        let reader = try await openConnection()
        let selection = uniqueSelection()
        _ = try await owner.claim(selection, offering: SelectionOffer([
            .init(target: "text/html", source: .bytes(Data("<b>hi</b>".utf8))),
            .init(target: .utf8String, source: .provider { Data("hi there".utf8) }),
        ]))
        let ownerWindow = await owner.utilityWindow

        struct Seen: Sendable {
            var owner: X11Window?
            var targets: [SelectionTarget]
            var html: SelectionData
            var text: String
            var streamed: Data
            var streamType: SelectionTarget
            var multiple: [SelectionTarget: Result<SelectionData, SelectionError>]
        }
        let seen = try await reader.withIsolation { connection in
            // A synchronous isolated call without `await`: the body runs on the connection's executor.
            let currentOwner = try connection.owner(of: selection)
            let targets = try await connection.targets(of: selection)
            let html = try await connection.read(selection, target: "text/html")
            let text = try await connection.readText(selection)
            let collected = Mutex(Data())
            let summary = try await connection.read(selection, target: .utf8String) { chunk in
                collected.withLock { $0.append(chunk) }
            }
            let multiple = try await connection.read(selection, targets: ["text/html", .utf8String, "image/png"])
            return Seen(
                owner: currentOwner, targets: targets, html: html, text: text,
                streamed: collected.withLock { $0 }, streamType: summary.type, multiple: multiple)
        }
        #expect(seen.owner == ownerWindow)
        #expect(seen.targets == ["text/html", "UTF8_STRING", "TARGETS", "MULTIPLE", "TIMESTAMP", "SAVE_TARGETS",
                                 "DELETE", "TARGET_SIZES"])
        #expect(seen.html.bytes == Data("<b>hi</b>".utf8))
        #expect(seen.html.type == "text/html")
        #expect(seen.text == "hi there")
        #expect(seen.streamed == Data("hi there".utf8))
        #expect(seen.streamType == .utf8String)
        #expect(try seen.multiple["text/html"]?.get().bytes == Data("<b>hi</b>".utf8))
        #expect(try seen.multiple[.utf8String]?.get().bytes == Data("hi there".utf8))
        guard case .failure(let refused)? = seen.multiple["image/png"] else {
            Issue.record("image/png was not refused: \(String(describing: seen.multiple["image/png"]))")
            return
        }
        #expect(refused.code == .targetUnavailable)
        #expect(await reader.activeReadCount == 0)
        await owner.shutdown()
        await reader.shutdown()
    }

    @Test func manyReadsInARowInsideOneBody() async throws {
        let owner = try await openConnection()
        let reader = try await openConnection()
        let selection = uniqueSelection()
        let bytes = payload(16, seed: 11)
        _ = try await owner.claim(selection, offering: SelectionOffer([.init(target: .utf8String, source: .bytes(bytes))]))
        let results = try await reader.withIsolation { connection in
            var results: [Data] = []
            for index in 0..<300 {
                if index % 3 == 0 {
                    let collected = Mutex(Data())
                    _ = try await connection.read(selection, target: .utf8String) { chunk in
                        collected.withLock { $0.append(chunk) }
                    }
                    results.append(collected.withLock { $0 })
                } else {
                    results.append(try await connection.read(selection, target: .utf8String).bytes)
                }
            }
            return results
        }
        #expect(results.count == 300)
        #expect(results.allSatisfy { $0 == bytes })
        #expect(await reader.activeReadCount == 0)
        await owner.shutdown()
        await reader.shutdown()
    }

    @Test func incrementalStreamInsideWithIsolation() async throws {
        let owner = try await openConnection {
            $0.incrementalThreshold = 4096
            $0.chunkSize = 4096
        }
        let reader = try await openConnection()
        let selection = uniqueSelection()
        let bytes = payload(100_001, seed: 3)
        _ = try await owner.claim(selection, offering: SelectionOffer([.init(target: "application/x-data", source: .bytes(bytes))]))
        let (data, chunks) = try await reader.withIsolation { connection in
            let collected = Mutex((Data(), 0))
            let summary = try await connection.read(selection, target: "application/x-data") { chunk in
                collected.withLock { $0.0.append(chunk); $0.1 += 1 }
            }
            let (data, chunks) = collected.withLock { $0 }
            #expect(summary.byteCount == data.count)
            return (data, chunks)
        }
        #expect(data == bytes)
        #expect(chunks > 1)
        await owner.shutdown()
        await reader.shutdown()
    }

    @Test func errorsAndTimeoutsAreThrownInsideTheBody() async throws {
        let owner = try await openConnection()
        let reader = try await openConnection()
        let selection = uniqueSelection()
        _ = try await owner.claim(selection, offering: SelectionOffer([.init(target: "text/html", source: .bytes(Data("x".utf8)))]))
        let (silent, silentSelection) = try await rawOwner("silent")

        let codes = try await reader.withIsolation { connection in
            var codes: [SelectionError.Code] = []
            do {
                _ = try await connection.read(selection, target: "image/png")
            } catch let error as SelectionError {
                codes.append(error.code)
                #expect(error.availableTargets.contains("text/html"))
            }
            do {
                _ = try await connection.read(uniqueSelection("nobody"), target: .utf8String)
            } catch let error as SelectionError {
                codes.append(error.code)
            }
            let start = ContinuousClock.now
            do {
                _ = try await connection.read(silentSelection, target: .utf8String, timeout: .milliseconds(300))
            } catch let error as SelectionError {
                codes.append(error.code)
                #expect(ContinuousClock.now - start < .seconds(3))
            }
            do {
                _ = try await connection.read(silentSelection, target: .utf8String, timeout: .milliseconds(300)) { _ in }
            } catch let error as SelectionError {
                codes.append(error.code)
            }
            return codes
        }
        #expect(codes == [.targetUnavailable, .noOwner, .timedOut, .timedOut])

        // An error thrown by the body itself reaches the caller unchanged (typed throws).
        struct Marker: Error, Equatable {}
        await #expect(throws: Marker.self) {
            try await reader.withIsolation { (_: isolated X11Connection) throws(Marker) -> Int in throw Marker() }
        }
        #expect(await reader.activeReadCount == 0)
        _ = try await onThread { silent.close() }
        await owner.shutdown()
        await reader.shutdown()
    }

    @Test func cancellingTheCallerCancelsReadsInTheBody() async throws {
        let reader = try await openConnection()
        let (silent, silentSelection) = try await rawOwner("silent")
        let started = ContinuousClock.now
        let whole = Task {
            try await reader.withIsolation { connection in
                try await connection.read(silentSelection, target: .utf8String, timeout: .seconds(30)).bytes.count
            }
        }
        let streamed = Task {
            try await reader.withIsolation { connection in
                try await connection.read(silentSelection, target: .utf8String, timeout: .seconds(30)) { _ in }.byteCount
            }
        }
        let multiple = Task {
            try await reader.withIsolation { connection in
                try await connection.read(silentSelection, targets: [.utf8String, .string], timeout: .seconds(30)).count
            }
        }
        // Two single reads, and MULTIPLE's own read plus one per target.
        #expect(await eventually { await reader.activeReadCount == 5 })
        whole.cancel()
        streamed.cancel()
        multiple.cancel()
        await #expect(throws: CancellationError.self) { _ = try await whole.value }
        await #expect(throws: CancellationError.self) { _ = try await streamed.value }
        await #expect(throws: CancellationError.self) { _ = try await multiple.value }
        #expect(ContinuousClock.now - started < .seconds(10))
        #expect(await eventually { await reader.activeReadCount == 0 })

        // The connection is still usable, inside and outside the isolation.
        let owner = try await openConnection()
        let selection = uniqueSelection()
        _ = try await owner.claim(selection, offering: SelectionOffer([.init(target: .utf8String, source: .bytes(Data("ok".utf8)))]))
        #expect(try await reader.read(selection, target: .utf8String).bytes == Data("ok".utf8))
        #expect(try await reader.withIsolation { try await $0.readText(selection) } == "ok")
        _ = try await onThread { silent.close() }
        await owner.shutdown()
        await reader.shutdown()
    }

    @Test func aBodyAwaitingAReadDoesNotBlockTheLoop() async throws {
        let connection = try await openConnection()
        let selection = uniqueSelection()
        let bytes = payload(50_000, seed: 9)
        _ = try await connection.claim(selection, offering: SelectionOffer([
            .init(target: "application/x-data", source: .provider { bytes }),
        ]))
        // The owner side is served by the same connection while its own body awaits the read.
        let own = try await connection.withIsolation { connection in
            try await connection.read(selection, target: "application/x-data").bytes
        }
        #expect(own == bytes)

        // While a body awaits a slow read (an owner that never answers), the loop goes on serving other
        // requestors of our selection and other callers of this connection.
        let (silent, silentSelection) = try await rawOwner("silent")
        let waiting = Task {
            try await connection.withIsolation { connection in
                try await connection.read(silentSelection, target: .utf8String, timeout: .seconds(4))
            }
        }
        #expect(await eventually { await connection.activeReadCount == 1 })
        let other = try await openConnection()
        let started = ContinuousClock.now
        #expect(try await other.read(selection, target: "application/x-data").bytes == bytes)
        #expect(try await connection.owner(of: selection) == (await connection.utilityWindow))
        #expect(ContinuousClock.now - started < .seconds(3))
        let error = await #expect(throws: SelectionError.self) { _ = try await waiting.value }
        #expect(error?.code == .timedOut)
        _ = try await onThread { silent.close() }
        await other.shutdown()
        await connection.shutdown()
    }

    @Test func nestedWithIsolationAndDefaultPathCallersMix() async throws {
        let owner = try await openConnection()
        let reader = try await openConnection()
        let selection = uniqueSelection()
        _ = try await owner.claim(selection, offering: SelectionOffer(SelectionOffer.textRepresentations("mixed")))
        // Default-path reads and isolated bodies at the same time on one connection.
        try await withThrowingTaskGroup(of: String.self) { group in
            for index in 0..<20 {
                group.addTask {
                    if index.isMultiple(of: 2) {
                        return try await reader.readText(selection)
                    }
                    return try await reader.withIsolation { connection in
                        try await connection.withIsolation { try await $0.readText(selection) }
                    }
                }
            }
            for try await text in group {
                #expect(text == "mixed")
            }
        }
        #expect(await reader.activeReadCount == 0)
        await owner.shutdown()
        await reader.shutdown()
    }
}
