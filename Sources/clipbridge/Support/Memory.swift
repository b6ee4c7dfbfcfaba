// ClipBridge — the clipbridge command-line tool.
// The allocator policy of a process that moves data in chunks.

import CMalloc
import Glibc

/// glibc malloc settings for clipbridge's processes.
enum Memory {
    /// Keeps freed memory in the heap for the next allocation instead of returning it to the kernel.
    ///
    /// A paste receives an INCR transfer as a run of chunks of one size (about 1 MiB from xclip), and
    /// each chunk lands in a buffer of that size (XCB's reply; Xlib's own copy before X11Selection read
    /// properties through XCB).
    /// With glibc's defaults the heap grows for each chunk and is trimmed again when it is freed, so
    /// every chunk lands in fresh pages the kernel faults in one by one: a 64 MiB paste took 31,000 page
    /// faults against xclip's 18,000, and 1.25× xclip's time. Fixed thresholds keep the chunks in the
    /// heap (up to 32 MiB each, glibc's maximum for M_MMAP_THRESHOLD) and never trim below 64 MiB; what
    /// a process keeps is bounded by its largest working set, which the memory tests already bound.
    static func keepFreedChunks() {
        _ = mallopt(M_MMAP_THRESHOLD, 32 << 20)
        _ = mallopt(M_TRIM_THRESHOLD, 64 << 20)
    }

    /// One heap for the whole process, for a long-running relay (`clipbridge bridge`).
    ///
    /// A relayed chunk is allocated on one connection's thread and freed on another's, and glibc gives each
    /// thread that allocates an arena of its own, each keeping what it once held (see `keepFreedChunks`):
    /// relaying 50 MiB each way left the bridge's peak 34 MiB above its start with the default arenas, 18 MiB
    /// with one (the two directions reuse the same free chunks). The bridge allocates little else, so the lock
    /// contention one arena brings does not show.
    static func oneArena() {
        _ = mallopt(M_ARENA_MAX, 1)
    }
}
