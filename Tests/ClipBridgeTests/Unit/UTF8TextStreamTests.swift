// UTF8TextStream: a UTF-8 text target made canonical a piece at a time gives byte for byte what the codec makes of
// the whole — cut anywhere, with ill-formed sequences, NULs inside and at the end.

import Foundation
import Testing
import X11Selection
@testable import ClipBridge

@Suite struct UTF8TextStreamTests {
    /// The pieces' output joined, for `bytes` cut at `cuts`.
    func streamed(_ bytes: Data, cuts: [Int]) -> Data {
        var stream = UTF8TextStream()
        var output = Data()
        var start = 0
        for cut in cuts.sorted() + [bytes.count] where cut >= start {
            output += stream.feed(bytes[start..<cut])
            start = cut
        }
        return output + stream.finish()
    }

    func whole(_ bytes: Data) -> Data {
        WireCodec.utf8Text.decode(bytes, propertyType: .utf8PlainText)!
    }

    @Test("cut at every position, a text of 1- to 4-byte characters, ill-formed sequences and NULs matches the whole")
    func everyCut() {
        let samples: [[UInt8]] = [
            Array("aé€😀z".utf8),
            Array("x".utf8) + [0xE2, 0x82] + Array("y".utf8),  // a 3-byte sequence cut short inside
            [0xF0, 0x9F, 0x98] + [0x41],  // cut short before ASCII
            [0xC0, 0xAF, 0xED, 0xA0, 0x80, 0xF5, 0x80],  // overlong, a surrogate, a byte no sequence starts with
            Array("end".utf8) + [0, 0, 0],  // trailing NULs dropped
            Array("a".utf8) + [0, 0] + Array("b".utf8) + [0],  // NULs inside kept
            [0, 0, 0],
            [0xE2, 0x82],  // the text ends inside a sequence
            [],
        ]
        for sample in samples {
            let bytes = Data(sample)
            for cut in 0...bytes.count {
                #expect(streamed(bytes, cuts: [cut]) == whole(bytes), "\(sample) cut at \(cut)")
            }
            #expect(streamed(bytes, cuts: Array(0...bytes.count)) == whole(bytes), "\(sample) a byte at a time")
        }
    }

    @Test("random text cut at random places, 2,000 times")
    func random() {
        var generator = SystemRandomNumberGenerator()
        let alphabet: [[UInt8]] = [[0x41], [0x00], [0xC3, 0xA9], [0xE2, 0x82, 0xAC], [0xF0, 0x9F, 0x98, 0x80],
                                   [0x80], [0xE2], [0xF0, 0x9F], [0xFF], [0xC1, 0x81], [0xED, 0xB0, 0x80]]
        for _ in 0..<2_000 {
            let bytes = Data((0..<Int.random(in: 0...40, using: &generator)).flatMap { _ in alphabet.randomElement(using: &generator)! })
            let cuts = (0..<Int.random(in: 0...6, using: &generator)).map { _ in Int.random(in: 0...bytes.count, using: &generator) }
            #expect(streamed(bytes, cuts: cuts) == whole(bytes), "\(Array(bytes)) cut at \(cuts)")
        }
    }

    @Test("what waits is at most three bytes and the NULs: 8 MiB fed in 64 KiB pieces never holds more")
    func bounded() {
        var stream = UTF8TextStream()
        let piece = Data(String(repeating: "€", count: 65_536 / 3).utf8) + Data([0xE2])
        var written = 0
        for _ in 0..<128 { written += stream.feed(piece).count }
        written += stream.finish().count
        #expect(written > 8_000_000)
        #expect(UTF8TextStream.incompleteTail(of: Data([0x41, 0xE2, 0x82])) == 2)
        #expect(UTF8TextStream.incompleteTail(of: Data([0xE2, 0x82, 0xAC])) == 0)
        #expect(UTF8TextStream.incompleteTail(of: Data([0xF0, 0x9F, 0x98])) == 3)
        #expect(UTF8TextStream.incompleteTail(of: Data([0x80, 0x80, 0x80])) == 0)
    }
}
