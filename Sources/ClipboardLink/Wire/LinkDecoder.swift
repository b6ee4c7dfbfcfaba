import FoundationEssentials
import SelectionCore

/// Turns the bytes a peer sends into ``LinkMessage``s, as they arrive in pieces of any size: the preamble first,
/// then one frame after another. Every length the peer names is checked against ``LinkLimits`` before anything is
/// kept for it, so a peer holds at most one frame's worth (``LinkLimits/maximumPayload``) of this end's memory here;
/// each byte is looked at a bounded number of times (consumed bytes are dropped once they are half the buffer).
package struct LinkDecoder: Sendable {
    private var buffer: [UInt8] = []
    private var start = 0
    private var sawPreamble = false

    package init() {}

    /// Adds bytes as they came.
    package mutating func append(_ bytes: some Sequence<UInt8>) {
        buffer.append(contentsOf: bytes)
    }

    /// The next whole message, or nil until more bytes come.
    /// - Throws: ``LinkProtocolError`` when the bytes break the format; the stream is then unusable.
    package mutating func next() throws(LinkProtocolError) -> LinkMessage? {
        if !sawPreamble {
            let preamble = LinkLimits.preamble
            let available = buffer.count - start
            let compared = min(available, preamble.count)
            if !buffer[start..<(start + compared)].elementsEqual(preamble[..<compared]) {
                throw .notALink(wrote: Self.firstLine(of: buffer[start...]))
            }
            guard available >= preamble.count else { return nil }
            start += preamble.count
            sawPreamble = true
        }
        guard buffer.count - start >= LinkLimits.headerLength else { return nil }
        var header = LinkReader(buffer[start..<(start + LinkLimits.headerLength)])
        let kindByte = try header.uint8(), stream = try header.uint32(), length = Int(try header.uint32())
        guard let kind = LinkMessage.Kind(rawValue: kindByte) else { throw .malformed("a frame of unknown kind \(kindByte)") }
        guard length <= LinkLimits.maximumPayload else {
            throw .malformed("a \(kind) frame of \(length) bytes (at most \(LinkLimits.maximumPayload))")
        }
        guard buffer.count - start >= LinkLimits.headerLength + length else { return nil }
        let payloadStart = start + LinkLimits.headerLength
        let message = try Self.decode(kind, stream: stream, LinkReader(buffer[payloadStart..<(payloadStart + length)]))
        start = payloadStart + length
        if start == buffer.count {
            buffer.removeAll(keepingCapacity: true)
            start = 0
        } else if start > buffer.count / 2 {
            buffer.removeSubrange(0..<start)
            start = 0
        }
        return message
    }

    private static func decode(_ kind: LinkMessage.Kind, stream: UInt32, _ payload: LinkReader) throws(LinkProtocolError) -> LinkMessage {
        var payload = payload
        guard kind.isSessionMessage == (stream == 0) else {
            throw .malformed(kind.isSessionMessage ? "a \(kind) frame on stream \(stream)" : "a \(kind) frame on stream 0")
        }
        let message: LinkMessage
        switch kind {
        case .hello:
            let version = try payload.uint16()
            let naming: FlavourNaming
            switch try payload.uint8() {
            case 0: naming = .x11Targets
            case 1: naming = .mimeTypes
            case let other: throw .malformed("a hello naming flavours in an unknown way (\(other))")
            }
            message = .hello(.init(version: version, naming: naming, software: try payload.text()))
        case .announce:
            let selection = SelectionName(rawValue: try payload.shortName())
            let generation = try payload.uint64()
            let seen = try payload.uint64()
            let flags = try payload.uint8()
            guard flags & ~1 == 0 else { throw .malformed("an announcement with unknown flags \(flags)") }
            let count = Int(try payload.uint32())
            // Each name takes at least three bytes: a count beyond that cannot be true, and nothing is reserved for it.
            guard count <= payload.remaining / 3 else { throw .malformed("an announcement of \(count) types in \(payload.remaining) bytes") }
            var types: [SelectionTarget] = []
            types.reserveCapacity(count)
            for _ in 0..<count { types.append(SelectionTarget(rawValue: try payload.name())) }
            message = .announce(.init(selection: selection, generation: generation, seen: seen, isSensitive: flags & 1 != 0, types: types))
        case .withdraw:
            message = .withdraw(selection: SelectionName(rawValue: try payload.shortName()), generation: try payload.uint64())
        case .settled:
            message = .settled
        case .fetch:
            let selection = SelectionName(rawValue: try payload.shortName())
            let generation = try payload.uint64()
            let credit = try payload.uint32()
            message = .fetch(request: stream, selection: selection, generation: generation,
                             type: SelectionTarget(rawValue: try payload.name()), credit: credit)
        case .data:
            let type = SelectionTarget(rawValue: try payload.name())
            let format = Int(try payload.uint8())
            guard [8, 16, 32].contains(format) else { throw .malformed("a data frame of format \(format)") }
            let bytes = payload.rest()
            guard bytes.count <= LinkLimits.maximumDataBytes else {
                throw .malformed("a data frame of \(bytes.count) bytes (at most \(LinkLimits.maximumDataBytes))")
            }
            guard bytes.count % (format / 8) == 0 else { throw .malformed("\(bytes.count) bytes of format \(format)") }
            message = .data(request: stream, FlavourChunk(Data(bytes), type: type, format: format))
        case .end:
            message = .end(request: stream, byteCount: try payload.uint64())
        case .fail:
            message = .fail(request: stream, reason: try payload.text())
        case .credit:
            let bytes = try payload.uint32()
            guard bytes > 0 else { throw .malformed("a credit of 0 bytes") }
            message = .credit(request: stream, bytes: bytes)
        case .cancel:
            message = .cancel(request: stream)
        case .ping:
            message = .ping(try payload.uint64())
        case .pong:
            message = .pong(try payload.uint64())
        }
        guard payload.remaining == 0 else { throw .malformed("\(payload.remaining) bytes after a \(kind) frame's fields") }
        return message
    }

    /// What a peer that is not a link wrote, for the error: its first line, at most 200 bytes, as text.
    private static func firstLine(of bytes: ArraySlice<UInt8>) -> String {
        let line = bytes.prefix(200).prefix { $0 != 0x0A && $0 != 0x0D }
        return String(decoding: line, as: UTF8.self)
    }
}

/// Big-endian fields read from a frame, every read bounded by what is there.
struct LinkReader {
    private let bytes: ArraySlice<UInt8>
    private var index: Int

    init(_ bytes: ArraySlice<UInt8>) {
        self.bytes = bytes
        index = bytes.startIndex
    }

    var remaining: Int { bytes.endIndex - index }

    private mutating func take(_ count: Int) throws(LinkProtocolError) -> ArraySlice<UInt8> {
        guard count <= remaining else { throw .malformed("a frame cut short (\(count) bytes wanted, \(remaining) left)") }
        defer { index += count }
        return bytes[index..<(index + count)]
    }

    private mutating func integer<T: FixedWidthInteger & UnsignedInteger>(_: T.Type) throws(LinkProtocolError) -> T {
        try take(MemoryLayout<T>.size).reduce(T(0)) { $0 << 8 | T($1) }
    }

    mutating func uint8() throws(LinkProtocolError) -> UInt8 { try integer(UInt8.self) }
    mutating func uint16() throws(LinkProtocolError) -> UInt16 { try integer(UInt16.self) }
    mutating func uint32() throws(LinkProtocolError) -> UInt32 { try integer(UInt32.self) }
    mutating func uint64() throws(LinkProtocolError) -> UInt64 { try integer(UInt64.self) }

    mutating func rest() -> ArraySlice<UInt8> {
        defer { index = bytes.endIndex }
        return bytes[index...]
    }

    /// A selection's name (one length byte).
    mutating func shortName() throws(LinkProtocolError) -> String {
        let count = Int(try uint8())
        guard count > 0 else { throw .malformed("an empty selection name") }
        return try Self.name(try take(count))
    }

    /// A type's name (two length bytes).
    mutating func name() throws(LinkProtocolError) -> String {
        let count = Int(try uint16())
        guard (1...LinkLimits.maximumNameBytes).contains(count) else { throw .malformed("a type name of \(count) bytes") }
        return try Self.name(try take(count))
    }

    /// Names are UTF-8 without NUL: they become X atoms and C strings on this side.
    private static func name(_ bytes: ArraySlice<UInt8>) throws(LinkProtocolError) -> String {
        guard !bytes.contains(0), let name = String(validating: bytes, as: UTF8.self) else {
            throw .malformed("a name that is not UTF-8 text without NUL")
        }
        return name
    }

    /// Free text to the end of the payload: at most ``LinkLimits/maximumTextBytes``, undecodable bytes replaced.
    mutating func text() throws(LinkProtocolError) -> String {
        let bytes = rest()
        guard bytes.count <= LinkLimits.maximumTextBytes else { throw .malformed("a text of \(bytes.count) bytes") }
        return String(decoding: bytes, as: UTF8.self)
    }
}
