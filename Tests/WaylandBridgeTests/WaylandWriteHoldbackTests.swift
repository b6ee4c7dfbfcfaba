// WaylandWriteHoldback: content up to the limit reaches a Wayland requestor whole or not at all; larger content
// streams with at most the limit (and one chunk) held.

import ClipBridgeTestSupport
import FoundationEssentials
import Testing
import WaylandBridge

@Suite("What reaches a Wayland requestor before the X read ends")
struct WaylandWriteHoldbackTests {
    /// Chunks of the sizes given, each filled with its own index.
    static func chunks(_ sizes: [Int]) -> [Data] {
        sizes.enumerated().map { Data(repeating: UInt8(truncatingIfNeeded: $0.offset), count: $0.element) }
    }

    @Test("within the limit nothing is written until the read ends: all of it then, none of it after a failure")
    func withinTheLimit() {
        let input = Self.chunks([3, 0, 4, 3])
        var completed = WaylandWriteHoldback(limit: 10)
        for chunk in input { #expect(completed.take(chunk).isEmpty) }
        #expect(!completed.isStreaming)
        #expect(completed.finish().reduce(Data(), +) == input.reduce(Data(), +))

        var failed = WaylandWriteHoldback(limit: 10)
        let written = input.flatMap { failed.take($0) }
        #expect(written.isEmpty, "a read that fails here leaves the pipe empty")
    }

    @Test("past the limit what was held goes out in order, then each chunk as it comes")
    func pastTheLimit() {
        var holdback = WaylandWriteHoldback(limit: 10)
        #expect(holdback.take(Data([1, 1, 1, 1, 1, 1])).isEmpty)
        #expect(holdback.take(Data([2, 2, 2, 2])).isEmpty, "exactly the limit is still held")
        #expect(holdback.take(Data([3])) == [Data([1, 1, 1, 1, 1, 1]), Data([2, 2, 2, 2]), Data([3])])
        #expect(holdback.isStreaming)
        #expect(holdback.take(Data([4, 4])) == [Data([4, 4])])
        #expect(holdback.take(Data()) == [])
        #expect(holdback.finish() == [])
    }

    @Test("any sizes: the bytes written are the bytes read, in order; none before the limit is passed; never more held than the limit and a chunk",
          arguments: 0..<200)
    func anySizes(seed: Int) {
        var generator = SplitMix(seed: UInt64(seed))
        let limit = Int(generator.next() % 64) + 1
        let sizes = (0..<Int(generator.next() % 40)).map { _ in Int(generator.next() % 24) }
        let input = Self.chunks(sizes)
        var holdback = WaylandWriteHoldback(limit: limit)
        var written = Data()
        var read = 0
        for chunk in input {
            read += chunk.count
            let out = holdback.take(chunk)
            written += out.reduce(Data(), +)
            if read <= limit { #expect(written.isEmpty, "written before the limit was passed") }
            #expect(read - written.count <= limit + chunk.count)
            #expect(holdback.isStreaming == (read > limit))
        }
        written += holdback.finish().reduce(Data(), +)
        #expect(written == input.reduce(Data(), +))
    }
}
