import FoundationEssentials
import Testing

@testable import X11Selection

/// INCR chunks of UTF-8 text end on character boundaries (Tk decodes each chunk on its own).
struct UTF8ChunkBoundaryTests {
    @Test func theIncompleteTailOfEachCharacterLength() {
        let characters = ["a", "é", "€", "🙂"].map { Array($0.utf8) }
        for character in characters {
            for cut in 0..<character.count {
                // "xy" then the first `cut` bytes of the character: those are held back, whole ones are not.
                let chunk = Array("xy".utf8) + character.prefix(cut)
                #expect(UTF8ChunkBoundary.incompleteTail(of: chunk) == cut, "\(character) cut at \(cut)")
            }
            #expect(UTF8ChunkBoundary.incompleteTail(of: Array("xy".utf8) + character) == 0)
        }
        #expect(UTF8ChunkBoundary.incompleteTail(of: [UInt8]()) == 0)
        // Invalid UTF-8 is left alone: stray continuation bytes, a lone 0xFF.
        #expect(UTF8ChunkBoundary.incompleteTail(of: [0x80, 0x80, 0x80, 0x80, 0x80]) == 0)
        #expect(UTF8ChunkBoundary.incompleteTail(of: [0x61, 0xFF]) == 0)
    }

    @Test func chunksCutOnBoundariesRebuildTheTextAndEachDecodesAlone() {
        var random = SystemRandomNumberGenerator()
        let pieces = ["a", "é", "€", "🙂", "日本", " "]
        var text = ""
        while text.utf8.count < 300_000 { text += pieces.randomElement(using: &random)! }
        let bytes = Array(text.utf8)
        var sender = IncrementalSender(totalSize: bytes.count, chunkSize: 4093, maximumChunkSize: 4093, keepsCharactersWhole: true)
        _ = sender.announcedSize
        var rebuilt: [UInt8] = []
        var shortened = 0
        while case .sendChunk(let offset, let length) = sender.propertyDeleted() {
            let chunk = Array(sender.wireChunk(bytes[offset..<(offset + length)]))
            if chunk.count < length { shortened += 1 }
            #expect(String(validating: chunk, as: UTF8.self) != nil, "a chunk at \(offset) splits a character")
            rebuilt += chunk
        }
        #expect(rebuilt == bytes)
        #expect(shortened > 0)
        // Not text (or not UTF-8): the chunks are cut where they fall.
        var binary = IncrementalSender(totalSize: bytes.count, chunkSize: 4093, maximumChunkSize: 4093)
        while case .sendChunk(let offset, let length) = binary.propertyDeleted() {
            #expect(binary.wireChunk(bytes[offset..<(offset + length)]).count == length)
        }
    }

    /// A relay (the bridges, a relayed restore) streams what its producer sends, in pieces of any size: each chunk
    /// still ends on a character boundary, the whole arrives unchanged, and a chunk holding only the start of one
    /// character waits for the rest.
    @Test func relayedChunksEndOnCharacterBoundariesWhateverThePiecesAre() {
        var random = SystemRandomNumberGenerator()
        let pieces = ["a", "é", "€", "🙂", "日本", " "]
        for chunkSize in [1, 2, 3, 5, 7, 64] {
            var text = ""
            while text.utf8.count < 3_000 { text += pieces.randomElement(using: &random)! }
            let bytes = Array(text.utf8)
            var sender = RelaySender(threshold: 4, chunkSize: chunkSize, keepsCharactersWhole: true)
            var sent: [UInt8] = []
            var announced = false
            func handle(_ step: RelaySender.Step) {
                switch step {
                case .announce: announced = true
                case .sendChunk(let chunk):
                    // Below 4 bytes a chunk cannot always hold a whole character: it goes as it is.
                    if chunkSize >= 4 {
                        #expect(String(validating: Array(chunk), as: UTF8.self) != nil, "chunk size \(chunkSize) split a character")
                    }
                    sent += chunk
                case .none, .sendEnd, .refuse, .replyWhole: break
                }
            }
            var offset = 0
            while offset < bytes.count {
                let count = min(Int.random(in: 1...9, using: &random), bytes.count - offset)
                handle(sender.received(Data(bytes[offset..<(offset + count)])))
                offset += count
                // The requestor takes each chunk at once.
                if announced { handle(sender.propertyDeleted()) }
            }
            handle(sender.producerEnded())
            var turns = 0
            while sender.ending == nil && turns < 10_000 {
                handle(sender.propertyDeleted())
                turns += 1
            }
            #expect(sent == bytes, "chunk size \(chunkSize)")
            #expect(sender.ending == .completed)
        }
    }

    @Test func whichTargetsHoldUTF8Text() {
        for utf8 in ["UTF8_STRING", "text/plain;charset=utf-8", "text/plain; charset=\"UTF-8\"", "text/html", "text/uri-list"] {
            #expect(UTF8ChunkBoundary.applies(to: SelectionTarget(rawValue: utf8), format: 8), "\(utf8)")
        }
        for other in ["STRING", "COMPOUND_TEXT", "TEXT", "text/plain;charset=utf-16", "text/plain;charset=ISO-8859-1", "image/png"] {
            #expect(!UTF8ChunkBoundary.applies(to: SelectionTarget(rawValue: other), format: 8), "\(other)")
        }
        #expect(!UTF8ChunkBoundary.applies(to: .utf8String, format: 32))
    }
}
