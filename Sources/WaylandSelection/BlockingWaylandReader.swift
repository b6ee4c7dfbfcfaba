import CWaylandShims
import FoundationEssentials
import Glibc

/// A compositor's selection read on the caller's thread, with no event loop and no other thread: what a one-shot
/// paste needs (`clipbridge paste` with no options), where starting ``WaylandConnection``'s loop thread and Swift's
/// task machinery costs more than the paste itself. Every wait has a deadline; the compositor's hang-up ends a read.
///
/// ```swift
/// let reader = try BlockingWaylandReader(display: nil, timeout: .seconds(5))
/// let types = reader.types(of: .clipboard)
/// try reader.read("text/plain;charset=utf-8", from: .clipboard) { bytes in print(bytes.count) }
/// ```
///
/// Not Sendable: one thread uses it, then closes it (or lets it go).
public final class BlockingWaylandReader {
    private var client: OpaquePointer?
    /// How long each wait for the compositor or the owner may take.
    public let timeout: Duration

    /// Connects to `display` (nil: `$WAYLAND_DISPLAY`) and learns the current selections, within `timeout`.
    /// - Throws: ``WaylandError`` naming what is missing: libwayland-client, the compositor, or its data-control
    ///   protocol.
    public init(display: String?, timeout: Duration) throws(WaylandError) {
        self.timeout = timeout
        var code: Int32 = 0
        var message = [CChar](repeating: 0, count: 512)
        client = message.withUnsafeMutableBufferPointer { buffer in
            cw_connect(display, milliseconds(timeout), &code, buffer.baseAddress, buffer.count)
        }
        guard client != nil else {
            let text = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            throw WaylandError(WaylandError.Code(connectResult: code), text)
        }
    }

    deinit { close() }

    /// Disconnects (later calls do nothing).
    public func close() {
        if let client { cw_disconnect(client) }
        client = nil
    }

    /// The MIME types `selection` offers, in its owner's order; none when it is empty.
    public func types(of selection: WaylandSelectionName) -> [String] {
        guard let client else { return [] }
        return (0..<cw_offer_type_count(client, selection.rawValue)).compactMap { index in
            cw_offer_type(client, selection.rawValue, index).map { String(cString: $0) }
        }
    }

    /// Asks the owner of `selection` for `mimeType` and hands `sink` what it writes, as it comes, until it closes its
    /// end. Each wait is bounded by ``timeout``.
    /// - Throws: ``WaylandError``: the type is not offered; the owner silent past the timeout (`.timedOut`); the
    ///   compositor gone (`.connectionLost`, also when it went away as the pipe ended: what came may be cut short);
    ///   or what `sink` throws.
    public func read(
        _ mimeType: String, from selection: WaylandSelectionName, into sink: (UnsafeRawBufferPointer) throws -> Void
    ) throws {
        guard let client else { throw WaylandError(.connectionLost, "the Wayland connection is closed") }
        guard types(of: selection).contains(mimeType) else {
            throw WaylandError(.typeUnavailable, "the Wayland \(selection) does not offer \(mimeType)")
        }
        guard let ends = makePipe(nonblocking: false) else {
            throw WaylandError(.transferFailed, "cannot create a pipe: errno \(errno)")
        }
        let (readEnd, writeEnd) = (ends[0], ends[1])
        defer { Glibc.close(readEnd) }
        enlargePipe(readEnd)
        let asked = cw_receive(client, selection.rawValue, mimeType, writeEnd)
        // The request carries a copy of the write end: ours closes now, so the pipe ends when the owner closes its copy.
        Glibc.close(writeEnd)
        guard asked == Int32(CW_OK) else { throw WaylandError(.connectionLost, "the compositor closed the connection") }
        var buffer = [UInt8](repeating: 0, count: WaylandConnection.chunkBytes)
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(readEnd, $0.baseAddress, $0.count) }
            if count > 0 {
                try buffer.withUnsafeBytes { try sink(UnsafeRawBufferPointer(rebasing: $0.prefix(count))) }
                continue
            }
            if count == 0 { break }
            guard errno == EAGAIN || errno == EINTR else {
                throw WaylandError(.transferFailed, "cannot read the owner's data: errno \(errno)")
            }
            try wait(for: readEnd, selection: selection)
        }
        // The compositor's end closes when it exits, before a source it served can close the pipe: a pipe that ended as
        // the compositor went away may have been cut short.
        var socket = pollfd(fd: cw_fd(client), events: Int16(POLLIN), revents: 0)
        if poll(&socket, 1, 0) > 0 && socket.revents & Int16(POLLHUP | POLLERR) != 0 {
            throw WaylandError(.connectionLost, "the compositor closed the connection during the transfer")
        }
    }

    /// Waits until `pipe` is readable, dispatching what the compositor sends meanwhile (its hang-up ends the wait).
    private func wait(for pipe: Int32, selection: WaylandSelectionName) throws {
        guard let client else { throw WaylandError(.connectionLost, "the Wayland connection is closed") }
        let deadline = ContinuousClock.now + timeout
        while true {
            guard cw_prepare_poll(client) == Int32(CW_OK) else {
                throw WaylandError(.connectionLost, "the compositor closed the connection")
            }
            var fds = [pollfd(fd: pipe, events: Int16(POLLIN), revents: 0), pollfd(fd: cw_fd(client), events: Int16(POLLIN), revents: 0)]
            var polled: Int32
            repeat { polled = poll(&fds, 2, milliseconds(deadline - .now)) } while polled < 0 && errno == EINTR
            guard cw_finish_poll(client, polled > 0 && fds[1].revents != 0 ? 1 : 0) == Int32(CW_OK) else {
                throw WaylandError(.connectionLost, "the compositor closed the connection during the transfer")
            }
            if polled > 0 && fds[0].revents != 0 { return }
            if ContinuousClock.now >= deadline {
                throw WaylandError(.timedOut, "the owner of the Wayland \(selection) wrote nothing for \(timeout)")
            }
        }
    }
}
