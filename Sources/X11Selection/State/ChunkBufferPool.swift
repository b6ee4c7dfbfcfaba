import FoundationEssentials
import Glibc
import Synchronization

/// Reusable buffers for the chunks of streamed reads, so that receiving a large INCR transfer does not
/// fault in fresh memory for every chunk.
///
/// Why: Xlib returns each property in a buffer it `malloc`s. A streamed read hands its chunks to a sink
/// that runs later, so several 128 KiB buffers are alive at once; when they are freed, glibc's heap top
/// outgrows its (dynamic) trim threshold and is returned to the kernel, and the next chunks fault the pages
/// in again. Receiving 512 MiB took 88,000–96,000 page faults that way (`perf stat -e page-faults` on
/// `clipbridge-bench requestor`; the C requestor, which frees each chunk at once: 258) and about a third of
/// the requestor's CPU time. Copying each chunk into one of a few recycled buffers and freeing Xlib's buffer
/// at once costs one `memcpy` and keeps Xlib's `malloc` pattern that of a single-threaded client.
///
/// The buffers are anonymous mappings of their own, so they do not move glibc's thresholds either. A
/// chunk's `Data` returns its buffer when the last copy of it is released (a sink may keep it as long as it
/// likes); at most `keptBuffers` idle buffers are kept, the rest are unmapped.
final class ChunkBufferPool: Sendable {
    static let shared = ChunkBufferPool()

    /// Chunks from this size up are copied (smaller ones come from glibc's bins without trimming).
    static let minimumPooledSize = 16 * 1024
    /// The capacity of each buffer; larger chunks keep Xlib's buffer.
    static let bufferSize = 256 * 1024
    private static let keptBuffers = 8

    /// An idle buffer's address (an anonymous mapping of `bufferSize` bytes that nothing references).
    private struct Buffer: @unchecked Sendable {
        let address: UnsafeMutableRawPointer
    }

    private let idle = Mutex<[Buffer]>([])

    /// A copy of `bytes` in a pooled buffer, or nil when the size is not pooled or no memory is left.
    func copy(_ bytes: UnsafeRawBufferPointer) -> Data? {
        guard bytes.count >= Self.minimumPooledSize, bytes.count <= Self.bufferSize, let source = bytes.baseAddress
        else { return nil }
        guard let buffer = idle.withLock({ $0.popLast() }) ?? Self.map() else { return nil }
        buffer.address.copyMemory(from: source, byteCount: bytes.count)
        return Data(bytesNoCopy: buffer.address, count: bytes.count, deallocator: .custom { [self] pointer, _ in
            recycle(Buffer(address: pointer))
        })
    }

    private func recycle(_ buffer: Buffer) {
        let kept = idle.withLock { idle -> Bool in
            guard idle.count < Self.keptBuffers else { return false }
            idle.append(buffer)
            return true
        }
        if !kept { munmap(buffer.address, Self.bufferSize) }
    }

    private static func map() -> Buffer? {
        let address = mmap(nil, bufferSize, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
        guard let address, address != MAP_FAILED else { return nil }
        return Buffer(address: address)
    }
}
