import Foundation
import Testing
@testable import X11Selection

/// `ChunkBufferPool`: streamed chunks copied into recycled buffers, each buffer reused only once no `Data`
/// refers to it any more.
@Suite struct ChunkBufferPoolTests {
    private func bytes(_ count: Int, seed: UInt8) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ Int(seed)) }
    }

    private func address(_ data: Data) -> UInt {
        data.withUnsafeBytes { UInt(bitPattern: $0.baseAddress) }
    }

    @Test func copiesTheBytesExactly() throws {
        let pool = ChunkBufferPool()
        for size in [ChunkBufferPool.minimumPooledSize, 128 * 1024, ChunkBufferPool.bufferSize] {
            let source = bytes(size, seed: 7)
            let copy = try #require(source.withUnsafeBytes { pool.copy($0) })
            #expect(copy.count == size)
            #expect(copy.elementsEqual(source))
        }
    }

    @Test func leavesSmallAndLargeChunksAlone() {
        let pool = ChunkBufferPool()
        #expect(bytes(ChunkBufferPool.minimumPooledSize - 1, seed: 1).withUnsafeBytes { pool.copy($0) } == nil)
        #expect(bytes(ChunkBufferPool.bufferSize + 1, seed: 1).withUnsafeBytes { pool.copy($0) } == nil)
    }

    @Test func reusesABufferOnceItsDataIsReleased() throws {
        let pool = ChunkBufferPool()
        var first: Data? = bytes(64 * 1024, seed: 2).withUnsafeBytes { pool.copy($0) }
        let firstAddress = address(try #require(first))
        first = nil
        let second = try #require(bytes(64 * 1024, seed: 3).withUnsafeBytes { pool.copy($0) })
        #expect(address(second) == firstAddress)
        #expect(second.elementsEqual(bytes(64 * 1024, seed: 3)))
    }

    @Test func neverHandsOutABufferThatIsStillReferenced() throws {
        let pool = ChunkBufferPool()
        let kept = try #require(bytes(100_000, seed: 4).withUnsafeBytes { pool.copy($0) })
        for round in 0..<20 {
            let other = try #require(bytes(100_000, seed: UInt8(10 + round)).withUnsafeBytes { pool.copy($0) })
            #expect(address(other) != address(kept))
        }
        #expect(kept.elementsEqual(bytes(100_000, seed: 4)))
    }
}
