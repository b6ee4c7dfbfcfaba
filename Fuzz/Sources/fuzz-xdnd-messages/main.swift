// fuzz-xdnd-messages: XdndMessage.decode (Sources/X11Selection/Protocol/XdndMessage.swift), the decoder of
// the XDND ClientMessages any X client may send to any window.
//
// Input: a kind byte, then five data words of 4 bytes each (little-endian; a short input is padded with
// zeros); a further bit chooses whether the words are given 64-bit values (Xlib hands out C longs).
// Checked: no trap; a decoded message re-encodes to words that decode to the same message (the wire form
// is canonical), its kind is the one asked, its sender is not window 0.

import CFuzzerDriver
import FuzzSupport
@testable import X11Selection

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    var input = FuzzReader(fuzzBytes(start, count))
    let kinds = XdndMessage.Kind.allCases
    let kind = input.pick(kinds)
    let flags = input.byte()
    var words: [UInt] = []
    let wordCount = flags & 0x80 != 0 ? input.below(8) : 5
    for _ in 0..<wordCount {
        var word = UInt(input.uint32())
        // Xlib's longs are 64-bit here: the high half of a data word is garbage a decoder must ignore.
        if flags & 1 != 0 { word |= UInt(input.uint32()) << 32 }
        words.append(word)
    }
    guard let message = XdndMessage.decode(kind, words: words) else { return 0 }
    fuzzCheck(words.count >= 5, "decoded \(words.count) words")
    fuzzCheck(message.kind == kind, "decoded \(kind) as \(message.kind)")
    fuzzCheck(message.sender.rawValue != 0, "a message from window 0")
    fuzzCheck(message.sender.rawValue <= 0xFFFF_FFFF, "a sender above 32 bits: \(message.sender)")
    let encoded = message.words
    fuzzCheck(encoded.count == 5, "\(message) encodes to \(encoded.count) words")
    fuzzCheck(encoded.allSatisfy { $0 <= 0xFFFF_FFFF }, "\(message) encodes to words above 32 bits: \(encoded)")
    let again = XdndMessage.decode(kind, words: encoded)
    fuzzCheck(again == message, "\(message) → \(encoded) → \(String(describing: again))")
    if case .enter(_, let version, let types, _) = message {
        fuzzCheck(version >= XdndMessage.minimumVersion && version <= 0xFF, "enter with version \(version)")
        fuzzCheck(types.count <= 3 && !types.contains(.none), "enter with types \(types)")
    }
    if case .status(_, let accepts, _, let rectangle, let action) = message {
        fuzzCheck(accepts || action.isNone, "a refusing status with action \(action)")
        for side in [rectangle.x, rectangle.y, rectangle.width, rectangle.height] {
            fuzzCheck((0...0xFFFF).contains(side), "a rectangle side \(side)")
        }
        // Containment never traps, whatever the point.
        _ = rectangle.contains(x: Int(input.uint16()), y: Int(input.uint16()))
    }
    return 0
}

// libFuzzer's main, under the name SwiftPM links as `main` (see CFuzzerDriver.h).
@_cdecl("fuzz_xdnd_messages_main")
public func fuzzerMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    clipbridge_fuzzer_main(argc, argv)
}
