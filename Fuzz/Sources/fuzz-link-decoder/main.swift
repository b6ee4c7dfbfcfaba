// fuzz-link-decoder: LinkDecoder (Sources/ClipboardLink/Wire/LinkDecoder.swift), the decoder of the stream a far
// machine's clipbridge sends over ssh — untrusted input.
//
// Input: the first byte chooses how the rest is fed (whole, or in pieces of 1 to 256 bytes); the rest is the stream
// after the preamble (the decoder is given the preamble first, so the fuzzer spends its time on frames).
// Checked: no trap; no frame's payload is over the limit; every decoded message re-encodes to a frame that decodes
// to the same message (the wire form is canonical); the decoder holds no more than one frame's worth beyond what it
// was given; an error ends the stream (the decoder is not asked again).

import CFuzzerDriver
import FuzzSupport
@testable import SelectionCore
@testable import ClipboardLink

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let bytes = fuzzBytes(start, count)
    guard let mode = bytes.first else { return 0 }
    let stream = bytes.dropFirst()
    let piece = mode == 0 ? max(stream.count, 1) : Int(mode)
    var decoder = LinkDecoder()
    decoder.append(LinkLimits.preamble)
    var offset = stream.startIndex
    while offset < stream.endIndex {
        let end = min(offset + piece, stream.endIndex)
        decoder.append(stream[offset..<end])
        offset = end
        do {
            while let message = try decoder.next() {
                let frame = message.encoded()
                fuzzCheck(frame.count - LinkLimits.headerLength <= LinkLimits.maximumPayload, "a frame of \(frame.count) bytes")
                var again = LinkDecoder()
                again.append(LinkLimits.preamble + frame)
                let decoded = try? again.next()
                fuzzCheck(decoded == .some(message), "\(message) → \(frame.count) bytes → \(String(describing: decoded))")
                if case .data(_, let chunk) = message {
                    fuzzCheck(chunk.bytes.count <= LinkLimits.maximumDataBytes, "a data piece of \(chunk.bytes.count) bytes")
                    fuzzCheck([8, 16, 32].contains(chunk.format), "a data piece of format \(chunk.format)")
                }
                if case .announce(let announcement) = message {
                    fuzzCheck(announcement.types.allSatisfy { !$0.rawValue.isEmpty && !$0.rawValue.utf8.contains(0) },
                              "an announced name that is empty or has a NUL")
                }
            }
        } catch {
            return 0
        }
    }
    return 0
}

// libFuzzer's main, under the name SwiftPM links as `main` (see CFuzzerDriver.h).
@_cdecl("fuzz_link_decoder_main")
public func fuzzerMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    clipbridge_fuzzer_main(argc, argv)
}
