import FoundationEssentials
import Glibc

/// Where a served payload's bytes come from.
enum Payload {
    case bytes(Data)
    /// An open file descriptor (closed when the transfer ends) and the size taken when serving began.
    case file(descriptor: Int32, size: Int)

    var size: Int {
        switch self {
        case .bytes(let data): return data.count
        case .file(_, let size): return size
        }
    }

    /// Bytes `offset ..< offset + length`; for files a `pread`, which may come back short if the file shrank.
    func slice(offset: Int, length: Int) -> Data? {
        switch self {
        case .bytes(let data):
            let start = data.startIndex + offset
            return data[start..<(start + length)]
        case .file(let descriptor, _):
            // Into uninitialised memory: `Data(count:)` would zero every chunk first, a pass over each byte
            // that the read overwrites at once.
            guard length > 0 else { return Data() }
            guard let buffer = malloc(length) else { return nil }
            var done = 0
            while done < length {
                let count = pread(descriptor, buffer + done, length - done, off_t(offset + done))
                if count < 0 && errno == EINTR { continue }
                if count <= 0 {
                    free(buffer)
                    return nil
                }
                done += count
            }
            return Data(bytesNoCopy: buffer, count: length, deallocator: .free)
        }
    }

    func close() {
        if case .file(let descriptor, _) = self {
            _ = Glibc.close(descriptor)
        }
    }
}

/// A requestor's window and property: the key of one incremental transfer (GTK keys its output streams
/// the same way; xclip keys by window only and xsel by property only, which lets transfers collide).
struct TransferKey: Hashable, Sendable {
    var requestor: X11Window
    var property: X11Atom
}

/// One INCR transfer this connection serves (owner side).
final class OutgoingTransfer {
    let key: TransferKey
    let claimID: UInt64
    let target: SelectionTarget
    let type: X11Atom
    let format: Int
    let payload: Payload
    var sender: IncrementalSender
    /// When the last chunk was written (and flushed, at the end of that loop turn): the requestor's pace is
    /// measured from here to its deletion (`IncrementalSender.propertyDeleted(after:)`).
    var chunkWrittenAt: ContinuousClock.Instant?

    init(key: TransferKey, claimID: UInt64, target: SelectionTarget, type: X11Atom, format: Int, payload: Payload,
         chunkSize: Int, maximumChunkSize: Int) {
        self.key = key
        self.claimID = claimID
        self.target = target
        self.type = type
        self.format = format
        self.payload = payload
        self.sender = IncrementalSender(
            totalSize: payload.size, chunkSize: chunkSize, maximumChunkSize: maximumChunkSize,
            itemSize: max(1, format / 8), keepsCharactersWhole: UTF8ChunkBoundary.applies(to: target, format: format))
    }
}
