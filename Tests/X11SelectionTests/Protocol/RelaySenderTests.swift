import FoundationEssentials
import Testing
@testable import X11Selection

@Suite struct RelaySenderTests {
    private func bytes(_ count: Int, _ value: UInt8 = 7) -> Data { Data(repeating: value, count: count) }

    @Test func aReplyThatEndsWithinTheThresholdIsWrittenWhole() {
        var sender = RelaySender(threshold: 10, chunkSize: 4)
        #expect(sender.received(bytes(3, 1)) == .none)
        #expect(sender.received(bytes(7, 2)) == .none)
        #expect(sender.producerEnded() == .replyWhole(bytes(3, 1) + bytes(7, 2)))
        #expect(sender.ending == .completed)
        #expect(sender.sentBytes == 10)
        #expect(sender.propertyDeleted() == .none)
    }

    @Test func anEmptyReplyIsWrittenWhole() {
        var sender = RelaySender(threshold: 10, chunkSize: 4)
        #expect(sender.received(Data()) == .none)
        #expect(sender.producerEnded() == .replyWhole(Data()))
    }

    @Test func pastTheThresholdItAnnouncesINCRAndPacesChunksByBothSides() {
        var sender = RelaySender(threshold: 4, chunkSize: 3)
        #expect(sender.received(bytes(2, 1)) == .none)
        #expect(sender.received(bytes(3, 2)) == .announce(lowerBound: 5))
        #expect(sender.awaitsRequestor)
        // Bytes arriving while the header is still on the property wait for its deletion.
        #expect(sender.received(bytes(1, 3)) == .none)
        #expect(sender.propertyDeleted() == .sendChunk(bytes(2, 1) + bytes(1, 2)))
        #expect(sender.propertyDeleted() == .sendChunk(bytes(2, 2) + bytes(1, 3)))
        // The requestor is ahead of the producer: it waits, and the next bytes go out at once.
        #expect(sender.propertyDeleted() == .none)
        #expect(!sender.awaitsRequestor)
        #expect(sender.received(bytes(1, 4)) == .sendChunk(bytes(1, 4)))
        #expect(sender.producerEnded() == .none)
        #expect(sender.propertyDeleted() == .sendEnd)
        #expect(sender.ending == .completed)
        #expect(sender.sentBytes == 7)
    }

    @Test func theEndMarkerGoesAtOnceWhenTheRequestorIsWaiting() {
        var sender = RelaySender(threshold: 1, chunkSize: 8)
        #expect(sender.received(bytes(2)) == .announce(lowerBound: 2))
        #expect(sender.propertyDeleted() == .sendChunk(bytes(2)))
        #expect(sender.propertyDeleted() == .none)
        #expect(sender.producerEnded() == .sendEnd)
        #expect(sender.ending == .completed)
    }

    @Test func formatItemsAreNeverSplitWhileMoreMayCome() {
        var sender = RelaySender(threshold: 2, chunkSize: 10, itemSize: 4)
        #expect(sender.chunkSize == 8)
        #expect(sender.received(bytes(6)) == .announce(lowerBound: 6))
        #expect(sender.propertyDeleted() == .sendChunk(bytes(4)))
        #expect(sender.propertyDeleted() == .none)  // 2 bytes: half an item
        #expect(sender.received(bytes(2)) == .sendChunk(bytes(4)))
    }

    @Test func aProducerThatFailsBeforeTheReplyIsARefusal() {
        var sender = RelaySender(threshold: 10, chunkSize: 4)
        _ = sender.received(bytes(5))
        #expect(sender.producerFailed() == .refuse)
        #expect(sender.ending == .refused)
        #expect(sender.producerEnded() == .none)
    }

    /// Mid-INCR there is no way to report an error; the end marker would present a truncated reply as
    /// complete, so nothing more is written.
    @Test func aProducerThatFailsMidINCRNeverWritesTheEndMarker() {
        var sender = RelaySender(threshold: 1, chunkSize: 4)
        _ = sender.received(bytes(3))
        #expect(sender.propertyDeleted() == .sendChunk(bytes(3)))
        #expect(sender.producerFailed() == .none)
        #expect(sender.ending == .dropped(.sourceUnreadable))
        #expect(sender.propertyDeleted() == .none)
        #expect(sender.received(bytes(1)) == .none)
    }

    @Test func aDroppedTransferEndsOnce() {
        var sender = RelaySender(threshold: 1, chunkSize: 4)
        _ = sender.received(bytes(3))
        let first = sender.drop(.requestorDestroyed)
        let second = sender.drop(.requestorIdle)
        #expect(first && !second)
        #expect(sender.ending == .dropped(.requestorDestroyed))
        #expect(sender.bufferedBytes == 0)
        #expect(sender.producerEnded() == .none)
    }

    /// Linear in the bytes relayed: many small pieces are joined into chunks without quadratic copying.
    @Test func manySmallPiecesAreJoinedIntoChunks() {
        var sender = RelaySender(threshold: 0, chunkSize: 1000)
        var written = 0
        #expect(sender.received(bytes(1)) == .announce(lowerBound: 1))
        for _ in 0..<9_999 { _ = sender.received(bytes(1)) }
        while case .sendChunk(let chunk) = sender.propertyDeleted() { written += chunk.count }
        #expect(written == 10_000)
    }
}
