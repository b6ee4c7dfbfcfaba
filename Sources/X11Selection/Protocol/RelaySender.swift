import FoundationEssentials

/// The owner side of a relayed conversion, as a pure state machine: the bytes come from a producer while they
/// are served (another display's selection, read as it streams), so neither their size nor their end is known
/// when the request arrives.
///
/// collecting → (whole reply | streaming) → ended.
/// - While **collecting**, bytes are kept. If the producer ends with at most `threshold` bytes, the reply is
///   written whole, with the producer's type: a requestor without INCR support still gets small replies. If
///   the producer fails first, the request is refused — the requestor sees a refusal, never part of the data.
/// - Past `threshold` the transfer goes **streaming** (ICCCM 2.7.2): the INCR header is written (its value, a
///   lower bound of the size, is what has arrived so far) and each deletion of the property by the requestor
///   takes the next chunk of what has arrived. Chunks wait for whichever side is slower: the requestor (its
///   deletion) or the producer (its bytes).
/// - If the producer fails while streaming, the transfer stops *without* the zero-length end marker: ICCCM has
///   no way to report an error mid-INCR, and the end marker would present a truncated transfer as complete.
///   The requestor times out on its own (every toolkit bounds an INCR wait; xclip and xsel do not).
struct RelaySender: Sendable, Equatable {
    /// What to do after an event.
    enum Step: Sendable, Equatable {
        /// Nothing to write now.
        case none
        /// Write these bytes as the whole reply and notify success.
        case replyWhole(Data)
        /// Refuse the request (notify with property None).
        case refuse
        /// Write the INCR header with this lower bound of the size, notify success, then wait for the deletion.
        case announce(lowerBound: Int)
        /// Write this chunk (after the requestor deleted the previous one).
        case sendChunk(Data)
        /// Write the zero-length property that ends the transfer; it is then complete.
        case sendEnd
    }

    enum Phase: Sendable, Equatable {
        case collecting
        /// INCR underway; `propertyPending`: the header or a chunk is on the requestor's property, not yet
        /// deleted.
        case streaming(propertyPending: Bool)
        case ended(Ending)
    }

    /// How a relayed transfer ended.
    enum Ending: Sendable, Equatable {
        /// Every byte was written (whole, or INCR with its end marker).
        case completed
        /// The producer failed before any reply: the request was refused.
        case refused
        /// The transfer stopped short, for this reason.
        case dropped(IncrementalSender.DropCause)
    }

    let threshold: Int
    let chunkSize: Int
    /// Format 16/32 items are never split across chunks.
    let itemSize: Int
    /// UTF-8 text: a chunk never ends inside a character while more may follow (``UTF8ChunkBoundary``).
    let keepsCharactersWhole: Bool
    private(set) var phase = Phase.collecting
    private var queue: [Data] = []
    /// The first piece of `queue` not yet taken.
    private var head = 0
    /// Bytes received and not yet written.
    private(set) var bufferedBytes = 0
    /// Bytes written to the requestor so far.
    private(set) var sentBytes = 0
    /// The producer has delivered its last byte.
    private(set) var producerFinished = false

    init(threshold: Int, chunkSize: Int, itemSize: Int = 1, keepsCharactersWhole: Bool = false) {
        precondition(threshold >= 0 && chunkSize > 0 && itemSize > 0)
        self.threshold = threshold
        self.itemSize = itemSize
        self.keepsCharactersWhole = keepsCharactersWhole
        self.chunkSize = max(itemSize, chunkSize - chunkSize % itemSize)
    }

    var ending: Ending? {
        if case .ended(let ending) = phase { return ending }
        return nil
    }

    /// The requestor holds the current property (the header or a chunk): an idle timeout is the requestor's.
    var awaitsRequestor: Bool { phase == .streaming(propertyPending: true) }

    /// The producer sent `bytes`.
    mutating func received(_ bytes: Data) -> Step {
        guard ending == nil, !producerFinished, !bytes.isEmpty else { return .none }
        queue.append(bytes)
        bufferedBytes += bytes.count
        switch phase {
        case .collecting:
            guard bufferedBytes > threshold else { return .none }
            phase = .streaming(propertyPending: true)
            return .announce(lowerBound: bufferedBytes)
        case .streaming(propertyPending: false):
            return nextChunk()
        case .streaming, .ended:
            return .none
        }
    }

    /// The producer delivered everything.
    mutating func producerEnded() -> Step {
        guard ending == nil, !producerFinished else { return .none }
        producerFinished = true
        switch phase {
        case .collecting:
            phase = .ended(.completed)
            let whole = take(bufferedBytes)
            return .replyWhole(whole)
        case .streaming(propertyPending: false):
            return nextChunk()
        case .streaming, .ended:
            return .none
        }
    }

    /// The producer failed: refuse while collecting; mid-INCR stop without an end marker (see the type's notes).
    mutating func producerFailed() -> Step {
        guard ending == nil else { return .none }
        queue.removeAll()
        head = 0
        bufferedBytes = 0
        if phase == .collecting {
            phase = .ended(.refused)
            return .refuse
        }
        phase = .ended(.dropped(.sourceUnreadable))
        return .none
    }

    /// The requestor deleted the property (it took the header or the last chunk).
    mutating func propertyDeleted() -> Step {
        guard phase == .streaming(propertyPending: true) else { return .none }
        phase = .streaming(propertyPending: false)
        return nextChunk()
    }

    /// Stops the transfer for `cause`. Returns false when it had ended already (each transfer ends once).
    mutating func drop(_ cause: IncrementalSender.DropCause) -> Bool {
        guard ending == nil else { return false }
        queue.removeAll()
        head = 0
        bufferedBytes = 0
        phase = .ended(.dropped(cause))
        return true
    }

    /// With the property free: the next chunk when there is one, the end marker when the producer is done,
    /// otherwise wait for the producer.
    private mutating func nextChunk() -> Step {
        var length = min(chunkSize, bufferedBytes)
        if !producerFinished { length -= length % itemSize }
        if length > 0 {
            var chunk = take(length)
            if keepsCharactersWhole, !(producerFinished && bufferedBytes == 0) {
                // The character the chunk ends inside goes with the next chunk. Bytes that are nothing but the start
                // of one character wait for the producer's next ones; a chunk too small to hold a whole character
                // goes as it is.
                let tail = UTF8ChunkBoundary.incompleteTail(of: chunk)
                if tail > 0 && tail < chunk.count {
                    giveBack(chunk.suffix(tail))
                    chunk = chunk.prefix(chunk.count - tail)
                } else if tail > 0 && chunk.count < chunkSize && !producerFinished {
                    giveBack(chunk)
                    return .none
                }
            }
            phase = .streaming(propertyPending: true)
            return .sendChunk(chunk)
        }
        guard producerFinished else { return .none }
        phase = .ended(.completed)
        return .sendEnd
    }

    /// Puts `bytes`, just taken, back in front of the buffered ones.
    private mutating func giveBack(_ bytes: Data) {
        guard !bytes.isEmpty else { return }
        if head > 0 {
            head -= 1
            queue[head] = bytes  // a slot `take` emptied
        } else {
            queue.insert(bytes, at: 0)
        }
        bufferedBytes += bytes.count
        sentBytes -= bytes.count
    }

    /// The first `count` buffered bytes, joined (a single buffered piece is handed over without a copy).
    /// Pieces are consumed from `head` and the array compacted once half of it is consumed, so taking is
    /// linear in the bytes however small the pieces.
    private mutating func take(_ count: Int) -> Data {
        guard count > 0 else { return Data() }
        bufferedBytes -= count
        sentBytes += count
        var result: Data?
        var remaining = count
        while remaining > 0 {
            let piece = queue[head]
            if piece.count <= remaining {
                if result == nil && piece.count == count {
                    result = piece
                } else {
                    if result == nil { result = Data(capacity: count) }
                    result!.append(piece)
                }
                remaining -= piece.count
                queue[head] = Data()  // taken: its bytes must not stay alive until the array is compacted
                head += 1
            } else {
                if result == nil { result = Data(capacity: count) }
                result!.append(piece.prefix(remaining))
                queue[head] = piece.dropFirst(remaining)
                remaining = 0
            }
        }
        if head == queue.count {
            queue.removeAll(keepingCapacity: true)
            head = 0
        } else if head > 64 && head * 2 > queue.count {
            queue.removeFirst(head)
            head = 0
        }
        return result ?? Data()
    }
}
