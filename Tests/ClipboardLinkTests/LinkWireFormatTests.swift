import ClipBridgeTestSupport
import FoundationEssentials
import SelectionCore
import Testing
@testable import ClipboardLink

/// The link's wire format (`LinkMessage`, `LinkDecoder`): every message kind survives encoding and decoding however
/// the bytes are split, and every way a peer can break the format — sizes that lie, names that are not text, frames
/// on the wrong stream, a peer that is not a link at all — is refused with a reason, before memory is given to it.
@Suite struct LinkWireFormatTests {
    static let samples: [LinkMessage] = [
        .hello(.init(naming: .x11Targets, software: "clipbridge 0.1.0")),
        .hello(.init(version: 7, naming: .mimeTypes, software: "")),
        .announce(.init(selection: .clipboard, generation: 1, seen: 0, isSensitive: false, types: ["UTF8_STRING", "text/html"])),
        .announce(.init(selection: "SECONDARY", generation: .max, seen: 41, isSensitive: true, types: [])),
        .announce(.init(selection: .primary, generation: 9, seen: 3, isSensitive: false,
                        types: (0..<3000).map { SelectionTarget(rawValue: "application/x-type-\($0)-\(String(repeating: "é", count: $0 % 17))") })),
        .withdraw(selection: .primary, generation: 12),
        .settled,
        .fetch(request: 1, selection: .clipboard, generation: 3, type: "image/png", credit: LinkLimits.fetchWindow),
        .data(request: 7, FlavourChunk(Data((0..<LinkLimits.maximumDataBytes).map { UInt8($0 % 253) }), type: "image/png")),
        .data(request: .max, FlavourChunk(Data(), type: "UTF8_STRING")),
        .data(request: 2, FlavourChunk(Data([1, 0, 0, 0, 2, 0, 0, 0]), type: "INTEGER", format: 32)),
        .end(request: 7, byteCount: 1 << 40),
        .fail(request: 3, reason: "CLIPBOARD on ssh:box changed owner; this offer is stale — «ünïcode»"),
        .credit(request: 9, bytes: 262_144),
        .cancel(request: 4),
        .ping(1),
        .pong(.max),
    ]

    @Test func everyMessageRoundTripsHoweverTheBytesAreSplit() throws {
        let stream = LinkLimits.preamble + Self.samples.flatMap { $0.encoded() }
        var random = SplitMix(seed: 41)
        for round in 0..<40 {
            var decoder = LinkDecoder()
            var decoded: [LinkMessage] = []
            var offset = 0
            while offset < stream.count {
                // Round 0 byte by byte; then pieces of random sizes, up to whole frames at once.
                let size = round == 0 ? 1 : Int.random(in: 1...(1 << Int.random(in: 0...18, using: &random)), using: &random)
                decoder.append(stream[offset..<min(offset + size, stream.count)])
                offset += size
                while let message = try decoder.next() { decoded.append(message) }
            }
            #expect(decoded == Self.samples)
        }
    }

    /// The bytes of a frame of `kind` on `stream` with `payload`, its header's length as given or true.
    static func frame(_ kind: UInt8, stream: UInt32 = 0, length: UInt32? = nil, _ payload: [UInt8]) -> [UInt8] {
        var writer = LinkWriter()
        writer.uint8(kind)
        writer.uint32(stream)
        writer.uint32(length ?? UInt32(payload.count))
        return writer.bytes + payload
    }

    static func fields(_ build: (inout LinkWriter) -> Void) -> [UInt8] {
        var writer = LinkWriter()
        build(&writer)
        return writer.bytes
    }

    static func decode(_ bytes: [UInt8]) -> Result<[LinkMessage], LinkProtocolError> {
        var decoder = LinkDecoder()
        decoder.append(LinkLimits.preamble + bytes)
        var messages: [LinkMessage] = []
        do {
            while let message = try decoder.next() { messages.append(message) }
            return .success(messages)
        } catch {
            return .failure(error)
        }
    }

    @Test(arguments: [
        // A length beyond the limit is refused from the header alone: nothing is kept for it.
        ("a payload of 4 GiB", frame(2, length: .max, [])),
        ("a payload one byte over the limit", frame(6, stream: 1, length: UInt32(LinkLimits.maximumPayload + 1), [])),
        ("an unknown kind", frame(99, [])),
        ("a kind of 0", frame(0, [])),
        ("a session message on a transfer's stream", frame(1, stream: 5, fields { $0.uint16(1); $0.uint8(0) })),
        ("a transfer's message on stream 0", frame(10, stream: 0, [])),
        ("a hello with an unknown naming", frame(1, fields { $0.uint16(1); $0.uint8(7) })),
        ("an announcement claiming a billion types", frame(2, fields {
            $0.shortName("CLIPBOARD"); $0.uint64(1); $0.uint64(0); $0.uint8(0); $0.uint32(1_000_000_000); $0.name("text/plain")
        })),
        ("an announcement with unknown flags", frame(2, fields {
            $0.shortName("CLIPBOARD"); $0.uint64(1); $0.uint64(0); $0.uint8(6); $0.uint32(0)
        })),
        ("an announcement cut short", frame(2, fields { $0.shortName("CLIPBOARD"); $0.uint64(1) })),
        ("an empty selection name", frame(3, [0] + fields { $0.uint64(1) })),
        ("a type name of 0 bytes", frame(5, stream: 1, fields { $0.shortName("CLIPBOARD"); $0.uint64(1); $0.uint32(9); $0.uint16(0) })),
        ("a type name over the limit", frame(5, stream: 1, fields {
            $0.shortName("CLIPBOARD"); $0.uint64(1); $0.uint32(9); $0.uint16(UInt16(LinkLimits.maximumNameBytes + 1))
            $0.bytes += [UInt8](repeating: 0x61, count: LinkLimits.maximumNameBytes + 1)
        })),
        ("a type name that is not UTF-8", frame(5, stream: 1, fields {
            $0.shortName("CLIPBOARD"); $0.uint64(1); $0.uint32(9); $0.uint16(2); $0.bytes += [0xC3, 0x28]
        })),
        ("a type name with a NUL", frame(5, stream: 1, fields {
            $0.shortName("CLIPBOARD"); $0.uint64(1); $0.uint32(9); $0.uint16(3); $0.bytes += [0x61, 0, 0x62]
        })),
        ("a data piece over the limit", frame(6, stream: 1, fields {
            $0.name("image/png"); $0.uint8(8); $0.bytes += [UInt8](repeating: 1, count: LinkLimits.maximumDataBytes + 1)
        })),
        ("a data piece of format 12", frame(6, stream: 1, fields { $0.name("X"); $0.uint8(12) })),
        ("32-bit data that is not whole items", frame(6, stream: 1, fields { $0.name("INTEGER"); $0.uint8(32); $0.bytes += [1, 2, 3] })),
        ("a credit of 0", frame(9, stream: 1, fields { $0.uint32(0) })),
        ("bytes after the fields", frame(11, fields { $0.uint64(1); $0.uint8(0) })),
        ("a reason over the limit", frame(8, stream: 1, [UInt8](repeating: 0x61, count: LinkLimits.maximumTextBytes + 1))),
    ])
    func brokenFramesAreRefused(_ what: String, _ bytes: [UInt8]) {
        guard case .failure(.malformed(let reason)) = Self.decode(bytes) else {
            Issue.record("\(what) was not refused as malformed: \(Self.decode(bytes))")
            return
        }
        #expect(!reason.isEmpty, "\(what)")
    }

    @Test func aHeaderAloneNamingTooLargeAPayloadIsRefusedAtOnce() {
        // Only the 9 header bytes: the decoder must not wait for (or reserve) the 16 MiB it names.
        var decoder = LinkDecoder()
        decoder.append(LinkLimits.preamble + Self.frame(6, stream: 1, length: 16 << 20, []))
        #expect(throws: LinkProtocolError.self) { _ = try decoder.next() }
    }

    @Test func aPeerThatIsNotALinkIsToldApartByItsFirstLine() {
        for (wrote, shown) in [
            ("bash: line 1: clipbridge: command not found\nmore", "bash: line 1: clipbridge: command not found"),
            ("Welcome to devbox!\r\n", "Welcome to devbox!"),
            ("clipbridge-linx\n", "clipbridge-linx"),
        ] {
            var decoder = LinkDecoder()
            decoder.append(Array(wrote.utf8))
            #expect(throws: LinkProtocolError.notALink(wrote: shown)) { _ = try decoder.next() }
        }
        // A preamble not yet whole is waited for.
        var decoder = LinkDecoder()
        decoder.append(LinkLimits.preamble.prefix(5))
        #expect((try? decoder.next()) == .some(nil))
    }

    @Test func textIsCutOnACharacterBoundaryAndNamesAtTheirLimitPass() throws {
        let long = String(repeating: "ü", count: LinkLimits.maximumTextBytes)  // twice the limit in bytes
        guard case .success(let decoded) = Self.decode(LinkMessage.fail(request: 1, reason: long).encoded()),
            case .fail(_, let reason) = decoded.first
        else { Issue.record("the cut reason did not decode"); return }
        #expect(reason.utf8.count == LinkLimits.maximumTextBytes && reason.allSatisfy { $0 == "ü" })
        let name = SelectionTarget(rawValue: String(repeating: "n", count: LinkLimits.maximumNameBytes))
        let fetch = LinkMessage.fetch(request: 2, selection: .clipboard, generation: 1, type: name, credit: 1)
        #expect(try Self.decode(fetch.encoded()).get() == [fetch])
    }
}
