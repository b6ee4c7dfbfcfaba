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
    let chunkSize: Int
    private(set) var offset = 0
    private(set) var phase = Phase.announced

    /// `chunkSize` is rounded down to a multiple of `itemSize` (format 16/32 items are never split).
    init(totalSize: Int, chunkSize: Int, itemSize: Int = 1) {
        precondition(totalSize >= 0 && chunkSize > 0 && itemSize > 0)
        self.totalSize = totalSize
        self.chunkSize = max(itemSize, chunkSize - chunkSize % itemSize)
    }

    /// The value of the INCR header: a lower bound of the size (ICCCM), clamped to 32 bits.
    var announcedSize: UInt { UInt(min(totalSize, Int(UInt32.max))) }

    var isFinished: Bool { phase == .ended }

    /// The requestor deleted the property.
    mutating func propertyDeleted() -> Step {
        switch phase {
        case .announced, .sending:
            if offset < totalSize {
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
