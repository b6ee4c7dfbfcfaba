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
/// The buffers are anonymous mappings of their own, so they do not move glibc's thresholds either, in size
/// classes (the chunk size rounded up to a power of two: the usual 128 KiB chunk takes a 128 KiB buffer). A
/// chunk's `Data` returns its buffer when the last copy of it is released (a sink may keep it as long as it
/// likes); idle buffers are kept up to `keptBytes` in all, enough for a streamed read's whole buffer
/// (`Configuration.streamBufferLimit`, 4 MiB by default), and unmapped beyond.
final class ChunkBufferPool: Sendable {
    static let shared = ChunkBufferPool()

    /// Chunks from this size up are copied (smaller ones come from glibc's bins without trimming).
    static let minimumPooledSize = 16 * 1024
    /// The largest buffer; larger chunks keep Xlib's buffer.
    static let bufferSize = 256 * 1024
    private static let keptBytes = 4 * 1024 * 1024

    /// An idle buffer: an anonymous mapping of `capacity` bytes that nothing references.
    private struct Buffer: @unchecked Sendable {
        let address: UnsafeMutableRawPointer
        let capacity: Int
    }

    private struct Idle {
        var buffers: [Int: [Buffer]] = [:]
        var bytes = 0
    }

    private let idle = Mutex(Idle())

    /// A copy of `bytes` in a pooled buffer, or nil when the size is not pooled or no memory is left.
    func copy(_ bytes: UnsafeRawBufferPointer) -> Data? {
        guard bytes.count >= Self.minimumPooledSize, bytes.count <= Self.bufferSize, let source = bytes.baseAddress
        else { return nil }
        let capacity = Self.capacity(for: bytes.count)
        let reused = idle.withLock { idle -> Buffer? in
            guard let buffer = idle.buffers[capacity]?.popLast() else { return nil }
            idle.bytes -= capacity
            return buffer
        }
        guard let buffer = reused ?? Self.map(capacity) else { return nil }
        buffer.address.copyMemory(from: source, byteCount: bytes.count)
        return Data(bytesNoCopy: buffer.address, count: bytes.count, deallocator: .custom { [self] pointer, _ in
            recycle(Buffer(address: pointer, capacity: capacity))
        })
    }

    /// The size class of a chunk: the next power of two.
    private static func capacity(for count: Int) -> Int {
        1 << (Int.bitWidth - (count - 1).leadingZeroBitCount)
    }

    private func recycle(_ buffer: Buffer) {
        let kept = idle.withLock { idle -> Bool in
            guard idle.bytes + buffer.capacity <= Self.keptBytes else { return false }
            idle.buffers[buffer.capacity, default: []].append(buffer)
            idle.bytes += buffer.capacity
            return true
        }
        if !kept { munmap(buffer.address, buffer.capacity) }
    }

    private static func map(_ capacity: Int) -> Buffer? {
        let address = mmap(nil, capacity, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
        guard let address, address != MAP_FAILED else { return nil }
        return Buffer(address: address, capacity: capacity)
    }
}
