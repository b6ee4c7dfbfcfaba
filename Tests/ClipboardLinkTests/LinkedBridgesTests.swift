import ClipBridgeTestSupport
import FoundationEssentials
import Glibc
import SelectionCore
import Synchronization
import Testing
@testable import ClipboardLink

/// Two bridges, one per "machine", each joining an in-memory clipboard with a link to the other over a socket pair:
/// the orchestration of issue 41 end to end with no display and no ssh — lazy fetches byte-exact at any size, both
/// ways, file lists withheld, the initiator's content winning at the start, many transfers at once with a small one
/// never held up by a large one, a link broken mid-transfer failing the paste rather than ending it short — and
/// hostile peers speaking raw frames: data beyond its credit, another version, a peer that is not a link.
@Suite(.timeLimit(.minutes(1))) struct LinkedBridgesTests {
    typealias Offer = InMemoryBackend.Offer

    final class Log: Sendable {
        private let reports = Mutex<[BridgeReport]>([])
        func report(_ report: BridgeReport) { reports.withLock { $0.append(report) } }
        var all: [BridgeReport] { reports.withLock { $0 } }
        func contains(_ predicate: (BridgeReport) -> Bool) -> Bool { all.contains(where: predicate) }
    }

    /// A socket pair's ends as two transports; closing either shuts the socket down, as a dropped connection does.
    static func socketPair() -> (LinkTransport, LinkTransport) {
        var ends: [Int32] = [-1, -1]
        precondition(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &ends) == 0)
        func transport(_ fd: Int32) -> LinkTransport {
            LinkTransport(input: fd, output: dup(fd), close: { _ = shutdown(fd, Int32(SHUT_RDWR)) })
        }
        return (transport(ends[0]), transport(ends[1]))
    }

    struct Machines: Sendable {
        var near: InMemoryBackend
        var far: InMemoryBackend
        var nearLog: Log
        var farLog: Log
        var tasks: [Task<Void, Never>]
        /// The link's transports, to break it.
        var transports: (LinkTransport, LinkTransport)

        func stop() { for task in tasks { task.cancel() } }
    }

    /// A bridge per machine — the near one started the link (the initiator), the far one answers it — each joining
    /// its machine's clipboard (named "near"/"far") with the link.
    static func start(
        near: InMemoryBackend = InMemoryBackend(), far: InMemoryBackend = InMemoryBackend(), includeSensitive: Bool = false,
        timeout: Duration = .seconds(5)
    ) async -> Machines {
        let (nearEnd, farEnd) = socketPair()
        let nearLog = Log(), farLog = Log()
        func driver(_ backend: InMemoryBackend, name: String, _ transport: LinkTransport, role: LinkPolicy.Role, log: Log) -> BridgeDriver {
            let used = Mutex(false)
            let link = BridgeDriver.Side(name: "link") {
                // One transport per test: a second attempt finds none, as `--stdio` does.
                let wasUsed = used.withLock { used in
                    defer { used = true }
                    return used
                }
                guard !wasUsed else { throw LinkUnusable("the link was used") }
                let peer = try await LinkPeer.open(
                    transport, name: "link", role: role, hello: .init(naming: .x11Targets, software: "test \(name)"),
                    timeout: timeout, handshakeTimeout: .seconds(10))
                if role == .responder { await peer.waitUntilSettled(.seconds(10)) }
                return peer.endpoint
            }
            let local = BridgeDriver.Side(name: name) { BridgeEndpoint(backend) }
            return BridgeDriver(
                sides: role == .initiator ? [local, link] : [link, local], selections: [.clipboard, .primary],
                includeSensitive: includeSensitive, timeout: timeout, markBytes: Data("bridge \(name)".utf8),
                // A side that fails here is given up (LinkUnusable): no backoff is waited on.
                sleep: { _ in await Task.yield() }, report: log.report)
        }
        let nearDriver = driver(near, name: "near", nearEnd, role: .initiator, log: nearLog)
        let farDriver = driver(far, name: "far", farEnd, role: .responder, log: farLog)
        let tasks = [Task { await nearDriver.run() }, Task { await farDriver.run() }]
        return Machines(near: near, far: far, nearLog: nearLog, farLog: farLog, tasks: tasks, transports: (nearEnd, farEnd))
    }

    static let marks = BridgePolicy.markers

    static func bytes(_ count: Int, seed: UInt64) -> Data {
        var random = SplitMix(seed: seed)
        var bytes = [UInt8]()
        bytes.reserveCapacity(count + 8)
        while bytes.count < count {
            let word = random.next()
            for shift in stride(from: 0, to: 64, by: 8) { bytes.append(UInt8(truncatingIfNeeded: word >> UInt64(shift))) }
        }
        return Data(bytes.prefix(count))
    }

    @Test func aCopyCrossesLazilyEveryFlavourByteExactBothWaysAndTheNewestWins() async throws {
        let machines = await Self.start(near: InMemoryBackend(pieceSize: 100_003))
        defer { machines.stop() }
        let big = Self.bytes(5 << 20 + 77, seed: 1)  // five windows and a bit: credit must come back
        let copy = Offer([
            .init("UTF8_STRING", "across machines ✓"), .init("text/html", "<b>across</b>"),
            .init("application/x-custom", big), .init("application/x-empty", Data()),
        ])
        machines.near.copy(copy, to: .clipboard, by: 7)
        #expect(await eventually { machines.far.relayedTypes(of: .clipboard) == copy.targets + Self.marks })
        #expect(machines.near.snapshots == 0)
        for flavour in copy.flavours {
            let pasted = try await machines.far.paste(.clipboard, flavour.target)
            #expect(pasted.bytes == flavour.bytes, "\(flavour.target)")
        }
        // The far machine's bridge carries its own mark, not the near one's.
        #expect(try await machines.far.paste(.clipboard, BridgePolicy.marker).bytes == Data("bridge far".utf8))
        // Nothing echoes: the near clipboard is still the app's.
        #expect(machines.near.currentOwner(of: .clipboard) == 7)

        // The other way, on PRIMARY, and then a newer copy on the far side wins CLIPBOARD too.
        let back = Offer([.init("UTF8_STRING", "from far"), .init("image/png", Self.bytes(300_000, seed: 2))])
        machines.far.copy(back, to: .primary, by: 9)
        machines.far.copy(back, to: .clipboard, by: 9)
        #expect(await eventually { machines.near.relayedTypes(of: .primary) == back.targets + Self.marks })
        #expect(await eventually { machines.near.relayedTypes(of: .clipboard) == back.targets + Self.marks })
        #expect(await eventually { machines.far.relayedTypes(of: .clipboard) == nil })
        #expect(try await machines.near.paste(.primary, "image/png").bytes == back.flavours[1].bytes)
        #expect(try await machines.near.paste(.clipboard, "UTF8_STRING").bytes == Data("from far".utf8))

        // The owner goes: withdrawn on the other machine.
        machines.far.ownerLeaves(.primary)
        #expect(await eventually { machines.near.relayedTypes(of: .primary) == nil })
    }

    @Test func fileListsAreWithheldAndAnOfferOfNothingElseWithdrawsTheOldContent() async throws {
        let machines = await Self.start()
        defer { machines.stop() }
        machines.near.copy(Offer([
            .init("x-special/gnome-copied-files", "copy\nfile:///home/me/a.txt"), .init("text/uri-list", "file:///home/me/a.txt\r\n"),
            .init("UTF8_STRING", "/home/me/a.txt"),
        ]), to: .clipboard, by: 3)
        #expect(await eventually { machines.far.relayedTypes(of: .clipboard) == ["UTF8_STRING"] + Self.marks })
        machines.near.copy(Offer([.init("text/uri-list", "file:///home/me/b.txt\r\n")]), to: .clipboard, by: 4)
        #expect(await eventually { machines.far.relayedTypes(of: .clipboard) == nil })
        #expect(await eventually { machines.farLog.contains { if case .notBridged(.clipboard, "link", _) = $0 { true } else { false } } })
    }

    @Test func atTheStartTheInitiatorsContentWinsAndFillsWhatTheFarSideLacks() async throws {
        let near = InMemoryBackend(), far = InMemoryBackend()
        near.copy(Offer([.init("UTF8_STRING", "near clipboard")]), to: .clipboard, by: 1)
        far.copy(Offer([.init("UTF8_STRING", "far clipboard")]), to: .clipboard, by: 2)
        far.copy(Offer([.init("UTF8_STRING", "far primary")]), to: .primary, by: 2)
        let machines = await Self.start(near: near, far: far)
        defer { machines.stop() }
        #expect(await eventually { far.relayedTypes(of: .clipboard) != nil && near.relayedTypes(of: .primary) != nil })
        #expect(try await far.paste(.clipboard, "UTF8_STRING").bytes == Data("near clipboard".utf8))
        #expect(try await near.paste(.primary, "UTF8_STRING").bytes == Data("far primary".utf8))
        // The near clipboard stays the app's: nothing swapped.
        #expect(near.currentOwner(of: .clipboard) == 1 && near.relayedTypes(of: .clipboard) == nil)
    }

    @Test func sensitiveContentCrossesOnlyWhenBothSidesAllowIt() async throws {
        let secret = Offer([.init("UTF8_STRING", "hunter2"), .init(SelectionTarget.passwordManagerHint, "secret")])
        let closed = await Self.start()
        closed.near.copy(secret, to: .clipboard, by: 1)
        #expect(await eventually { closed.nearLog.contains { if case .notBridged(.clipboard, "near", _) = $0 { true } else { false } } })
        #expect(closed.far.relayedTypes(of: .clipboard) == nil)
        closed.stop()
        let open = await Self.start(includeSensitive: true)
        defer { open.stop() }
        open.near.copy(secret, to: .clipboard, by: 1)
        #expect(await eventually { open.far.relayedTypes(of: .clipboard) == ["UTF8_STRING"] + Self.marks + [.passwordManagerHint] })
        #expect(try await open.far.paste(.clipboard, "UTF8_STRING").bytes == Data("hunter2".utf8))
    }

    @Test func manyTransfersShareTheLinkAndASmallOneIsNotHeldUpByALargeOne() async throws {
        // The owner's pieces as an X owner's INCR chunks come (the default 4-byte pieces would be 12 million frames).
        let machines = await Self.start(near: InMemoryBackend(pieceSize: 256 << 10))
        defer { machines.stop() }
        let large = Self.bytes(48 << 20, seed: 3)
        let copy = Offer([.init("UTF8_STRING", "small"), .init("application/x-large", large)]
            + (0..<20).map { .init(SelectionTarget(rawValue: "application/x-medium-\($0)"), Self.bytes(200_000 + $0 * 1_001, seed: UInt64(10 + $0))) })
        machines.near.copy(copy, to: .clipboard, by: 5)
        #expect(await eventually { machines.far.relayedTypes(of: .clipboard) == copy.targets + Self.marks })
        let order = Log()
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                let pasted = try await machines.far.paste(.clipboard, "application/x-large")
                #expect(pasted.bytes == large)
                order.report(.connected(display: "large"))
            }
            // Once the large one is under way (a few of its 192 pieces read from the owner), the small one and twenty
            // others start.
            #expect(await eventually { machines.near.piecesRead >= 3 })
            group.addTask {
                let pasted = try await machines.far.paste(.clipboard, "UTF8_STRING")
                #expect(pasted.bytes == Data("small".utf8))
                order.report(.connected(display: "small"))
            }
            for flavour in copy.flavours.dropFirst(2) {
                group.addTask {
                    let pasted = try await machines.far.paste(.clipboard, flavour.target)
                    #expect(pasted.bytes == flavour.bytes)
                }
            }
            try await group.waitForAll()
        }
        #expect(order.all == [.connected(display: "small"), .connected(display: "large")])
    }

    @Test func aLinkBrokenMidTransferFailsThePasteAndTheBridgeGoesOn() async throws {
        let machines = await Self.start(near: InMemoryBackend(pieceSize: 64 << 10))
        defer { machines.stop() }
        let large = Self.bytes(64 << 20, seed: 4)
        machines.near.copy(Offer([.init("application/x-large", large)]), to: .clipboard, by: 5)
        #expect(await eventually { machines.far.relayedTypes(of: .clipboard) != nil })
        let paste = Task { try await machines.far.paste(.clipboard, "application/x-large") }
        // Under way: some of its 1,024 pieces read from the owner, then the link breaks.
        #expect(await eventually { machines.near.piecesRead >= 8 })
        machines.transports.0.close()
        let result = await paste.result
        switch result {
        case .success(let pasted): Issue.record("a broken link gave \(pasted.bytes.count) of \(large.count) bytes as whole")
        case .failure: break
        }
        #expect(await eventually { machines.farLog.contains { if case .disconnected("link", _) = $0 { true } else { false } } })
        #expect(await eventually { machines.far.relayedTypes(of: .clipboard) == nil })
    }

    // MARK: Hostile peers, raw frames

    /// Opens one end of a link for a bridge of `backend` (as the far machine), with a raw peer on the other end.
    static func rawPeer(_ backend: InMemoryBackend, log: Log) -> (raw: Int32, bridge: Task<Void, Never>) {
        let (linkEnd, rawEnd) = socketPair()
        let link = BridgeDriver.Side(name: "link") {
            try await LinkPeer.open(
                linkEnd, name: "link", role: .initiator, hello: .init(naming: .x11Targets, software: "test"), timeout: .seconds(2),
                handshakeTimeout: .seconds(5)
            ).endpoint
        }
        let driver = BridgeDriver(
            sides: [.init(name: "near") { BridgeEndpoint(backend) }, link], selections: [.clipboard], includeSensitive: false,
            timeout: .seconds(2), maximumRetryDelay: .seconds(60), report: log.report)
        return (rawEnd.input, Task { await driver.run() })
    }

    static func write(_ fd: Int32, _ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if written < 0 { if errno == EAGAIN || errno == EINTR { continue } else { return } }
            offset += written
        }
    }

    /// Reads frames from a raw peer's end until `predicate` matches one.
    static func read(_ fd: Int32, _ decoder: inout LinkDecoder, until predicate: (LinkMessage) -> Bool) throws -> LinkMessage? {
        var buffer = [UInt8](repeating: 0, count: 65536)
        let deadline = ContinuousClock.now + .seconds(10)
        while ContinuousClock.now < deadline {
            while let message = try decoder.next() { if predicate(message) { return message } }
            var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&entry, 1, 100) > 0 else { continue }
            let count = Glibc.read(fd, &buffer, buffer.count)
            if count <= 0 { return nil }
            decoder.append(buffer[0..<count])
        }
        return nil
    }

    @Test func aPeerSendingBeyondItsCreditIsCutOffAndTheTransferFails() async throws {
        let (linkEnd, rawEnd) = Self.socketPair()
        let raw = rawEnd.input
        Self.write(raw, LinkLimits.preamble + LinkMessage.hello(.init(naming: .x11Targets, software: "hostile")).encoded())
        let peer = try await LinkPeer.open(
            linkEnd, name: "link", role: .initiator, hello: .init(naming: .x11Targets, software: "test"), timeout: .seconds(5),
            handshakeTimeout: .seconds(5))
        defer { peer.close() }
        Self.write(raw, LinkMessage.announce(.init(selection: .clipboard, generation: 1, seen: 0, isSensitive: false, types: ["UTF8_STRING"])).encoded())
        let endpoint = peer.endpoint
        #expect(await eventually { await endpoint.isOwned(.clipboard) })
        // A requestor that takes nothing: no credit is given back, so the window is all the peer may send.
        let taken = Atomic<Int>(0)
        let read = Task {
            try await endpoint.liveOffer(.clipboard, nil).read("UTF8_STRING") { chunk in
                // The first piece is held (no credit given back) until the peer, sending on past the window, is cut off.
                if taken.add(chunk.bytes.count, ordering: .relaxed).oldValue == 0 { _ = await eventually { peer.isClosed } }
            }
        }
        var decoder = LinkDecoder()
        guard case .fetch(let request, _, _, _, let credit) = try Self.read(raw, &decoder, until: { $0.kind == .fetch }) else {
            Issue.record("no fetch came")
            return
        }
        let piece = FlavourChunk(Data(repeating: 0x41, count: LinkLimits.maximumDataBytes), type: "UTF8_STRING")
        for _ in 0...(Int(credit) / LinkLimits.maximumDataBytes) { Self.write(raw, LinkMessage.data(request: request, piece).encoded()) }
        let result = await read.result
        guard case .failure(let error) = result else { Issue.record("the transfer past its credit succeeded"); return }
        #expect(reportedMessage(of: error).contains("credit"), "\(error)")
        #expect(taken.load(ordering: .relaxed) <= Int(credit))
    }

    @Test func aPeerOfAnotherVersionIsGivenUpWithBothVersionsNamed() async throws {
        let backend = InMemoryBackend(), log = Log()
        let (raw, bridge) = Self.rawPeer(backend, log: log)
        defer { bridge.cancel() }
        Self.write(raw, LinkLimits.preamble + LinkMessage.hello(.init(version: 99, naming: .x11Targets, software: "clipbridge 9.9")).encoded())
        #expect(await eventually {
            log.contains {
                if case .gaveUp("link", let reason) = $0 { reason.contains("version 99 (clipbridge 9.9)") && reason.contains("version \(LinkLimits.version) (test)") }
                else { false }
            }
        })
    }

    @Test func aPeerThatIsNotALinkIsGivenUpWithWhatItWrote() async throws {
        let backend = InMemoryBackend(), log = Log()
        let (raw, bridge) = Self.rawPeer(backend, log: log)
        defer { bridge.cancel() }
        Self.write(raw, Array("Last login: Sun Nov 29 from 10.0.0.1\n".utf8))
        #expect(await eventually {
            log.contains { if case .gaveUp("link", let reason) = $0 { reason.contains("Last login: Sun Nov 29") } else { false } }
        })
    }
}
