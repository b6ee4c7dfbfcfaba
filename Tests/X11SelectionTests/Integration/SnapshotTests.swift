import ClipBridgeTestSupport
import Foundation
import Testing
@testable import X11Selection

/// `X11Connection.snapshot`: every flavour of an offer, kept as the owner wrote it and served again after the
/// owner is gone — what a clipboard manager does.
@Suite(.xvfb, .timeLimit(.minutes(2)))
struct SnapshotTests {
    /// A private spool directory, removed by the caller.
    func spoolDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("clipbridge-snapshot-\(UUID())")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: false,
                                                attributes: [.posixPermissions: 0o700])
        return url
    }

    /// Target by target, and in one MULTIPLE (a handover's way), where the 3 MiB flavour passes the batch's
    /// per-reply bound and is read again alone, streamed to a file.
    @Test(arguments: [false, true])
    func keepsEveryFlavourExactlyAndServesItAgainAfterTheOwnerIsGone(inOneRequest: Bool) async throws {
        let display = try currentDisplay()
        // xclip reads only the standard selections; no other test of this target uses PRIMARY.
        let selection: SelectionName = inOneRequest ? uniqueSelection() : .primary
        let big = payload(3 << 20, seed: 11)  // INCR (threshold below), and spooled to a file
        let color = Data([0xFF, 0xFF, 0x80, 0x80, 0x00, 0x00, 0xFF, 0xFF])
        let owner = try await openConnection { $0.incrementalThreshold = 64 * 1024 }
        _ = try await owner.claim(selection, offering: SelectionOffer([
            .init(target: "image/png", source: .bytes(big)),
            .init(target: "text/html", source: .bytes(Data("<b>rich</b>".utf8))),
            .init(target: "application/x-color", format: 16, source: .bytes(color)),
            .init(target: "application/x-private", type: "APP_TYPE", source: .bytes(Data([0, 1, 2, 0]))),
        ] + SelectionOffer.textRepresentations("plain é")))
        let offered = try await owner.targets(of: selection)

        let directory = try spoolDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var limits = SnapshotLimits()
        limits.inMemoryBytes = 1 << 20
        limits.spoolDirectory = directory
        let manager = try await openConnection()
        let snapshot = try await manager.snapshot(selection, limits: limits, inOneRequest: inOneRequest)
        #expect(await manager.multipleRequests == (inOneRequest ? 1 : 0))
        #expect(await manager.multipleFallbacks == 0)
        #expect(!snapshot.isSensitive)
        #expect(snapshot.omissions.isEmpty, "\(snapshot.omissions)")
        #expect(snapshot.flavours.map(\.target) == offered.filter { !$0.isMetaTarget })
        let png = try #require(snapshot.flavours.first { $0.target == "image/png" })
        guard case .file(let file) = png.content else {
            Issue.record("a 3 MiB flavour should be spooled, not kept in memory")
            return
        }
        #expect(try Data(contentsOf: file) == big)
        let mode = try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        let private_ = try #require(snapshot.flavours.first { $0.target == "application/x-private" })
        #expect(private_.type == "APP_TYPE" && private_.content == .bytes(Data([0, 1, 2, 0])))
        #expect(snapshot.flavours.first { $0.target == "application/x-color" }?.format == 16)

        // The owner goes; the manager serves what it kept.
        await owner.shutdown()
        #expect(await eventually { (try? await manager.owner(of: selection)) == nil })
        _ = try await manager.claim(selection, offering: snapshot.offer)
        let reader = try await openConnection()
        #expect(try await reader.targets(of: selection).filter { !$0.isMetaTarget } == offered.filter { !$0.isMetaTarget })
        for flavour in snapshot.flavours {
            let read = try await reader.read(selection, target: flavour.target)
            #expect(read.type == flavour.type && read.format == flavour.format, "\(flavour.target)")
            let expected = try flavour.content.wholeBytes()
            #expect(read.bytes == expected, "\(flavour.target)")
        }
        if selection == .primary {
            // xclip, a C requestor, reads the big one back byte-exact through our INCR.
            let pasted = try await runPeer(["xclip", "-selection", selection.rawValue, "-o", "-t", "image/png"],
                                           display: display, timeout: .seconds(20))
            #expect(pasted.stdout == big)
        }
        await reader.shutdown()
        await manager.shutdown()
        snapshot.removeFiles()
        #expect(!FileManager.default.fileExists(atPath: file.path))
    }

    @Test func keepsNothingOfASensitiveCopy() async throws {
        let selection = uniqueSelection()
        let owner = try await openConnection()
        _ = try await owner.claim(selection, offering: SelectionOffer(
            SelectionOffer.textRepresentations("hunter2"), isSensitive: true))
        let manager = try await openConnection()
        let directory = try spoolDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var limits = SnapshotLimits()
        limits.spoolDirectory = directory
        let snapshot = try await manager.snapshot(selection, limits: limits)
        #expect(snapshot.isSensitive)
        #expect(snapshot.flavours.isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
        await owner.shutdown()
        await manager.shutdown()
    }

    @Test(arguments: [false, true])
    func omitsWhatIsOverItsLimitOrRefusedAndKeepsTheRest(inOneRequest: Bool) async throws {
        let selection = uniqueSelection()
        let owner = try await openConnection { $0.incrementalThreshold = 64 * 1024 }
        _ = try await owner.claim(selection, offering: SelectionOffer([
            .init(target: "application/x-huge", source: .bytes(payload(8 << 20, seed: 5))),
            .init(target: "application/x-broken", source: .provider { throw CancellationError() }),
            .init(target: "application/x-small", source: .bytes(Data("small".utf8))),
            .init(target: "application/x-second", source: .bytes(payload(600_000, seed: 6))),
        ]))
        let directory = try spoolDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var limits = SnapshotLimits()
        limits.maximumFlavourBytes = 1 << 20
        limits.maximumTotalBytes = 1 << 20
        limits.inMemoryBytes = 256 * 1024
        limits.spoolDirectory = directory
        let manager = try await openConnection()
        let started = ContinuousClock.now
        let snapshot = try await manager.snapshot(selection, limits: limits, timeout: .seconds(2), inOneRequest: inOneRequest)
        #expect(await manager.multipleRequests == (inOneRequest ? 1 : 0))
        #expect(ContinuousClock.now - started < .seconds(5))
        #expect(snapshot.flavours.map(\.target) == ["application/x-small", "application/x-second"])
        #expect(Set(snapshot.omissions.map(\.target)) == ["application/x-huge", "application/x-broken"])
        #expect(snapshot.omissions.first { $0.target == "application/x-huge" }?.reason.contains("limit") == true)
        // The huge flavour's partial spool file is gone; only the second flavour's file remains.
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).count == 1)
        snapshot.removeFiles()
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
        await owner.shutdown()
        await manager.shutdown()
    }

    /// The total bound holds across the replies of one MULTIPLE as it does target by target: what passes it
    /// is omitted, never kept, and the result is the same either way.
    @Test(arguments: [false, true])
    func theTotalLimitHoldsAcrossOneRequest(inOneRequest: Bool) async throws {
        let selection = uniqueSelection()
        let owner = try await openConnection { $0.incrementalThreshold = 64 * 1024 }
        let parts = (0..<6).map { payload(200_000, seed: UInt32(20 + $0)) }
        _ = try await owner.claim(selection, offering: SelectionOffer(parts.enumerated().map { index, part in
            SelectionOffer.Representation(target: SelectionTarget(rawValue: "application/x-part\(index)"), source: .bytes(part))
        }))
        var limits = SnapshotLimits()
        limits.inMemoryBytes = 256 * 1024
        limits.maximumTotalBytes = 700_000
        let directory = try spoolDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        limits.spoolDirectory = directory
        let manager = try await openConnection()
        let snapshot = try await manager.snapshot(selection, limits: limits, timeout: .seconds(2), inOneRequest: inOneRequest)
        #expect(await manager.multipleRequests == (inOneRequest ? 1 : 0))
        #expect(snapshot.flavours.map(\.target.rawValue) == ["application/x-part0", "application/x-part1", "application/x-part2"])
        #expect(snapshot.flavours.map(\.content) == parts.prefix(3).map { SelectionSnapshot.Content.bytes($0) })
        #expect(snapshot.omissions.map(\.target.rawValue) == ["application/x-part3", "application/x-part4", "application/x-part5"])
        #expect(snapshot.byteCount <= limits.maximumTotalBytes)
        await owner.shutdown()
        await manager.shutdown()
    }

    @Test func anOwnerThatDiesMidSnapshotLeavesNoFilesAndSaysSo() async throws {
        let display = try currentDisplay()
        let selection = uniqueSelection()
        // Dies after two 64 KiB INCR chunks of 8 MiB announced: the first chunks are already spooled.
        let peer = try await HostilePeer.owner(
            ["die-mid-incr", "--selection", selection.rawValue, "--size", "\(8 << 20)"], display: display)
        let directory = try spoolDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var limits = SnapshotLimits()
        limits.inMemoryBytes = 64 * 1024
        limits.spoolDirectory = directory
        let manager = try await openConnection()
        let started = ContinuousClock.now
        await #expect(throws: SelectionError(.ownerGone, "")) {
            _ = try await manager.snapshot(selection, limits: limits, timeout: .seconds(5))
        }
        // At once, not after the 5 s timeout (2.7 s seen under the suite's parallel load on a slow 2-CPU machine).
        #expect(ContinuousClock.now - started < .seconds(4))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
        await peer.stop()
        await manager.shutdown()
    }
}
