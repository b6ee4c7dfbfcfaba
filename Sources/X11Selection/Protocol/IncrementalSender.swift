/// The owner side of one INCR transfer (ICCCM 2.7.2), as a pure state machine.
///
/// The owner first writes a property of type INCR whose value is a lower bound of the size, and sends
/// SelectionNotify. Each time the requestor deletes the property the owner writes the next chunk; after
/// the last chunk it writes a zero-length property, which ends the transfer.
///
/// announced → sending → ended: ``Ending/completed`` when the end marker was written after every byte;
/// ``Ending/dropped(_:)`` with its ``DropCause`` when the transfer stopped short. (The request before it is
/// decided by `SelectionRequestPolicy`.)
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
        /// The transfer is over, as `Ending` says.
        case ended(Ending)
    }

    /// How a transfer ended.
    enum Ending: Sendable, Equatable {
        /// Every byte was sent, then the end marker.
        case completed
        /// The transfer stopped short.
        case dropped(DropCause)
    }

    /// Why a transfer stopped short.
    enum DropCause: Sendable, Equatable, CustomStringConvertible {
        /// The requestor's window was destroyed (DestroyNotify).
        case requestorDestroyed
        /// A request about the requestor's window failed with BadWindow: it is gone (it went before its
        /// DestroyNotify could reach us, or we were not watching it yet).
        case requestorVanished
        /// The requestor stopped deleting the property for longer than the idle timeout (ICCCM leaves the
        /// owner to decide how long to wait; a requestor that died without its window going away looks so).
        case requestorIdle
        /// The payload could not be read to its end (a file that shrank or failed); the end marker was written
        /// after what was sent, so the requestor gets a short, well-formed transfer.
        case sourceUnreadable
        /// The requestor asked again into the same property, which replaces this transfer.
        case superseded

        var description: String {
            switch self {
            case .requestorDestroyed: "the requestor window was destroyed"
            case .requestorVanished: "the requestor window vanished (BadWindow)"
            case .requestorIdle: "the requestor stopped reading (idle timeout)"
            case .sourceUnreadable: "the source could not be read to its end"
            case .superseded: "replaced by a new request for the same property"
            }
        }
    }

    let totalSize: Int
    /// The size of the next chunk: `chunkSize` at first; see ``propertyDeleted(after:)`` for how it grows.
    private(set) var chunkSize: Int
    let maximumChunkSize: Int
    private let itemSize: Int
    /// UTF-8 text: a chunk never ends inside a character while more follows (``UTF8ChunkBoundary``).
    let keepsCharactersWhole: Bool
    private(set) var offset = 0
    private(set) var phase = Phase.announced
    /// The chunk size is final: growing it stopped paying (or reached the maximum).
    private(set) var isSettled = false
    /// The length of the chunk whose deletion comes next.
    private var lastLength = 0
    /// The best rate (bytes per second) the requestor took chunks of the current size at, and how many of them.
    private var rateAtSize: Double = 0
    private var samplesAtSize = 0
    /// The best rate at the size before (nil at the first size).
    private var rateAtPreviousSize: Double?

    /// Chunks measured at each size before deciding whether to grow (the fastest of them counts: a burst of
    /// load elsewhere slows one chunk, not both).
    static let samplesPerSize = 2
    /// How much faster the requestor must take a doubled chunk for the doubling to stay.
    static let growthGain = 1.1

    /// Chunk sizes are rounded down to a multiple of `itemSize` (format 16/32 items are never split).
    ///
    /// Why chunk sizes adapt: every chunk costs the requestor one turn of its loop (a PropertyNotify, a
    /// GetProperty, a delete). Measured per 128 KiB chunk on a 2-CPU VM (owner write to requestor delete): a C
    /// requestor 82 µs, GTK 4 157 µs, python-xlib 242 µs, Qt 5 302 µs. A toolkit pays a fixed cost per turn, so
    /// larger chunks make it faster (with fixed 128 KiB chunks GTK 4, Qt 5 and python-xlib read 50 MiB
    /// 1.2–1.6× slower from us than from xclip's 1 MiB chunks); a C loop pays per byte, and chunks larger than
    /// the cache make it slower (1 MiB chunks: 0.69× its speed with 128 KiB). So the sender measures: it
    /// doubles the chunk while the doubled chunk is taken more than `growthGain` faster, in bytes per second,
    /// than the size before; when it is not, it goes back to that size and keeps it.
    init(totalSize: Int, chunkSize: Int, maximumChunkSize: Int? = nil, itemSize: Int = 1, keepsCharactersWhole: Bool = false) {
        precondition(totalSize >= 0 && chunkSize > 0 && itemSize > 0)
        self.totalSize = totalSize
        self.itemSize = itemSize
        self.keepsCharactersWhole = keepsCharactersWhole
        self.chunkSize = max(itemSize, chunkSize - chunkSize % itemSize)
        let maximum = max(self.chunkSize, maximumChunkSize ?? self.chunkSize)
        self.maximumChunkSize = max(itemSize, maximum - maximum % itemSize)
        isSettled = self.maximumChunkSize == self.chunkSize
    }

    /// The value of the INCR header: a lower bound of the size (ICCCM), clamped to 32 bits.
    var announcedSize: UInt { UInt(min(totalSize, Int(UInt32.max))) }

    var isFinished: Bool { ending != nil }

    /// How the transfer ended; nil while it runs.
    var ending: Ending? {
        if case .ended(let ending) = phase { return ending }
        return nil
    }

    /// The requestor deleted the property. `elapsed`: how long it took to take the chunk, from the write
    /// (flushed) to the deletion reaching us; nil when the driver did not measure it (no adaptation).
    mutating func propertyDeleted(after elapsed: Duration? = nil) -> Step {
        switch phase {
        case .announced, .sending:
            if phase == .sending, let elapsed { measure(lastLength, took: elapsed) }
            if offset < totalSize {
                let length = min(chunkSize, totalSize - offset)
                defer { offset += length }
                phase = .sending
                lastLength = length
                return .sendChunk(offset: offset, length: length)
            }
            phase = .ended(.completed)
            return .sendEnd
        case .ended:
            return .none
        }
    }

    /// The bytes of the chunk ``propertyDeleted(after:)`` just asked for (`slice`: its `length` bytes from `offset`)
    /// as they go on the wire: for UTF-8 text (`keepsCharactersWhole`), short of the leading bytes of a character
    /// whose rest is in the next chunk — they start that one, so that each chunk decodes alone (Tk decodes each
    /// chunk by itself: issue 38). Its pace is still measured as a chunk of the full size, which it is to within
    /// three bytes.
    mutating func wireChunk<Bytes: BidirectionalCollection<UInt8>>(_ slice: Bytes) -> Bytes.SubSequence {
        precondition(phase == .sending && slice.count == lastLength)
        guard keepsCharactersWhole, offset < totalSize else { return slice[...] }
        let tail = UTF8ChunkBoundary.incompleteTail(of: slice)
        // A chunk that is all one unfinished character (never, at 4 KiB or more) goes as it is.
        guard tail > 0, tail < slice.count else { return slice[...] }
        offset -= tail
        return slice.dropLast(tail)
    }

    /// Records how fast a chunk of `length` bytes was taken, and grows, keeps or settles the chunk size.
    private mutating func measure(_ length: Int, took elapsed: Duration) {
        // Only whole chunks of the current size say anything about it (not the short last one).
        guard !isSettled, length == chunkSize else { return }
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        guard seconds > 0 else { return }
        rateAtSize = max(rateAtSize, Double(length) / seconds)
        samplesAtSize += 1
        guard samplesAtSize >= Self.samplesPerSize else { return }
        if let previous = rateAtPreviousSize, rateAtSize < previous * Self.growthGain {
            // Doubling did not pay: back to the size before, for good.
            chunkSize = itemAligned(chunkSize / 2)
            isSettled = true
            return
        }
        if chunkSize >= maximumChunkSize {
            isSettled = true
            return
        }
        rateAtPreviousSize = rateAtSize
        rateAtSize = 0
        samplesAtSize = 0
        chunkSize = itemAligned(min(chunkSize * 2, maximumChunkSize))
    }

    private func itemAligned(_ size: Int) -> Int { max(itemSize, size - size % itemSize) }

    /// The payload could not give the chunk ``propertyDeleted(after:)`` asked for: end the transfer now with
    /// what was sent. Returns the step to take (the end marker), or `.none` when it had ended already.
    mutating func sourceFailed() -> Step {
        guard ending == nil else { return .none }
        phase = .ended(.dropped(.sourceUnreadable))
        return .sendEnd
    }

    /// Stops the transfer for `cause` (nothing more is written). Returns false when it had ended already, so
    /// each transfer ends, and is reported, once.
    mutating func drop(_ cause: DropCause) -> Bool {
        guard ending == nil else { return false }
        phase = .ended(.dropped(cause))
        return true
    }

    /// Sizes above this go INCR: 256 KiB, or less when one request of the server carries less.
    ///
    /// Not the server's limit (16 MiB with BIG-REQUESTS): several readers take a reply in one property only up to a
    /// fixed size, and ICCCM §2.7.2 lets an owner answer INCR for any size ("Requestors may receive a property of
    /// type INCR in response to any target that results in selection data"). The readers' limits, from their
    /// sources:
    /// - Tk 8.6 reads one property of at most `MAX_PROP_WORDS` = 100,000 words, 400,000 bytes, and fails with
    ///   "selection property too large" when bytes remain (`unix/tkUnixSelect.c`, `TkSelEventProc`).
    /// - Java's AWT reads `XSelection.MAX_LENGTH` = 1,000,000 words and never looks at `bytes_after`: a larger
    ///   reply is cut to exactly 4,000,000 bytes (`sun/awt/X11/XSelection.java`, `getData`). xsel reads 1,000,000
    ///   words too, and ignores the rest (`xsel.c`, `get_append_property`).
    /// - GTK 3 and 4, Qt 5, xclip and python-xlib's `get_full_property` read any size.
    ///
    /// 256 KiB is below all of them, and is what GTK 3 and 4 send in one property before they go INCR
    /// (`gdk_x11_display_get_max_request_size`, at most 262,144 bytes; Java's owner uses 262,040): the size these
    /// readers already meet from the owners they were written against. A ChangeProperty carries a 24-byte header
    /// (plus 4 bytes of BIG-REQUESTS length), and some slack keeps a reply clear of a small server's limit.
    static func threshold(maximumRequestBytes: Int) -> Int {
        min(readerSafeReplyBytes, max(maximumRequestBytes - 64, 4096))
    }

    /// The largest reply every known reader takes whole in one property (see ``threshold(maximumRequestBytes:)``).
    static let readerSafeReplyBytes = 256 * 1024
}
