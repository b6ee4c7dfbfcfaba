// SPDX-License-Identifier: Apache-2.0
// ClipBridge — a UTF-8 text target's canonical bytes, made a piece at a time

import FoundationEssentials

/// The canonical UTF-8 of a UTF-8 text target (`text/plain;charset=utf-8`) made as its pieces arrive: byte for byte
/// what the UTF-8 text codec (`WireCodec.utf8Text`) makes of the whole — each ill-formed sequence one U+FFFD
/// (Unicode's "maximal subpart" practice, as `String(decoding:as:)` applies it), trailing NULs dropped — with memory
/// bounded by the piece.
///
/// Two things wait for the next piece: a sequence cut by a piece's end (at most three bytes, decoded once it is
/// whole or the text ends) and NULs at the end of what was decoded (written only if more text follows them).
/// Everything before a sequence's first byte decodes the same whatever follows it, so the pieces' results join up
/// to the whole's.
public struct UTF8TextStream: Sendable {
    private var carried = Data()
    private var heldNULs = 0

    /// A stream at the text's start.
    public init() {}

    /// The canonical bytes `piece` completes, to write now.
    public mutating func feed(_ piece: Data) -> Data {
        var bytes = carried
        bytes.append(piece)
        let cut = Self.incompleteTail(of: bytes)
        carried = bytes.suffix(cut)
        return emit(bytes.dropLast(cut))
    }

    /// What is left at the text's end: a sequence cut short decoded (U+FFFD), trailing NULs dropped.
    public mutating func finish() -> Data {
        let rest = emit(carried)
        carried = Data()
        heldNULs = 0
        return rest
    }

    private mutating func emit(_ bytes: Data) -> Data {
        guard !bytes.isEmpty else { return Data() }
        var decoded = Data(String(decoding: bytes, as: UTF8.self).utf8)
        var nuls = 0
        while nuls < decoded.count, decoded[decoded.endIndex - 1 - nuls] == 0 { nuls += 1 }
        guard nuls < decoded.count else {
            heldNULs += nuls
            return Data()
        }
        decoded.removeLast(nuls)
        let written = heldNULs > 0 ? Data(count: heldNULs) + decoded : decoded
        heldNULs = nuls
        return written
    }

    /// How many bytes at the end of `bytes` begin a sequence that is not complete yet: 0 to 3.
    static func incompleteTail(of bytes: Data) -> Int {
        for back in stride(from: 1, through: min(3, bytes.count), by: 1) {
            let byte = bytes[bytes.endIndex - back]
            if byte & 0xC0 == 0x80 { continue }  // a continuation byte: look further back
            let length = switch byte {
            case 0xC2...0xDF: 2
            case 0xE0...0xEF: 3
            case 0xF0...0xF4: 4
            default: 1  // ASCII or a byte no sequence starts with: nothing waits
            }
            return length > back ? back : 0
        }
        return 0
    }
}
