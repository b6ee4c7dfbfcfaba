/// The owner side of one INCR transfer (ICCCM 2.7.2), as a pure state machine.
///
/// The owner first writes a property of type INCR whose value is a lower bound of the size, and sends
/// SelectionNotify. Each time the requestor deletes the property the owner writes the next chunk; after
/// the last chunk it writes a zero-length property, which ends the transfer.
struct IncrementalSender: Sendable, Equatable {
    /// What to write after the requestor deleted the property.
    enum Step: Sendable, Equatable {
        /// Write bytes `offset ..< offset + length` of the payload.
        case sendChunk(offset: Int, length: Int)
        /// Write the zero-length property that ends the transfer; the transfer is then complete.
        case sendEnd
        /// Nothing left to do (a deletion after the end marker).
        case none
    }

    enum Phase: Sendable, Equatable {
        /// INCR header written; waiting for the requestor to delete it.
        case announced
        /// Some chunks sent.
        case sending
        /// The zero-length end marker was written.
        case ended
    }

    let totalSize: Int
    /// The size of the next chunk: `initialChunkSize` first, doubled each time the requestor takes a chunk,
    /// up to `maximumChunkSize`.
    private(set) var chunkSize: Int
    let maximumChunkSize: Int
    private let itemSize: Int
    private(set) var offset = 0
    private(set) var phase = Phase.announced

    /// Chunk sizes are rounded down to a multiple of `itemSize` (format 16/32 items are never split).
    ///
    /// Why chunks grow: every chunk costs the requestor one turn of its event loop (a PropertyNotify, a
    /// GetProperty, a delete). A tight C loop turns in microseconds and is best served small chunks that keep
    /// both sides busy; a toolkit (GTK 4, Qt 5) or a Python client pays far more per turn, so 128 KiB chunks
    /// made them read 50 MiB 1.2–1.6× slower from us than from xclip (1 MiB chunks). A requestor that takes
    /// chunk after chunk is clearly there for all of it: each one it takes doubles the next, up to
    /// `maximumChunkSize` (what one ChangeProperty may carry).
    init(totalSize: Int, chunkSize: Int, maximumChunkSize: Int? = nil, itemSize: Int = 1) {
        precondition(totalSize >= 0 && chunkSize > 0 && itemSize > 0)
        self.totalSize = totalSize
        self.itemSize = itemSize
        self.chunkSize = max(itemSize, chunkSize - chunkSize % itemSize)
        let maximum = max(self.chunkSize, maximumChunkSize ?? self.chunkSize)
        self.maximumChunkSize = max(itemSize, maximum - maximum % itemSize)
    }

    /// The value of the INCR header: a lower bound of the size (ICCCM), clamped to 32 bits.
    var announcedSize: UInt { UInt(min(totalSize, Int(UInt32.max))) }

    var isFinished: Bool { phase == .ended }

    /// The requestor deleted the property.
    mutating func propertyDeleted() -> Step {
        switch phase {
        case .announced, .sending:
            if offset < totalSize {
                if phase == .sending && chunkSize < maximumChunkSize {
                    // The requestor took the previous chunk: the next one may be bigger.
                    let doubled = min(chunkSize * 2, maximumChunkSize)
                    chunkSize = max(itemSize, doubled - doubled % itemSize)
                }
                let length = min(chunkSize, totalSize - offset)
                defer { offset += length }
                phase = .sending
                return .sendChunk(offset: offset, length: length)
            }
            phase = .ended
            return .sendEnd
        case .ended:
            return .none
        }
    }

    /// The payload source ended early (a file shrank while being sent): end the transfer now.
    mutating func truncate() {
        phase = .ended
    }

    /// Sizes above this go INCR. Derived from the server's maximum request size (in bytes): a
    /// ChangeProperty request carries a 24-byte header plus 4 bytes of BIG-REQUESTS length, and some slack
    /// keeps us clear of the limit (xclip uses the limit itself, Qt subtracts 24 or 28).
    static func threshold(maximumRequestBytes: Int) -> Int {
        max(maximumRequestBytes - 64, 4096)
    }
}
