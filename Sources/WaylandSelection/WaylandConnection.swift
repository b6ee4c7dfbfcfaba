import CWaylandShims
import FoundationEssentials
import Glibc

/// A connection to a Wayland compositor's clipboard through a data-control protocol, both ways: it follows
/// the selections' owners, reads what they offer, and sets selections of its own, whose data it writes when a
/// requestor asks — what a clipboard manager or a bridge needs.
///
/// One thread per connection (`WaylandEventLoop`) talks to the compositor and waits on every transfer's pipe,
/// each wait with a deadline; callers `await`. What the compositor says arrives in ``events``, in order.
///
/// ```swift
/// let wayland = try await WaylandConnection.open(display: "wayland-1")
/// let source = try await wayland.offer(["text/plain;charset=utf-8"], as: .clipboard)
/// for await event in wayland.events {
///     if case .sendRequested(let request) = event, request.source == source {
///         try await request.write(Data("hello".utf8))
///         request.finish()
///     }
/// }
/// ```
public final class WaylandConnection: Sendable {
    /// The display as named when opened (nil: `$WAYLAND_DISPLAY`).
    public let displayName: String
    /// Whether the compositor shares its primary selection (ext data-control, or wlr data-control version 2 or later).
    public let hasPrimarySelection: Bool
    /// The data-control manager spoken: `ext_data_control_manager_v1` where the compositor offers it (the
    /// wayland-protocols standard: wlroots 0.19 and later, KWin 6), else `zwlr_data_control_manager_v1` (older
    /// wlroots, such as Debian 12's sway 1.7).
    public let dataControlProtocol: String
    /// What the compositor says, in order: new offers (the current ones first, as the connection opens), requests
    /// for our sources' data, our sources replaced, the end of the connection (the stream then finishes).
    public let events: AsyncStream<WaylandSelectionEvent>
    private let loop: WaylandEventLoop

    /// The most bytes a read hands its sink at once.
    static let chunkBytes = 1 << 20

    private init(displayName: String, client: OpaquePointer) throws(WaylandError) {
        self.displayName = displayName
        hasPrimarySelection = cw_has_primary(client) != 0
        dataControlProtocol = String(cString: cw_protocol(client))
        let (events, sink) = AsyncStream.makeStream(of: WaylandSelectionEvent.self)
        self.events = events
        // The current selections were told while connecting: they are the first events, as what was found.
        for selection in [WaylandSelectionName.clipboard, .primary] {
            let types = (0..<cw_offer_type_count(client, selection.rawValue)).compactMap { index in
                cw_offer_type(client, selection.rawValue, index).map { String(cString: $0) }
            }
            sink.yield(.current(selection, types: types))
        }
        var discard = cw_event()
        while cw_next_event(client, &discard) != 0 { cw_event_release(&discard) }
        // The loop cannot refer to the connection it serves (it would keep it alive): it gets what it needs.
        let box = LoopReference()
        loop = try WaylandEventLoop(client: client) { event in
            switch event {
            case .offered(let selection, let types, let isOwn):
                sink.yield(.offered(selection, types: types, isOwn: isOwn))
            case .sendRequested(let selection, let source, let mimeType, let fd):
                guard let loop = box.loop else {
                    Glibc.close(fd)
                    return
                }
                sink.yield(.sendRequested(WaylandSendRequest(
                    selection: selection, source: WaylandSourceID(rawValue: source), mimeType: mimeType, fd: fd, loop: loop)))
            case .cancelled(let selection, let source):
                sink.yield(.cancelled(selection, source: WaylandSourceID(rawValue: source)))
            case .ended(let error):
                sink.yield(.ended(error))
                sink.finish()
            }
        }
        box.loop = loop
    }

    /// Connects to the compositor `display` — a name in `$XDG_RUNTIME_DIR` such as `wayland-1`, an absolute socket
    /// path, or nil for `$WAYLAND_DISPLAY` — within `timeout`.
    /// - Throws: ``WaylandError`` naming what is missing: libwayland-client, the compositor, or its data-control
    ///   protocol.
    public static func open(display: String? = nil, timeout: Duration = .seconds(5)) async throws(WaylandError)
        -> WaylandConnection
    {
        let name = display ?? (getenv("WAYLAND_DISPLAY").map { String(cString: $0) } ?? "wayland-0")
        // Connecting waits for the compositor: on a thread of its own, not one of Swift's few pool threads.
        let connected: Result<UnsafeSendable<OpaquePointer>, WaylandError> = await withCheckedContinuation { continuation in
            let started = detachThread {
                var code: Int32 = 0
                var message = [CChar](repeating: 0, count: 512)
                let client = message.withUnsafeMutableBufferPointer { buffer in
                    cw_connect(display, milliseconds(timeout), &code, buffer.baseAddress, buffer.count)
                }
                if let client {
                    continuation.resume(returning: .success(UnsafeSendable(client)))
                } else {
                    let text = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
                    continuation.resume(returning: .failure(WaylandError(WaylandError.Code(connectResult: code), text)))
                }
            }
            if !started {
                continuation.resume(returning: .failure(WaylandError(.connectionLost, "cannot start a thread to connect")))
            }
        }
        let client = try connected.get().value
        do {
            return try WaylandConnection(displayName: name, client: client)
        } catch {
            cw_disconnect(client)
            throw error
        }
    }

    /// Closes the connection: ``events`` ends with `.ended`, and calls from now on throw.
    public func close() {
        loop.close()
    }

    deinit {
        loop.close()
    }

    /// The MIME types `selection` offers now, in its owner's order; none when it is empty.
    public func types(of selection: WaylandSelectionName) async throws(WaylandError) -> [String] {
        try await loop.perform { client in
            (0..<cw_offer_type_count(client, selection.rawValue)).compactMap { index in
                cw_offer_type(client, selection.rawValue, index).map { String(cString: $0) }
            }
        }
    }

    /// Sets `selection` to a new source of ours offering `types`, in this order. Requests for its data arrive in
    /// ``events`` as `.sendRequested` with this id, until `.cancelled` says another client replaced it.
    /// - Throws: ``WaylandError/Code/protocolUnavailable`` for the primary selection on a compositor without it;
    ///   ``WaylandError/Code/connectionLost``.
    public func offer(_ types: [String], as selection: WaylandSelectionName) async throws(WaylandError) -> WaylandSourceID {
        if selection == .primary && !hasPrimarySelection {
            throw WaylandError(.protocolUnavailable, "the compositor's \(dataControlProtocol) has no primary selection (version 2)")
        }
        let id = try await loop.perform { client -> UInt64 in
            var pointers = types.map { strdup($0) }
            defer { pointers.forEach { free($0) } }
            return pointers.withUnsafeMutableBufferPointer { buffer in
                buffer.baseAddress!.withMemoryRebound(to: UnsafePointer<CChar>?.self, capacity: buffer.count) { base in
                    cw_set_selection(client, selection.rawValue, base, buffer.count)
                }
            }
        }
        guard id != 0 else { throw WaylandError(.connectionLost, "the compositor closed the connection") }
        return WaylandSourceID(rawValue: id)
    }

    /// Whether `source` (nil: any source of ours) still holds `selection`.
    public func holds(_ selection: WaylandSelectionName, source: WaylandSourceID? = nil) async -> Bool {
        (try? await loop.perform { client in cw_holds_selection(client, selection.rawValue, source?.rawValue ?? 0) != 0 }) ?? false
    }

    /// Clears `selection` if a source of ours holds it (another client's is left alone).
    public func release(_ selection: WaylandSelectionName) async {
        _ = try? await loop.perform { client in cw_clear_selection(client, selection.rawValue, 0) }
    }

    /// Empties `selection`, whoever holds it (what `wl-copy --clear` does), and returns once the compositor has
    /// handled it — so closing the connection right after cannot lose the request.
    /// - Throws: ``WaylandError/Code/protocolUnavailable`` for the primary selection on a compositor without it;
    ///   ``WaylandError/Code/timedOut`` when the compositor does not answer within `timeout`;
    ///   ``WaylandError/Code/connectionLost``.
    public func clear(_ selection: WaylandSelectionName, timeout: Duration = .seconds(5)) async throws(WaylandError) {
        if selection == .primary && !hasPrimarySelection {
            throw WaylandError(.protocolUnavailable, "the compositor's \(dataControlProtocol) has no primary selection (version 2)")
        }
        let code = try await loop.perform { client in
            cw_clear_selection(client, selection.rawValue, 1)
            return cw_sync(client, milliseconds(timeout))
        }
        switch code {
        case Int32(CW_OK): return
        case Int32(CW_TIMED_OUT): throw WaylandError(.timedOut, "the compositor did not answer within \(timeout)")
        default: throw WaylandError(.connectionLost, "the compositor closed the connection")
        }
    }

    /// Asks the owner of `selection` for `mimeType` and hands `sink` what it writes, up to 1 MiB at a time, until it
    /// closes its end. Each wait for the owner is bounded by `timeout`; memory stays bounded at any size, as the next
    /// bytes are read only once `sink` returns.
    /// - Throws: ``WaylandError``: the type is not offered, the owner is silent past `timeout`, the compositor is
    ///   gone (`.connectionLost`, also when it went away as the pipe ended: what came may be cut short, and its last
    ///   piece is not handed over); or what `sink` throws.
    public func read(
        _ mimeType: String, from selection: WaylandSelectionName, timeout: Duration = .seconds(5),
        into sink: (Data) async throws -> Void
    ) async throws {
        guard let ends = makePipe(nonblocking: false) else {
            throw WaylandError(.transferFailed, "cannot create a pipe: errno \(errno)")
        }
        let (readEnd, writeEnd) = (ends[0], ends[1])
        defer { Glibc.close(readEnd) }
        enlargePipe(readEnd)
        let asked: Result<Int32, WaylandError>
        do {
            asked = .success(try await loop.perform { client -> Int32 in
                let offered = (0..<cw_offer_type_count(client, selection.rawValue)).contains { index in
                    cw_offer_type(client, selection.rawValue, index).map { strcmp($0, mimeType) == 0 } ?? false
                }
                return offered ? cw_receive(client, selection.rawValue, mimeType, writeEnd) : -1
            })
        } catch {
            asked = .failure(error)
        }
        // The request carries a copy of the write end: ours closes now, so the pipe ends when the owner closes its copy.
        Glibc.close(writeEnd)
        switch asked {
        case .failure(let error): throw error
        case .success(-1): throw WaylandError(.typeUnavailable, "the Wayland \(selection) does not offer \(mimeType)")
        case .success(Int32(CW_OK)): break
        case .success: throw WaylandError(.connectionLost, "the compositor closed the connection")
        }
        var chunk = Data(count: Self.chunkBytes)
        var filled = 0
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(readEnd, $0.baseAddress! + filled, $0.count - filled) }
            if count > 0 {
                filled += count
                if filled == chunk.count {
                    try await sink(chunk)
                    // A new buffer rather than writing into the one handed over (which the sink may keep): that would
                    // copy all of it first.
                    chunk = Data(count: Self.chunkBytes)
                    filled = 0
                }
                continue
            }
            if count == 0 { break }
            guard errno == EAGAIN || errno == EINTR else {
                throw WaylandError(.transferFailed, "cannot read the owner's data: errno \(errno)")
            }
            // What came so far goes on before waiting for more: a slow owner's bytes are not held back.
            if filled > 0 {
                try await sink(Data(chunk.prefix(filled)))
                filled = 0
            }
            do {
                try await loop.wait(until: .readable, on: readEnd, deadline: .now + timeout)
            } catch let error as WaylandError where error.code == .timedOut {
                throw WaylandError(.timedOut, "the owner of the Wayland \(selection) wrote nothing for \(timeout)")
            }
        }
        // The end of the pipe is the end of the data only while the compositor is there: a source cut off with it
        // closes its pipes too, and what came is then not the whole.
        if await loop.compositorHungUp() {
            throw WaylandError(.connectionLost, "the compositor closed the connection during the transfer of \(mimeType)")
        }
        if filled > 0 { try await sink(chunk.prefix(filled)) }
    }

    /// `read`, into one value.
    public func read(_ mimeType: String, from selection: WaylandSelectionName, timeout: Duration = .seconds(5))
        async throws -> Data
    {
        var bytes = Data()
        try await read(mimeType, from: selection, timeout: timeout) { bytes.append($0) }
        return bytes
    }
}

/// `duration` in whole milliseconds, rounded up (a wait never ends just before its deadline, to spin), for
/// libwayland's and poll's timeouts; 0 for a duration not above zero.
func milliseconds(_ duration: Duration) -> Int32 {
    guard duration > .zero else { return 0 }
    let (seconds, attoseconds) = duration.components
    return Int32(clamping: seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000)
}

extension WaylandError.Code {
    /// The kind of a failed `cw_connect`.
    init(connectResult code: Int32) {
        switch Int(code) {
        case Int(CW_UNAVAILABLE): self = .libraryUnavailable
        case Int(CW_NO_COMPOSITOR): self = .noCompositor
        case Int(CW_NO_PROTOCOL): self = .protocolUnavailable
        case Int(CW_TIMED_OUT): self = .timedOut
        default: self = .connectionLost
        }
    }
}

/// Gives a transfer's pipe 1 MiB instead of Linux's 64 KiB (`F_SETPIPE_SZ`, up to `/proc/sys/fs/pipe-max-size`, 1 MiB by
/// default): a writer then fills more per wake-up of its reader, and a 50 MiB transfer takes 16 times fewer turns of
/// each side's loop. A failure (an older kernel, a lower limit) leaves the pipe as it was.
func enlargePipe(_ fd: Int32) {
    let setPipeSize: Int32 = 1024 + 7  // F_SETPIPE_SZ (F_LINUX_SPECIFIC_BASE + 7), not in Swift's Glibc module
    _ = fcntl(fd, setPipeSize, Int32(1 << 20))
}

/// The loop a connection's events refer to, set once the loop exists.
private final class LoopReference: @unchecked Sendable {
    // Written once, before the loop delivers its first event (which it does only after `init` returns and the
    // compositor sends something, on the loop thread, after a lock hand-over in `perform`/`wake`).
    nonisolated(unsafe) var loop: WaylandEventLoop?
}

/// A value the compiler cannot prove Sendable, handed from one thread to another exactly once.
struct UnsafeSendable<Value>: @unchecked Sendable {
    var value: Value
    init(_ value: Value) { self.value = value }
}

/// Runs `body` on a new detached thread; false (and `body` not run) when no thread can be created.
func detachThread(_ body: @escaping @Sendable () -> Void) -> Bool {
    final class Box {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }
    let box = Unmanaged.passRetained(Box(body)).toOpaque()
    var thread = pthread_t()
    var attributes = pthread_attr_t()
    pthread_attr_init(&attributes)
    defer { pthread_attr_destroy(&attributes) }
    pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
    guard pthread_create(&thread, &attributes, { argument in
        Unmanaged<Box>.fromOpaque(argument!).takeRetainedValue().body()
        return nil
    }, box) == 0 else {
        Unmanaged<Box>.fromOpaque(box).release()
        return false
    }
    return true
}
