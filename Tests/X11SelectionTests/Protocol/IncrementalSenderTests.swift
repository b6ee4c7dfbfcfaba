import Testing
@testable import X11Selection

@Suite struct IncrementalSenderTests {
    @Test func sendsChunksThenTheEndMarker() {
        var sender = IncrementalSender(totalSize: 10, chunkSize: 4)
        #expect(sender.announcedSize == 10)
        let result1 = sender.propertyDeleted()
        #expect(result1 == .sendChunk(offset: 0, length: 4))
        let result2 = sender.propertyDeleted()
        #expect(result2 == .sendChunk(offset: 4, length: 4))
        let result3 = sender.propertyDeleted()
        #expect(result3 == .sendChunk(offset: 8, length: 2))
        #expect(!sender.isFinished)
        let result4 = sender.propertyDeleted()
        #expect(result4 == .sendEnd)
        #expect(sender.isFinished)
        let result5 = sender.propertyDeleted()
        #expect(result5 == .none)
    }

    @Test func emptyPayloadEndsRightAway() {
        var sender = IncrementalSender(totalSize: 0, chunkSize: 4)
        let result6 = sender.propertyDeleted()
        #expect(result6 == .sendEnd)
    }

    @Test(arguments: [1, 4095, 4096, 4097, 131_072, 1_000_003])
    func chunksCoverThePayloadExactlyOnce(size: Int) {
        var sender = IncrementalSender(totalSize: size, chunkSize: 4096)
        var covered = 0
        while case .sendChunk(let offset, let length) = sender.propertyDeleted() {
            #expect(offset == covered)
            #expect(length > 0 && length <= 4096)
            covered += length
        }
        #expect(covered == size)
        #expect(sender.isFinished)
    }

    @Test func format32ChunksNeverSplitAnItem() {
        var sender = IncrementalSender(totalSize: 40, chunkSize: 10, itemSize: 4)
        #expect(sender.chunkSize == 8)
        let result7 = sender.propertyDeleted()
        #expect(result7 == .sendChunk(offset: 0, length: 8))
    }

    @Test func truncationEndsTheTransfer() {
        var sender = IncrementalSender(totalSize: 100, chunkSize: 10)
        _ = sender.propertyDeleted()
        sender.truncate()
        #expect(sender.isFinished)
        let result8 = sender.propertyDeleted()
        #expect(result8 == .none)
    }

    @Test func thresholdFollowsTheServerLimit() {
        // Xvfb with BIG-REQUESTS: 4194303 units of 4 bytes.
        let threshold = IncrementalSender.threshold(maximumRequestBytes: 4_194_303 * 4)
        #expect(threshold < 4_194_303 * 4)
        #expect(threshold > 16_000_000)
        #expect(IncrementalSender.threshold(maximumRequestBytes: 65_535 * 4) < 65_535 * 4)
    }

    @Test func announcedSizeIsClampedTo32Bits() {
        let sender = IncrementalSender(totalSize: 5_000_000_000, chunkSize: 131_072)
        #expect(sender.announcedSize == UInt(UInt32.max))
    }

    @Test func chunksGrowWhileTheRequestorTakesThemUpToTheMaximum() {
        var sender = IncrementalSender(totalSize: 100, chunkSize: 8, maximumChunkSize: 30)
        var lengths: [Int] = []
        var offsets: [Int] = []
        while case .sendChunk(let offset, let length) = sender.propertyDeleted() {
            offsets.append(offset)
            lengths.append(length)
        }
        // 8, 16, then capped at 30 (and the rest); every byte exactly once, in order.
        #expect(lengths == [8, 16, 30, 30, 16])
        #expect(offsets == [0, 8, 24, 54, 84])
        #expect(sender.isFinished)
    }

    @Test func grownChunksNeverSplitAnItem() {
        var sender = IncrementalSender(totalSize: 64, chunkSize: 8, maximumChunkSize: 22, itemSize: 4)
        var lengths: [Int] = []
        while case .sendChunk(_, let length) = sender.propertyDeleted() { lengths.append(length) }
        #expect(lengths.allSatisfy { $0 % 4 == 0 })
        #expect(lengths.reduce(0, +) == 64)
        #expect(lengths.max() == 20)
    }
}
