import CWaylandShims
import Glibc

/// A Wayland compositor's clipboard, read through the wlr data-control protocol (`zwlr_data_control_manager_v1`),
/// as a clipboard manager or `wl-paste` reads it: without a window or keyboard focus.
///
/// A connection of its own, used from one thread at a time, every wait bounded by a deadline. The MIME types
/// each selection offers are known from the moment it connects; ``read(_:from:timeout:into:)`` asks the owner
/// for one and streams what it writes.
///
/// ```swift
/// let clipboard = try WaylandClipboard(display: "wayland-1")
/// print(clipboard.types(of: .clipboard))            // ["text/plain;charset=utf-8", "text/plain", …]
/// try clipboard.read("text/plain;charset=utf-8") { chunk in write(chunk) }
/// ```
public final class WaylandClipboard {
    private var client: OpaquePointer?

    /// The most bytes one read keeps in memory at a time.
    static let chunkBytes = 1 << 16

    /// Connects to the compositor `display` — a name in `$XDG_RUNTIME_DIR` such as `wayland-1`, an absolute
    /// socket path, or nil for `$WAYLAND_DISPLAY` — and learns its current selections, within `timeout`.
    /// - Throws: ``WaylandError`` naming what is missing: libwayland-client, the compositor, or its data-control
    ///   protocol.
    public init(display: String? = nil, timeout: Duration = .seconds(5)) throws(WaylandError) {
        var code: Int32 = 0
        var message = [CChar](repeating: 0, count: 512)
        let connected = message.withUnsafeMutableBufferPointer { buffer in
            cw_connect(display, Self.milliseconds(timeout), &code, buffer.baseAddress, buffer.count)
        }
        guard let connected else {
            let text = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            throw WaylandError(Self.code(code), text)
        }
        client = connected
    }

    deinit {
        close()
    }

    /// Closes the connection (reading again throws).
    public func close() {
        if let client { cw_disconnect(client) }
        client = nil
    }

    /// Whether the compositor shares its primary selection (data-control version 2 or later).
    public var hasPrimarySelection: Bool {
        client.map { cw_has_primary($0) != 0 } ?? false
    }

    /// The MIME types `selection` offers, in its owner's order; none when it is empty.
    public func types(of selection: WaylandSelectionName = .clipboard) -> [String] {
        guard let client else { return [] }
        return (0..<cw_offer_type_count(client, selection.rawValue)).compactMap { index in
            cw_offer_type(client, selection.rawValue, index).map { String(cString: $0) }
        }
    }

    /// Reads and applies what the compositor sent since the last call (a new owner's offer), waiting at most
    /// `timeout` for something to come.
    /// - Throws: ``WaylandError/Code/connectionLost`` when the compositor went away.
    public func update(timeout: Duration = .zero) throws(WaylandError) {
        let client = try connected()
        let code = cw_dispatch(client, Self.milliseconds(timeout))
        guard code == CW_OK || code == CW_TIMED_OUT else {
            throw WaylandError(.connectionLost, "the compositor closed the connection")
        }
    }

    /// Asks the owner of `selection` for `mimeType` and hands `body` what it writes, chunk by chunk, until it closes
    /// its end. Each wait for the owner is bounded by `timeout`.
    /// - Throws: ``WaylandError``: the type is not offered, the owner is silent past `timeout` (a stuck or dead owner
    ///   never hangs the read), the compositor is gone; or what `body` throws.
    public func read(
        _ mimeType: String, from selection: WaylandSelectionName = .clipboard, timeout: Duration = .seconds(5),
        into body: (UnsafeRawBufferPointer) throws -> Void
    ) throws {
        let client = try connected()
        guard types(of: selection).contains(mimeType) else {
            throw WaylandError(.typeUnavailable, "the Wayland \(selection) does not offer \(mimeType)")
        }
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { throw WaylandError(.transferFailed, "cannot create a pipe") }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        let asked = cw_receive(client, selection.rawValue, mimeType, ends[1])
        // The request carries a copy of the write end (libwayland duplicates it when marshalling): ours closes
        // now, so the pipe ends when the owner closes its copy.
        Glibc.close(ends[1])
        defer { Glibc.close(ends[0]) }
        guard asked == CW_OK else { throw WaylandError(.connectionLost, "the compositor closed the connection") }
        var buffer = [UInt8](repeating: 0, count: Self.chunkBytes)
        while true {
            var ready = pollfd(fd: ends[0], events: Int16(POLLIN), revents: 0)
            var polled: Int32
            repeat { polled = poll(&ready, 1, Self.milliseconds(timeout)) } while polled < 0 && errno == EINTR
            guard polled > 0 else {
                throw WaylandError(.timedOut, "the owner of the Wayland \(selection) wrote nothing for \(timeout)")
            }
            let count = buffer.withUnsafeMutableBytes { Glibc.read(ends[0], $0.baseAddress, $0.count) }
            if count < 0 && (errno == EINTR || errno == EAGAIN) { continue }
            guard count >= 0 else { throw WaylandError(.transferFailed, "cannot read the owner's data") }
            if count == 0 { return }
            try buffer.withUnsafeBytes { try body(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
        }
    }

    /// `read`, into one array.
    public func read(_ mimeType: String, from selection: WaylandSelectionName = .clipboard, timeout: Duration = .seconds(5))
        throws -> [UInt8]
    {
        var bytes: [UInt8] = []
        try read(mimeType, from: selection, timeout: timeout) { bytes.append(contentsOf: $0) }
        return bytes
    }

    private func connected() throws(WaylandError) -> OpaquePointer {
        guard let client else { throw WaylandError(.connectionLost, "the Wayland connection is closed") }
        return client
    }

    static func milliseconds(_ duration: Duration) -> Int32 {
        let (seconds, attoseconds) = duration.components
        return Int32(clamping: seconds * 1000 + attoseconds / 1_000_000_000_000_000)
    }

    static func code(_ code: Int32) -> WaylandError.Code {
        switch Int(code) {
        case Int(CW_UNAVAILABLE): .libraryUnavailable
        case Int(CW_NO_COMPOSITOR): .noCompositor
        case Int(CW_NO_PROTOCOL): .protocolUnavailable
        case Int(CW_TIMED_OUT): .timedOut
        default: .connectionLost
        }
    }
}
