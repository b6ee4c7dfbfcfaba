import FoundationEssentials

/// When the bytes of an X owner's content, read as it streams, are written to a Wayland requestor's pipe.
///
/// A Wayland transfer has no way to say it failed: the end of the pipe is its only end marker (wayland.xml,
/// `wl_data_offer.receive`: "the data is transferred … and the sending client closes the file descriptor"), so
/// bytes written before an X owner dies mid-INCR would read as the whole content — wrong bytes, with the requestor's
/// success. ICCCM's INCR (ICCCM 2.7.2) can at least leave out its end marker; a pipe cannot.
///
/// So the first ``limit`` bytes are held back until the X read ends or passes them: content up to the limit — text,
/// HTML, file lists, most images — reaches the requestor whole or not at all (the pipe closes empty when the read
/// fails). Only larger content is streamed, with at most ``limit`` bytes held at once; it can end short if its X
/// owner fails after the limit, which the bridge then reports as failed.
package struct WaylandWriteHoldback: Sendable {
    /// The bytes held back before streaming starts.
    package let limit: Int
    private var held: [Data] = []
    private var heldBytes = 0
    /// Past the limit: each chunk is written as it comes.
    package private(set) var isStreaming = false

    /// The bridge's limit: 8 MiB, held per transfer.
    package static let defaultLimit = 8 << 20

    package init(limit: Int = defaultLimit) {
        self.limit = limit
    }

    /// Takes the next chunk read; returns what to write now, in order (nothing while the total is within the limit).
    package mutating func take(_ chunk: Data) -> [Data] {
        if isStreaming { return chunk.isEmpty ? [] : [chunk] }
        if !chunk.isEmpty {
            held.append(chunk)
            heldBytes += chunk.count
        }
        guard heldBytes > limit else { return [] }
        isStreaming = true
        return release()
    }

    /// The read ended complete: what is left to write. (After a failed read nothing is written: the holdback is
    /// dropped, and the pipe closes with what was streamed, if anything.)
    package mutating func finish() -> [Data] {
        release()
    }

    private mutating func release() -> [Data] {
        let out = held
        held = []
        heldBytes = 0
        return out
    }
}
