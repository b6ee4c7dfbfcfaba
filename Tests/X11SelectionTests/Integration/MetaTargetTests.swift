import ClipBridgeTestSupport
import Foundation
import Testing
@testable import X11Selection

@Suite(.xvfb, .timeLimit(.minutes(2)))
struct MetaTargetTests {
    func uint32s(_ data: Data) -> [UInt32] {
        data.withUnsafeBytes { raw in
            (0..<(raw.count / 4)).map { UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: $0 * 4, as: UInt32.self)) }
        }
    }

    @Test func multipleReadsSeveralTargetsInOneRequest() async throws {
        let owner = try await openConnection { $0.incrementalThreshold = 1000 }
        let reader = try await openConnection()
        let selection = uniqueSelection()
        let big = payload(50_000, seed: 3)
        let lease = try await owner.claim(selection, offering: SelectionOffer([
            .init(target: "text/html", source: .bytes(Data("<p>x</p>".utf8))),
            .init(target: "application/x-big", source: .provider { big }),
        ]))
        let results = try await reader.read(
            selection, targets: ["text/html", "image/png", "application/x-big", .timestamp, .multiple])
        #expect(try results["text/html"]?.get().bytes == Data("<p>x</p>".utf8))
        #expect(try results["application/x-big"]?.get().bytes == big)  // INCR inside MULTIPLE
        #expect(try results[.timestamp]?.get().bytes.count == 4)
        #expect(throws: SelectionError.self) { try results["image/png"]?.get() }
        // ICCCM forbids MULTIPLE inside MULTIPLE: that pair is written back as None.
        #expect(throws: SelectionError.self) { try results[.multiple]?.get() }
        if case .failure(let error)? = results["image/png"] { #expect(error.code == .targetUnavailable) }
        #expect(await reader.multipleFallbacks == 0)
        var iterator = lease.events.makeAsyncIterator()
        var served: Set<SelectionTarget> = []
        for _ in 0..<2 {
            if case .served(let target, _, _)? = await iterator.next() { served.insert(target) }
        }
        #expect(served == ["text/html", "application/x-big"])
        await owner.shutdown()
        await reader.shutdown()
    }

    /// An INCR pair's idle clock starts with the MULTIPLE notify, so a slow provider for another pair
    /// does not get the INCR pair dropped before the requestor could even start it.
    @Test func slowPairDoesNotTimeOutAnIncrementalPair() async throws {
        let owner = try await openConnection {
            $0.incrementalThreshold = 1000
            $0.incrementalIdleTimeout = .milliseconds(400)
        }
        let reader = try await openConnection()
        let selection = uniqueSelection()
        let big = payload(200_000, seed: 8)
        _ = try await owner.claim(selection, offering: SelectionOffer([
            .init(target: "application/x-big", source: .bytes(big)),
            .init(target: "application/x-slow", source: .provider {
                try await Task.sleep(for: .milliseconds(900))
                return Data("slow".utf8)
            }),
        ]))
        let results = try await reader.read(selection, targets: ["application/x-big", "application/x-slow"])
        #expect(try results["application/x-big"]?.get().bytes == big)
        #expect(try results["application/x-slow"]?.get().bytes == Data("slow".utf8))
        await owner.shutdown()
        await reader.shutdown()
    }

    @Test func targetsListsATargetOnceEvenWhenTheOfferWasEditedToRepeatIt() async throws {
        let owner = try await openConnection()
        let reader = try await openConnection()
        let selection = uniqueSelection()
        var offer = SelectionOffer([.init(target: "text/html", source: .bytes(Data("first".utf8)))])
        // `representations` is a public var: edits bypass the init's first-wins rule.
        offer.representations.append(.init(target: .utf8String, source: .bytes(Data("text".utf8))))
        offer.representations.append(.init(target: "text/html", source: .bytes(Data("second".utf8))))
        offer.representations.append(.init(target: .targets, source: .bytes(Data("not content".utf8))))
        _ = try await owner.claim(selection, offering: offer)
        let targets = try await reader.targets(of: selection)
        #expect(targets == ["text/html", "UTF8_STRING", "TARGETS", "MULTIPLE", "TIMESTAMP", "SAVE_TARGETS",
                            "DELETE", "TARGET_SIZES"])
        #expect(try await reader.read(selection, target: "text/html").bytes == Data("first".utf8))
        let sizes = try await reader.read(selection, target: .targetSizes)
        #expect(sizes.bytes.count == 2 * 2 * 4)  // two (atom, size) pairs of 32-bit items
        await owner.shutdown()
        await reader.shutdown()
    }

    @Test func timestampIsTheClaimTimeAndTargetSizesListEverything() async throws {
        let owner = try await openConnection()
        let reader = try await openConnection()
        let selection = uniqueSelection()
        let lease = try await owner.claim(selection, offering: SelectionOffer([
            .init(target: "text/html", source: .bytes(Data("12345".utf8))),
            .init(target: "application/x-lazy", source: .provider { Data("lazy".utf8) }),
        ]))
        let timestamp = try await reader.read(selection, target: .timestamp)
        #expect(timestamp.type == .integer)
        #expect(timestamp.format == 32)
        #expect(uint32s(timestamp.bytes) == [UInt32(lease.timestamp.rawValue)])

        let sizes = try await reader.read(selection, target: .targetSizes)
        #expect(sizes.type == .integer)
        let items = uint32s(sizes.bytes)
        #expect(items.count == 4)
        #expect(items[1] == 5)
        #expect(items[3] == UInt32.max)  // not produced yet: unknown (-1)
        _ = try await reader.read(selection, target: "application/x-lazy")
        let after = uint32s(try await reader.read(selection, target: .targetSizes).bytes)
        #expect(after[3] == 4)
        await owner.shutdown()
        await reader.shutdown()
    }

    @Test func deleteGivesUpTheSelectionAndSaveTargetsIsANoOp() async throws {
        let owner = try await openConnection()
        let reader = try await openConnection()
        let selection = uniqueSelection()
        let lease = try await owner.claim(selection, offering: SelectionOffer([
            .init(target: .utf8String, source: .bytes(Data("bye".utf8))),
        ]))
        let saved = try await reader.read(selection, target: .saveTargets)
        #expect(saved.type == .null)
        #expect(saved.bytes.isEmpty)
        #expect(try await reader.owner(of: selection) != nil)
        let deleted = try await reader.read(selection, target: .delete)
        #expect(deleted.type == .null)
        var iterator = lease.events.makeAsyncIterator()
        guard case .lost = await iterator.next() else {
            Issue.record("DELETE must end the ownership")
            return
        }
        #expect(try await reader.owner(of: selection) == nil)
        await owner.shutdown()
        await reader.shutdown()
    }

    @Test func sensitiveOffersCarryTheHintAndNoSaveTargets() async throws {
        let owner = try await openConnection()
        let reader = try await openConnection()
        let selection = uniqueSelection()
        _ = try await owner.claim(selection, offering: SelectionOffer(
            [.init(target: .utf8String, source: .bytes(Data("hunter2".utf8)))], isSensitive: true))
        let targets = try await reader.targets(of: selection)
        #expect(targets.contains("x-kde-passwordManagerHint"))
        #expect(!targets.contains(.saveTargets))
        #expect(try await reader.read(selection, target: "x-kde-passwordManagerHint").bytes == Data("secret".utf8))
        await owner.shutdown()
        await reader.shutdown()
    }
}

/// MULTIPLE and TIMESTAMP against real peers; they share CLIPBOARD, so one at a time.
@Suite(.xvfb, .serialized, .timeLimit(.minutes(2)))
struct PeerMetaTargetTests {
    /// GTK 4 and Qt 5 implement MULTIPLE; read several targets from each in one request.
    @Test(arguments: ToolkitPeer.Toolkit.allCases)
    func multipleAgainstToolkits(toolkit: ToolkitPeer.Toolkit) async throws {
        let display = try currentDisplay()
        let owner = try await ToolkitPeer(toolkit, display: display).own(
            text: "toolkit text", representations: [("text/html", Data("<u>t</u>".utf8))])
        let reader = try await openConnection()
        let results = try await reader.read(.clipboard, targets: [.utf8String, "text/html", .timestamp])
        #expect(try results[.utf8String]?.get().bytes == Data("toolkit text".utf8))
        #expect(try results["text/html"]?.get().bytes == Data("<u>t</u>".utf8))
        #expect(try results[.timestamp]?.get().format == 32)
        #expect(await reader.multipleFallbacks == 0)
        await owner.stop()
        await reader.shutdown()
    }

    /// xsel 1.2.0 advertises MULTIPLE, then dies on a well-formed MULTIPLE request (BadAtom; reproduced
    /// with a C probe). The engine must not hang: the read ends as soon as the owner is seen gone (an owner
    /// probe ReadStateMachine.probeInterval after the request), with "owner gone", not after its deadline.
    @Test func multipleAgainstXselEndsWithinTheDeadline() async throws {
        let display = try currentDisplay()
        let peer = try startPeer(["xsel", "-b", "-n", "-i"], display: display, stdin: Data("xsel text".utf8))
        let reader = try await openConnection()
        #expect(try await eventually { try await reader.owner(of: .clipboard) != nil })
        #expect(try await reader.targets(of: .clipboard).contains(.multiple))
        let started = ContinuousClock.now
        do {
            let results = try await reader.read(.clipboard, targets: [.utf8String, .string], timeout: .milliseconds(500))
            // A fixed xsel answers (or survives): then the data must be right.
            #expect(try results[.utf8String]?.get().bytes == Data("xsel text".utf8))
        } catch let error as SelectionError {
            #expect(error.code == .ownerGone || error.code == .noOwner, "\(error)")
        }
        // The deadline is 500 ms; the owner's death is seen within about 100 ms (more on a loaded machine).
        #expect(started.duration(to: .now) < .milliseconds(450))
        await peer.stop()
        await reader.shutdown()
    }

    /// xclip does not implement MULTIPLE (it answers any target with its payload): the engine notices the
    /// reply is not an ATOM_PAIR list and falls back to one request per target.
    @Test func multipleFallsBackAgainstXclip() async throws {
        let display = try currentDisplay()
        let peer = try startPeer(["xclip", "-quiet", "-selection", "clipboard", "-i", "-t", "text/html"],
                                 display: display, stdin: Data("<b>x</b>".utf8))
        try await peer.waitUntilOwning("CLIPBOARD", display: display)
        let reader = try await openConnection()
        let results = try await reader.read(.clipboard, targets: ["text/html", .targets])
        #expect(try results["text/html"]?.get().bytes == Data("<b>x</b>".utf8))
        #expect(try results[.targets]?.get().type == .atom)
        #expect(await reader.multipleFallbacks == 1)
        await peer.stop()
        await reader.shutdown()
    }
}
