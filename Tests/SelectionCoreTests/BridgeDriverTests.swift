import ClipBridgeTestSupport
import FoundationEssentials
import Synchronization
import Testing
@testable import SelectionCore

/// The bridge's driver (`BridgeDriver`, the same for X ↔ X, X ↔ Wayland and Wayland ↔ Wayland) over in-memory
/// backends: lazy relays, every flavour in order, no echo, secrets withheld, withdrawal, translation between namings,
/// sides lost and reconnected, one server named twice, a coupling consulted — with no display and no sleep.
@Suite struct BridgeDriverTests {
    typealias Offer = InMemoryBackend.Offer

    let copy = Offer([
        .init("UTF8_STRING", "bridged words"), .init("text/html", "<b>bridged</b> words"),
        .init("application/x-app", Data((0..<300).map { UInt8($0 % 251) })),
    ])

    final class Log: Sendable {
        private let reports = Mutex<[BridgeReport]>([])
        func report(_ report: BridgeReport) { reports.withLock { $0.append(report) } }
        var all: [BridgeReport] { reports.withLock { $0 } }
        func count(_ predicate: (BridgeReport) -> Bool) -> Int { all.count(where: predicate) }
    }

    /// Starts a driver between `backends` (side i named "s<i>"), and waits until every side is connected.
    func start(
        _ backends: [InMemoryBackend], log: Log, includeSensitive: Bool = false, translation: (any FlavourTranslation)? = nil,
        coupling: (any BridgeCoupling)? = nil, connect: (@Sendable (Int) throws -> Void)? = nil
    ) async -> Task<Void, Never> {
        let sides = backends.enumerated().map { index, backend in
            BridgeDriver.Side(name: "s\(index)") {
                try connect?(index)
                return BridgeEndpoint(backend)
            }
        }
        let driver = BridgeDriver(
            sides: sides, selections: [.clipboard, .primary], includeSensitive: includeSensitive, timeout: .seconds(1),
            translation: translation, coupling: coupling, markBytes: Data("test bridge".utf8),
            sleep: { _ in await Task.yield() }, report: log.report)
        let task = Task { await driver.run() }
        if connect == nil {
            #expect(await settled { log.count { if case .connected = $0 { true } else { false } } == backends.count })
        }
        return task
    }

    var marks: [SelectionTarget] { BridgePolicy.markers }

    @Test func aCopyIsOfferedOnTheOtherSideEveryFlavourInOrderAndReadOnlyWhenPasted() async throws {
        let a = InMemoryBackend(), b = InMemoryBackend(), log = Log()
        let bridge = await start([a, b], log: log)
        defer { bridge.cancel() }
        a.copy(copy, to: .clipboard, by: 7)
        #expect(await settled { b.relayedTypes(of: .clipboard) == copy.targets + marks })
        // Reported once the claims are made.
        #expect(await settled { log.all.contains(.bridged(.clipboard, from: "s0", to: ["s1"], targets: copy.targets)) })
        // Nothing was read ahead: the offer's types only.
        #expect(a.snapshots == 0)
        for flavour in copy.flavours {
            let pasted = try await b.paste(.clipboard, flavour.target)
            #expect(pasted.bytes == flavour.bytes)
        }
        #expect(try await b.paste(.clipboard, BridgePolicy.marker).bytes == Data("test bridge".utf8))
        #expect(await settled { log.count { if case .served(.clipboard, "s1", _, _) = $0 { true } else { false } } == 3 })
        // Our claim on s1 is not bridged back to s0, and PRIMARY was never touched.
        #expect(a.claims.isEmpty && a.currentOwner(of: .clipboard) == 7)
        #expect(b.relayedTypes(of: .primary) == nil)
    }

    @Test func aCopyOnAnySideReachesEveryOtherOneAndTheNewestSourceWins() async throws {
        let sides = [InMemoryBackend(), InMemoryBackend(), InMemoryBackend()], log = Log()
        let bridge = await start(sides, log: log)
        defer { bridge.cancel() }
        sides[1].copy(copy, to: .clipboard, by: 3)
        #expect(await settled { sides[0].relayedTypes(of: .clipboard) != nil && sides[2].relayedTypes(of: .clipboard) != nil })
        sides[2].copy(Offer([.init("text/plain;charset=utf-8", "from the third")]), to: .clipboard, by: 4)
        #expect(await settled { sides[1].relayedTypes(of: .clipboard) == ["text/plain;charset=utf-8"] + marks })
        #expect(try await sides[0].paste(.clipboard, "text/plain;charset=utf-8").bytes == Data("from the third".utf8))
        // The first side's old content is not offered anywhere any more.
        #expect(sides[0].relayedTypes(of: .clipboard) == ["text/plain;charset=utf-8"] + marks)
    }

    @Test func anotherBridgesClaimIsLeftAloneAndNothingEchoes() async throws {
        let a = InMemoryBackend(), b = InMemoryBackend(), log = Log()
        let bridge = await start([a, b], log: log)
        defer { bridge.cancel() }
        a.copy(Offer([.init("UTF8_STRING", "x"), .init(BridgePolicy.marker, "other bridge")]), to: .clipboard, by: 9)
        #expect(await settled { log.all.contains { if case .notBridged(.clipboard, "s0", let reason) = $0 { reason.contains("another bridge") } else { false } } })
        #expect(b.claims.isEmpty)
        // A copy then a round of claims: each side is claimed once, never twice (no echo).
        a.copy(copy, to: .clipboard, by: 10)
        #expect(await settled { b.claims.count == 1 })
        for _ in 0..<1_000 { await Task.yield() }
        #expect(b.claims.count == 1 && a.claims.isEmpty)
    }

    @Test func sensitiveContentIsWithheldUnlessAskedAndTheOldOfferIsWithdrawn() async throws {
        for includeSensitive in [false, true] {
            let a = InMemoryBackend(), b = InMemoryBackend(), log = Log()
            let bridge = await start([a, b], log: log, includeSensitive: includeSensitive)
            a.copy(copy, to: .clipboard, by: 7)
            #expect(await settled { b.relayedTypes(of: .clipboard) != nil })
            a.copy(Offer([.init("UTF8_STRING", "hunter2"), .init(.passwordManagerHint, "secret")]), to: .clipboard, by: 8)
            if includeSensitive {
                #expect(await settled { b.relayedTypes(of: .clipboard) == ["UTF8_STRING"] + marks + [.passwordManagerHint] })
                #expect(try await b.paste(.clipboard, "UTF8_STRING").bytes == Data("hunter2".utf8))
            } else {
                #expect(await settled { b.currentOwner(of: .clipboard) == nil })
                // Reported after the release.
                #expect(await settled {
                    log.all.contains(.notBridged(.clipboard, from: "s0", reason: "the content is marked sensitive (x-kde-passwordManagerHint)"))
                })
            }
            bridge.cancel()
            await bridge.value
        }
    }

    @Test func anOwnerGoneWithdrawsAndAPasteOfAWithdrawnOfferIsRefused() async throws {
        let a = InMemoryBackend(), b = InMemoryBackend(), log = Log()
        let bridge = await start([a, b], log: log)
        defer { bridge.cancel() }
        a.copy(copy, to: .clipboard, by: 7)
        #expect(await settled { b.relayedTypes(of: .clipboard) != nil })
        a.ownerLeaves(.clipboard)
        #expect(await settled { b.currentOwner(of: .clipboard) == nil })
        // Reported after the release.
        #expect(await settled { log.all.contains(.withdrawn(.clipboard, from: "s0")) })
        await #expect(throws: InMemoryBackendError.self) { try await b.paste(.clipboard, "UTF8_STRING") }
    }

    /// A translation for the test: UTF8_STRING as upper-case `text/plain` read whole, everything else streamed under
    /// its own name with a reply type given.
    struct Uppercase: FlavourTranslation {
        func flavours(for types: [SelectionTarget], from source: FlavourNaming, to destination: FlavourNaming) -> [TranslatedFlavour] {
            types.map { type in
                guard type == "UTF8_STRING" else { return TranslatedFlavour(type: type, source: type, conversion: .stream(as: "BYTES")) }
                return TranslatedFlavour(type: "text/plain", source: type, conversion: .whole { bytes, _ in
                    FlavourChunk(Data(String(decoding: bytes, as: UTF8.self).uppercased().utf8), type: "text/plain")
                })
            }
        }
    }

    @Test func sidesNamingFlavoursDifferentlyGoThroughTheTranslationAndAlikeOnesDoNot() async throws {
        let x = InMemoryBackend(naming: .x11Targets), wayland = InMemoryBackend(naming: .mimeTypes)
        let otherX = InMemoryBackend(naming: .x11Targets), log = Log()
        let bridge = await start([x, wayland, otherX], log: log, translation: Uppercase())
        defer { bridge.cancel() }
        x.copy(copy, to: .clipboard, by: 7)
        #expect(await settled { wayland.relayedTypes(of: .clipboard) != nil && otherX.relayedTypes(of: .clipboard) != nil })
        #expect(wayland.relayedTypes(of: .clipboard) == ["text/plain", "text/html", "application/x-app"] + marks)
        #expect(otherX.relayedTypes(of: .clipboard) == copy.targets + marks)
        // Read whole and converted (the in-memory backend hands a read over 4 bytes at a time).
        #expect(try await wayland.paste(.clipboard, "text/plain") == (Data("BRIDGED WORDS".utf8), "text/plain"))
        let streamed = try await wayland.paste(.clipboard, "application/x-app")
        #expect(streamed.bytes == copy.flavours[2].bytes && streamed.type == "BYTES")
        #expect(try await otherX.paste(.clipboard, "UTF8_STRING").bytes == Data("bridged words".utf8))
    }

    @Test func aSideThatCannotBeReachedIsRetriedAndGivenTheCurrentContentWhenItComes() async throws {
        let a = InMemoryBackend(), b = InMemoryBackend(), log = Log()
        let attempts = Atomic<Int>(0)
        struct Unreachable: Error, CustomStringConvertible { var description: String { "no such display" } }
        let bridge = await start([a, b], log: log) { index in
            if index == 1, attempts.add(1, ordering: .relaxed).newValue < 4 { throw Unreachable() }
        }
        defer { bridge.cancel() }
        #expect(await settled { log.all.contains(.connected(display: "s0")) })
        a.copy(copy, to: .clipboard, by: 7)
        #expect(await settled { b.relayedTypes(of: .clipboard) == copy.targets + marks })
        // The outage was told once, when it began.
        #expect(log.count { $0 == .disconnected(display: "s1", reason: "no such display") } == 1)
        // The side's connection breaks: told, retried, and back with the current content.
        b.tearDown(error: Unreachable())
        #expect(await settled { log.count { $0 == .connected(display: "s1") } == 2 })
        #expect(log.all.contains(.disconnected(display: "s1", reason: "no such display")))
        #expect(await settled { b.claims.count == 2 })
        #expect(try await b.paste(.clipboard, "text/html").bytes == copy.flavours[1].bytes)
    }

    @Test func oneServerNamedTwiceIsNotBridgedToItself() async throws {
        let a = InMemoryBackend(identity: "server:0"), twin = InMemoryBackend(identity: "server:0"), log = Log()
        let bridge = await start([a, twin], log: log) { _ in }
        defer { bridge.cancel() }
        #expect(await settled { log.all.contains(.disconnected(display: "s1", reason: "it is the server of s0 again")) })
        a.copy(copy, to: .clipboard, by: 7)
        for _ in 0..<1_000 { await Task.yield() }
        #expect(twin.claims.isEmpty && twin.isShutDown)
    }

    /// A coupling for the test: side 1's changes, and owner 99's on side 0, are the link's to carry; side 0's owners are
    /// read ahead.
    final class TestCoupling: BridgeCoupling {
        let changes: AsyncStream<(SelectionName, OwnerChangeMeaning, side: Int)>
        let feed: AsyncStream<(SelectionName, OwnerChangeMeaning, side: Int)>.Continuation
        init() { (changes, feed) = AsyncStream.makeStream() }
        func connected(_ endpoint: BridgeEndpoint, side: Int) async {}
        func disconnected(side: Int) {}
        func meaning(of change: BridgeEndpoint.Change, on side: Int) async -> OwnerChangeMeaning? {
            guard change.meaning == .newOwner else { return nil }
            return side == 1 || change.owner as? Int == 99 ? .ours : nil
        }
        func readsAhead(on side: Int) -> Bool { side == 0 }
    }

    @Test func aCouplingIsConsultedOnChangesOnReadsAheadAndWithChangesOfItsOwn() async throws {
        let a = InMemoryBackend(), b = InMemoryBackend(), log = Log(), coupling = TestCoupling()
        let bridge = await start([a, b], log: log, coupling: coupling)
        defer { bridge.cancel() }
        // Read ahead: the content is served after its owner left (as the compositor takes the X selection away).
        a.copy(copy, to: .clipboard, by: 7)
        #expect(await settled { b.relayedTypes(of: .clipboard) == copy.targets + marks })
        #expect(a.snapshots == 1)
        // The link takes side 0's selection over (its owner 99, as a compositor's window manager): the bridge ignores
        // it, and serves what it read.
        a.copy(Offer([.init("UTF8_STRING", "the link's mirror")]), to: .clipboard, by: 99)
        for _ in 0..<1_000 { await Task.yield() }
        #expect(try await b.paste(.clipboard, "application/x-app").bytes == copy.flavours[2].bytes)
        #expect(try await b.paste(.clipboard, "UTF8_STRING").bytes == Data("bridged words".utf8))
        // Side 1's own copy is the link's: not bridged.
        b.copy(Offer([.init("UTF8_STRING", "carried by the link")]), to: .clipboard, by: 5)
        for _ in 0..<1_000 { await Task.yield() }
        #expect(a.claims.isEmpty)
        // Until the coupling says otherwise (the focus left X).
        coupling.feed.yield((.clipboard, .newOwner, side: 1))
        #expect(await settled { a.relayedTypes(of: .clipboard) == ["UTF8_STRING"] + marks })
        #expect(try await a.paste(.clipboard, "UTF8_STRING").bytes == Data("carried by the link".utf8))
    }

    @Test func closingReleasesEverySelectionAndShutsEverySideDown() async throws {
        let a = InMemoryBackend(), b = InMemoryBackend(), log = Log()
        let bridge = await start([a, b], log: log)
        a.copy(copy, to: .clipboard, by: 7)
        #expect(await settled { b.relayedTypes(of: .clipboard) != nil })
        bridge.cancel()
        await bridge.value
        #expect(b.currentOwner(of: .clipboard) == nil && a.currentOwner(of: .clipboard) == 7)
        #expect(a.isShutDown && b.isShutDown)
    }
}
