import FoundationEssentials
import SelectionCore

/// One message of a clipboard link — the stream two `clipbridge` processes exchange, over ssh or any pair of pipes.
/// Its wire form is one frame: kind, stream, payload length, payload (``encoded()``; `StreamFormat.md` in this
/// module's documentation has the byte layout, the rules and the limits).
///
/// Session messages travel on stream 0. A transfer is a stream of its own, numbered by the end that asked for it
/// (`fetch`); the answers (`data`, `end`, `fail`) and the asker's `credit` and `cancel` carry that number, and the
/// direction of the frame says whose numbering it is, so both ends number their own transfers from 1 without meeting.
package enum LinkMessage: Sendable, Equatable {
    /// The first frame each way: the protocol version, how the end's displays name flavours, and its software.
    case hello(Hello)
    /// The sender's clipboard has new content on `selection`: these types, nothing read yet.
    case announce(Announcement)
    /// The sender's content of `selection` of `generation` is gone.
    case withdraw(selection: SelectionName, generation: UInt64)
    /// The sender (the end that started the link) has announced what it had at the start.
    case settled
    /// Asks for one type of the peer's announcement of `generation`; the peer may send `credit` bytes ahead.
    case fetch(request: UInt32, selection: SelectionName, generation: UInt64, type: SelectionTarget, credit: UInt32)
    /// A piece of the flavour asked for by `request`.
    case data(request: UInt32, FlavourChunk)
    /// The flavour asked for by `request` is whole: `byteCount` bytes in all.
    case end(request: UInt32, byteCount: UInt64)
    /// The flavour asked for by `request` could not be made.
    case fail(request: UInt32, reason: String)
    /// The asker passed on `bytes` more of `request`'s flavour: the peer may send that much more.
    case credit(request: UInt32, bytes: UInt32)
    /// The asker no longer wants `request`'s flavour.
    case cancel(request: UInt32)
    /// Asks the peer to show it is alive.
    case ping(UInt64)
    /// Answers a ping.
    case pong(UInt64)

    /// What an end says first.
    package struct Hello: Sendable, Equatable {
        package var version: UInt16
        /// How the sender's displays name flavours: the types it announces and asks for are named so.
        package var naming: FlavourNaming
        /// The sender's software and version, for messages.
        package var software: String

        package init(version: UInt16 = LinkLimits.version, naming: FlavourNaming, software: String) {
            self.version = version
            self.naming = naming
            self.software = software
        }
    }

    /// New content on the sender's side.
    package struct Announcement: Sendable, Equatable {
        package var selection: SelectionName
        /// The sender's number for this content; a `fetch` names it, and is refused once it is not current.
        package var generation: UInt64
        /// The newest of the receiver's generations the sender had received when it sent this: an announcement of
        /// the receiver's made later crossed this one on the way (``LinkPolicy/acceptsAnnouncement(seen:ourClaim:role:)``).
        package var seen: UInt64
        /// The content is marked sensitive (the password managers' hint).
        package var isSensitive: Bool
        /// The types, in the owner's order.
        package var types: [SelectionTarget]

        package init(selection: SelectionName, generation: UInt64, seen: UInt64, isSensitive: Bool, types: [SelectionTarget]) {
            self.selection = selection
            self.generation = generation
            self.seen = seen
            self.isSensitive = isSensitive
            self.types = types
        }
    }

    /// The frame kinds, as the header's first byte.
    package enum Kind: UInt8, CaseIterable, Sendable {
        case hello = 1, announce, withdraw, settled, fetch, data, end, fail, credit, cancel, ping, pong

        /// Whether frames of this kind are the session's (stream 0) rather than a transfer's.
        package var isSessionMessage: Bool {
            switch self {
            case .hello, .announce, .withdraw, .settled, .ping, .pong: true
            case .fetch, .data, .end, .fail, .credit, .cancel: false
            }
        }
    }

    package var kind: Kind {
        switch self {
        case .hello: .hello
        case .announce: .announce
        case .withdraw: .withdraw
        case .settled: .settled
        case .fetch: .fetch
        case .data: .data
        case .end: .end
        case .fail: .fail
        case .credit: .credit
        case .cancel: .cancel
        case .ping: .ping
        case .pong: .pong
        }
    }

    /// The stream the frame travels on: 0 for the session's messages, the transfer's number for a transfer's.
    package var stream: UInt32 {
        switch self {
        case .fetch(let request, _, _, _, _), .data(let request, _), .end(let request, _), .fail(let request, _),
            .credit(let request, _), .cancel(let request):
            request
        case .hello, .announce, .withdraw, .settled, .ping, .pong:
            0
        }
    }

    /// The frame: header and payload. Text longer than the protocol allows (a reason, the software) is cut; a name
    /// longer than it allows, or a data piece larger, is the caller's mistake and traps.
    package func encoded() -> [UInt8] {
        // The header first with a length to fill in, then the payload after it: a data piece is copied once.
        var payload = LinkWriter()
        if case .data(_, let chunk) = self { payload.bytes.reserveCapacity(LinkLimits.headerLength + 64 + chunk.bytes.count) }
        payload.uint8(kind.rawValue)
        payload.uint32(stream)
        payload.uint32(0)
        switch self {
        case .hello(let hello):
            payload.uint16(hello.version)
            payload.uint8(hello.naming == .mimeTypes ? 1 : 0)
            payload.text(hello.software)
        case .announce(let announcement):
            payload.shortName(announcement.selection.rawValue)
            payload.uint64(announcement.generation)
            payload.uint64(announcement.seen)
            payload.uint8(announcement.isSensitive ? 1 : 0)
            payload.uint32(UInt32(announcement.types.count))
            for type in announcement.types { payload.name(type.rawValue) }
        case .withdraw(let selection, let generation):
            payload.shortName(selection.rawValue)
            payload.uint64(generation)
        case .settled, .cancel:
            break
        case .fetch(_, let selection, let generation, let type, let credit):
            payload.shortName(selection.rawValue)
            payload.uint64(generation)
            payload.uint32(credit)
            payload.name(type.rawValue)
        case .data(_, let chunk):
            precondition(chunk.bytes.count <= LinkLimits.maximumDataBytes, "a data frame of \(chunk.bytes.count) bytes")
            payload.name(chunk.type.rawValue)
            payload.uint8(UInt8(truncatingIfNeeded: chunk.format))
            payload.bytes.append(contentsOf: chunk.bytes)
        case .end(_, let byteCount):
            payload.uint64(byteCount)
        case .fail(_, let reason):
            payload.text(reason)
        case .credit(_, let bytes):
            payload.uint32(bytes)
        case .ping(let nonce), .pong(let nonce):
            payload.uint64(nonce)
        }
        let length = payload.bytes.count - LinkLimits.headerLength
        precondition(length <= LinkLimits.maximumPayload, "a \(kind) frame of \(length) bytes")
        for index in 0..<4 { payload.bytes[5 + index] = UInt8(truncatingIfNeeded: UInt32(length) >> UInt32(24 - 8 * index)) }
        return payload.bytes
    }
}

extension LinkMessage {
    /// The frame of `.data(request:, piece)` where the piece is `chunk`'s bytes in `range`: built straight from the
    /// chunk, so a piece cut from a large reply is copied once, into its frame.
    package static func dataFrame(request: UInt32, _ chunk: FlavourChunk, range: Range<Int>) -> [UInt8] {
        precondition(range.count <= LinkLimits.maximumDataBytes, "a data frame of \(range.count) bytes")
        var frame = LinkWriter()
        let type = Array(chunk.type.rawValue.utf8)
        frame.bytes.reserveCapacity(LinkLimits.headerLength + 3 + type.count + range.count)
        frame.uint8(Kind.data.rawValue)
        frame.uint32(request)
        frame.uint32(UInt32(2 + type.count + 1 + range.count))
        frame.name(chunk.type.rawValue)
        frame.uint8(UInt8(truncatingIfNeeded: chunk.format))
        chunk.bytes.withUnsafeBytes { bytes in
            let start = bytes.startIndex + range.lowerBound
            frame.bytes.append(contentsOf: bytes[start..<(start + range.count)])
        }
        return frame.bytes
    }
}

/// Big-endian fields appended to a frame.
struct LinkWriter {
    var bytes: [UInt8] = []

    mutating func uint8(_ value: UInt8) { bytes.append(value) }
    mutating func uint16(_ value: UInt16) { bytes.append(UInt8(value >> 8)); bytes.append(UInt8(value & 0xFF)) }
    mutating func uint32(_ value: UInt32) {
        for shift in stride(from: 24, through: 0, by: -8) { bytes.append(UInt8((value >> UInt32(shift)) & 0xFF)) }
    }
    mutating func uint64(_ value: UInt64) {
        for shift in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8((value >> UInt64(shift)) & 0xFF)) }
    }

    /// A selection's name: one length byte, then its UTF-8 (1 to 255 bytes).
    mutating func shortName(_ name: String) {
        let utf8 = Array(name.utf8)
        precondition((1...255).contains(utf8.count), "a selection name of \(utf8.count) bytes")
        uint8(UInt8(utf8.count))
        bytes += utf8
    }

    /// A type's name: two length bytes, then its UTF-8 (1 to ``LinkLimits/maximumNameBytes`` bytes).
    mutating func name(_ name: String) {
        let utf8 = Array(name.utf8)
        precondition((1...LinkLimits.maximumNameBytes).contains(utf8.count), "a type name of \(utf8.count) bytes")
        uint16(UInt16(utf8.count))
        bytes += utf8
    }

    /// Free text to the end of the payload, cut at ``LinkLimits/maximumTextBytes`` on a character's boundary.
    mutating func text(_ text: String) {
        var cut = Array(text.utf8.prefix(LinkLimits.maximumTextBytes))
        // At most three bytes of a character cut in two.
        while String(validating: cut, as: UTF8.self) == nil { cut.removeLast() }
        bytes += cut
    }
}
