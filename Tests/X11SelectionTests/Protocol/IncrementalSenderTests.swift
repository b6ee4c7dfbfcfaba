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

    @Test func aCompletedTransferEndsCompletedAndCannotBeDroppedAfterwards() {
        var sender = IncrementalSender(totalSize: 3, chunkSize: 4)
        #expect(sender.ending == nil)
        _ = sender.propertyDeleted()
        let step1 = sender.propertyDeleted()
        #expect(step1 == .sendEnd)
        #expect(sender.ending == .completed)
        let step2 = sender.drop(.requestorDestroyed)
        #expect(!step2)
        #expect(sender.ending == .completed)
        let step3 = sender.sourceFailed()
        #expect(step3 == .none)
    }

    @Test(arguments: [IncrementalSender.DropCause.requestorDestroyed, .requestorVanished, .requestorIdle, .superseded])
    func aDroppedTransferEndsOnceWithItsCauseAndSendsNothingMore(cause: IncrementalSender.DropCause) {
        var sender = IncrementalSender(totalSize: 10, chunkSize: 4)
        let step4 = sender.drop(cause)
        #expect(step4, "dropped while announced")
        #expect(sender.ending == .dropped(cause))
        let step5 = sender.drop(.requestorIdle)
        #expect(!step5, "a second drop is refused: the transfer ends, and is reported, once")
        #expect(sender.ending == .dropped(cause))
        let step6 = sender.propertyDeleted()
        #expect(step6 == .none)
        #expect(!cause.description.isEmpty)

        var midway = IncrementalSender(totalSize: 10, chunkSize: 4)
        _ = midway.propertyDeleted()
        let step7 = midway.drop(cause)
        #expect(step7, "dropped while sending")
        let step8 = midway.propertyDeleted()
        #expect(step8 == .none)
    }

    @Test func anUnreadableSourceEndsWithTheEndMarkerAndSaysSo() {
        var sender = IncrementalSender(totalSize: 10, chunkSize: 4)
        let step9 = sender.propertyDeleted()
        #expect(step9 == .sendChunk(offset: 0, length: 4))
        // The payload could not give bytes 4..<8: the requestor still gets a well-formed (short) transfer.
        let step10 = sender.sourceFailed()
        #expect(step10 == .sendEnd)
        #expect(sender.ending == .dropped(.sourceUnreadable))
        let step11 = sender.propertyDeleted()
        #expect(step11 == .none)
        let step12 = sender.sourceFailed()
        #expect(step12 == .none)
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

    @Test func thresholdIsWhatEveryReaderTakesInOneProperty() {
        // Xvfb with BIG-REQUESTS: 4194303 units of 4 bytes — a single property could be 16 MiB, but Tk takes at most
        // 400,000 bytes in one and Java 4,000,000: 256 KiB, as GTK's owner.
        #expect(IncrementalSender.threshold(maximumRequestBytes: 4_194_303 * 4) == 262_144)
        #expect(IncrementalSender.threshold(maximumRequestBytes: 4_194_303 * 4) < 400_000)
        // A server without BIG-REQUESTS: below one request.
        #expect(IncrementalSender.threshold(maximumRequestBytes: 65_535 * 4) < 65_535 * 4)
        #expect(IncrementalSender.threshold(maximumRequestBytes: 65_535 * 4) > 200_000)
    }

    @Test func announcedSizeIsClampedTo32Bits() {
        let sender = IncrementalSender(totalSize: 5_000_000_000, chunkSize: 131_072)
        #expect(sender.announcedSize == UInt(UInt32.max))
    }

    /// A requestor with a fixed cost per turn (a toolkit's event loop): 1 ms per chunk plus 1 µs per KiB.
    private func toolkitTurn(_ length: Int) -> Duration { .microseconds(1000 + length / 1024) }
    /// A requestor that pays per byte only (a tight C loop), and more for chunks past the cache (256 KiB).
    private func cLoopTurn(_ length: Int) -> Duration {
        .microseconds(Int64(length / 1024) * (length > 256 * 1024 ? 2 : 1))
    }

    private func sizes(_ sender: inout IncrementalSender, turn: (Int) -> Duration) -> [Int] {
        var lengths: [Int] = []
        var elapsed: Duration?
        while case .sendChunk(_, let length) = sender.propertyDeleted(after: elapsed) {
            lengths.append(length)
            elapsed = turn(length)
        }
        return lengths
    }

    @Test func chunksGrowForARequestorThatPaysPerTurn() {
        var sender = IncrementalSender(totalSize: 64 << 20, chunkSize: 128 << 10, maximumChunkSize: 1 << 20)
        let lengths = sizes(&sender, turn: toolkitTurn)
        // Two chunks at each size, doubling up to the maximum; every byte exactly once.
        let kib = 1024
        let expected: [Int] = [128 * kib, 128 * kib, 256 * kib, 256 * kib, 512 * kib, 512 * kib, 1024 * kib]
        #expect(Array(lengths.prefix(7)) == expected)
        #expect(lengths.dropFirst(6).dropLast().allSatisfy { $0 == 1 << 20 })  // the last is what is left
        #expect(lengths.reduce(0, +) == 64 << 20)
        #expect(sender.isSettled && sender.isFinished)
    }

    @Test func chunksStayWhenDoublingDoesNotPay() {
        var sender = IncrementalSender(totalSize: 64 << 20, chunkSize: 128 << 10, maximumChunkSize: 1 << 20)
        let lengths = sizes(&sender, turn: cLoopTurn)
        // 128 KiB, then 256 KiB (the same rate: no gain), then back to 128 KiB for the rest.
        let kib = 1024
        let expected: [Int] = [128 * kib, 128 * kib, 256 * kib, 256 * kib]
        #expect(Array(lengths.prefix(4)) == expected)
        #expect(lengths.dropFirst(4).allSatisfy { $0 == 128 << 10 })
        #expect(lengths.reduce(0, +) == 64 << 20)
        #expect(sender.chunkSize == 128 << 10 && sender.isSettled)
    }

    @Test func withoutMeasurementsChunksKeepTheirSize() {
        var sender = IncrementalSender(totalSize: 100, chunkSize: 8, maximumChunkSize: 64)
        var lengths: [Int] = []
        while case .sendChunk(_, let length) = sender.propertyDeleted() { lengths.append(length) }
        #expect(lengths == [8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 4])
    }

    @Test func grownChunksNeverSplitAnItem() {
        var sender = IncrementalSender(totalSize: 4096, chunkSize: 12, maximumChunkSize: 50, itemSize: 4)
        var lengths: [Int] = []
        var elapsed: Duration?
        while case .sendChunk(_, let length) = sender.propertyDeleted(after: elapsed) {
            lengths.append(length)
            elapsed = .milliseconds(1)  // a fixed cost per turn: growth pays
        }
        #expect(lengths.allSatisfy { $0 % 4 == 0 })
        #expect(lengths.reduce(0, +) == 4096)
        #expect(lengths.max() == 48)
    }
}
