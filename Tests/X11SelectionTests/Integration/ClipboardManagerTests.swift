import CX11
import ClipBridgeTestSupport
import Foundation
import Testing
import X11Selection

/// A small clipboard manager per the freedesktop spec, written against raw Xlib: owns CLIPBOARD_MANAGER,
/// answers one SAVE_TARGETS request by reading every listed target from CLIPBOARD (INCR included), takes
/// CLIPBOARD over, then notifies. `answer: false` makes it refuse instead; `answer: nil` never answers.
struct TestManager: Sendable {
    struct Outcome: Sendable {
        var saved: [String: Data]
        var requestedTargets: [String]
    }

    let client: RawXClient

    static func start(display: String) async throws -> TestManager {
        let client = try await onThread { () throws -> RawXClient in
            let client = try RawXClient(display)
            guard client.claim("CLIPBOARD_MANAGER") else { throw RawXError("cannot own CLIPBOARD_MANAGER") }
            return client
        }
        return TestManager(client: client)
    }

    func serveOneRequest(answer: Bool?) async throws -> Outcome {
        let client = self.client
        return try await onThread { () throws -> Outcome in
            defer { client.close() }
            guard let event = client.waitForEvent(timeout: .seconds(10), { $0.type == SelectionRequest }) else {
                throw RawXError("no SAVE_TARGETS request")
            }
            let request = event.xselectionrequest
            guard client.atomName(request.target) == "SAVE_TARGETS" else {
                throw RawXError("unexpected target \(client.atomName(request.target))")
            }
            let list = client.property(request.requestor, request.property, delete: false)
            let targets = client.longs(list.bytes).map { client.atomName(Atom($0)) }
            var saved: [String: Data] = [:]
            guard let answer else {
                usleep(3_000_000)  // a manager that hangs
                return Outcome(saved: saved, requestedTargets: targets)
            }
            if answer {
                for target in targets {
                    saved[target] = try client.readSelection("CLIPBOARD", target: target)
                }
                _ = client.claim("CLIPBOARD")
            }
            client.notify(
                requestor: request.requestor, selection: request.selection, target: request.target,
                property: answer ? request.property : 0, time: request.time)
            return Outcome(saved: saved, requestedTargets: targets)
        }
    }
}

@Suite(.xvfb, .serialized, .timeLimit(.minutes(2)))
struct ClipboardManagerTests {
    @Test func handsOverToTheManagerIncludingIncrementalTransfers() async throws {
        let display = try currentDisplay()
        let owner = try await openConnection {
            $0.incrementalThreshold = 64 * 1024
            $0.chunkSize = 32 * 1024
        }
        let big = payload(1 << 20, seed: 77)
        let lease = try await owner.claim(.clipboard, offering: SelectionOffer(
            SelectionOffer.textRepresentations("keep me") + [.init(target: "image/png", source: .provider { big })]))
        let manager = try await TestManager.start(display: display)
        async let outcome = manager.serveOneRequest(answer: true)
        let result = try await owner.handOverToClipboardManager(timeout: .seconds(10))
        #expect(result == .saved)
        let saved = try await outcome
        #expect(saved.requestedTargets.first == "UTF8_STRING")
        #expect(saved.requestedTargets.contains("image/png"))
        #expect(!saved.requestedTargets.contains("TARGETS"))
        #expect(saved.saved["UTF8_STRING"] == Data("keep me".utf8))
        #expect(saved.saved["image/png"] == big)
        var sawLoss = false
        for await event in lease.events {
            if case .lost = event { sawLoss = true }
        }
        #expect(sawLoss)
        await owner.shutdown()
    }

    @Test func aRefusingManagerIsAnError() async throws {
        let display = try currentDisplay()
        let owner = try await openConnection()
        _ = try await owner.claim(.clipboard, offering: SelectionOffer(SelectionOffer.textRepresentations("x")))
        let manager = try await TestManager.start(display: display)
        async let outcome = manager.serveOneRequest(answer: false)
        let error = await #expect(throws: SelectionError.self) {
            _ = try await owner.handOverToClipboardManager(timeout: .seconds(10))
        }
        #expect(error?.code == .clipboardManagerUnavailable)
        _ = try await outcome
        await owner.shutdown()
    }

    @Test func aSilentManagerTimesOut() async throws {
        let display = try currentDisplay()
        let owner = try await openConnection()
        _ = try await owner.claim(.clipboard, offering: SelectionOffer(SelectionOffer.textRepresentations("x")))
        let manager = try await TestManager.start(display: display)
        async let outcome = manager.serveOneRequest(answer: nil)
        let started = ContinuousClock.now
        let error = await #expect(throws: SelectionError.self) {
            _ = try await owner.handOverToClipboardManager(timeout: .milliseconds(500))
        }
        #expect(error?.code == .timedOut)
        #expect(started.duration(to: .now) < .seconds(2))
        _ = try await outcome
        await owner.shutdown()
    }

    @Test func clearResultsWithoutManagerOwnershipOrForSecrets() async throws {
        let owner = try await openConnection()
        #expect(try await owner.owner(of: .clipboardManager) == nil)
        #expect(try await owner.handOverToClipboardManager() == .notOwner)
        _ = try await owner.claim(.clipboard, offering: SelectionOffer(SelectionOffer.textRepresentations("x")))
        #expect(try await owner.handOverToClipboardManager() == .noManager)
        _ = try await owner.claim(.clipboard, offering: SelectionOffer(
            SelectionOffer.textRepresentations("pw"), isSensitive: true))
        #expect(try await owner.handOverToClipboardManager() == .skippedSensitive)
        await owner.shutdown()
    }
}
