import ClipBridgeTestSupport
import Foundation
import Testing
import X11Selection

/// Each test starts and kills its own X server.
@Suite(.timeLimit(.minutes(2)))
struct ConnectionLossTests {
    @Test func serverKilledMidReadFailsPendingCallsAndTheProcessLivesOn() async throws {
        let server = try await XvfbServer.start()
        let owner = try await X11Connection.open(display: server.display)
        let reader = try await X11Connection.open(display: server.display)
        let selection = SelectionName(rawValue: "CLIPBRIDGE_DOOMED")
        let lease = try await owner.claim(selection, offering: SelectionOffer([
            .init(target: "application/x-never", source: .provider {
                try await Task.sleep(for: .seconds(20))
                return Data()
            }),
        ]))
        let changes = try await reader.ownerChanges(of: [.clipboard])
        let reading = Task { try await reader.read(selection, target: "application/x-never", timeout: .seconds(60)) }
        #expect(await eventually { await reader.activeReadCount == 1 })

        await server.kill()
        let started = ContinuousClock.now
        let result = await reading.result
        #expect(started.duration(to: .now) < .seconds(5))
        #expect(throws: SelectionError.self) { try result.get() }
        if case .failure(let error as SelectionError) = result {
            #expect(error.code == .connectionLost)
        }
        let watchError = await #expect(throws: SelectionError.self) {
            for try await _ in changes {}
        }
        #expect(watchError?.code == .connectionLost)
        var events: [SelectionLeaseEvent] = []
        for await event in lease.events { events.append(event) }
        #expect(events.contains(.lost(nil)))
        let later = await #expect(throws: SelectionError.self) { _ = try await reader.owner(of: .clipboard) }
        #expect(later?.code == .connectionLost)

        // Nothing global is poisoned: a new server and connection work.
        try await withXvfb { fresh in
            let connection = try await X11Connection.open(display: fresh.display)
            #expect(try await connection.owner(of: .clipboard) == nil)
            await connection.shutdown()
        }
    }

    @Test func serverKilledMidIncrementalStreamFailsTheStream() async throws {
        let server = try await XvfbServer.start()
        var configuration = Configuration()
        configuration.incrementalThreshold = 16 * 1024
        configuration.chunkSize = 16 * 1024
        let owner = try await X11Connection.open(display: server.display, configuration: configuration)
        var readerConfiguration = Configuration()
        readerConfiguration.streamBufferLimit = 16 * 1024
        let reader = try await X11Connection.open(display: server.display, configuration: readerConfiguration)
        let selection = SelectionName(rawValue: "CLIPBRIDGE_DOOMED_INCR")
        _ = try await owner.claim(selection, offering: SelectionOffer([
            .init(target: "application/x-big", source: .bytes(payload(8 << 20))),
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
        await server.kill()
        await gate.open()
        let result = await reading.result
        if case .failure(let error as SelectionError) = result {
            #expect(error.code == .connectionLost)
        } else {
            Issue.record("the stream should fail with connectionLost, got \(result)")
        }
        #expect(await received.data.count < 8 << 20)
        await owner.shutdown()
        await reader.shutdown()
    }
}
