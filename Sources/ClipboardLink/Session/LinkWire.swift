import Dispatch
import FoundationEssentials
import Glibc
import SelectionCore
import Synchronization

/// A link's two directions over a ``LinkTransport``: one thread reads and decodes the peer's frames and hands each to
/// the receiver, in order; one serial queue writes this end's frames, in the order they were sent. Frames of different
/// transfers interleave as their senders take turns (each transfer has at most one data frame waiting), so a large
/// transfer never holds up a small one by more than a frame.
///
/// Every wait has an end: the writer waits for the pipe in slices and gives up once the wire is closed; the reader
/// likewise; a peer from which nothing came for ``LinkLimits/silenceLimit`` is closed as dead (a live one answers the
/// pings sent after ``LinkLimits/pingInterval`` of quiet).
final class LinkWire: Sendable {
    /// What the wire hands its receiver.
    enum Inbound: Sendable {
        case message(LinkMessage)
        /// The wire ended (once, last): why.
        case ended(any Error)
    }

    private struct State {
        var closed: (any Error)?
        var lastHeard = ContinuousClock.now
        /// Bytes handed to the writer and not yet written.
        var queued = 0
        /// Senders waiting for the queue to drain below ``LinkWire/lowWater``.
        var waiting: [CheckedContinuation<Void, Never>] = []
    }

    /// A sender whose frame takes the queue past this many bytes waits until the writer has brought it below
    /// ``lowWater``: frames are queued without waiting for each write (reading a flavour and writing the link then
    /// overlap), and the queue — all transfers' frames, whatever their credit — stays bounded.
    static let highWater = 1 << 20
    /// The end of the stream from the far end: its command's ending, where the transport knows it, says more.
    static let farEndClosed = LinkClosed("the far end closed the link")
    /// Linux's F_SETPIPE_SZ (F_LINUX_SPECIFIC_BASE + 7, <linux/fcntl.h>; glibc declares it only under _GNU_SOURCE,
    /// which the Glibc module does not define).
    private static let setPipeSize: Int32 = 1024 + 7
    static let lowWater = 256 << 10

    let transport: LinkTransport
    private let state = Mutex(State())
    private let writes = DispatchQueue(label: "clipbridge.link.write")
    private let receive: @Sendable (Inbound) -> Void

    /// Starts reading at once; `receive` is called on the reader's thread, and must not block.
    init(_ transport: LinkTransport, receive: @escaping @Sendable (Inbound) -> Void) {
        self.transport = transport
        self.receive = receive
        for descriptor in [transport.input, transport.output] {
            _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
            // A pipe (ssh's, or sshd's for `--stdio`) holds 64 KiB by default: a transfer then wakes both processes
            // every 64 KiB. 1 MiB (pipe-max-size's default, allowed to any user) lets each side move a window at a
            // time. Not a pipe (a socket): nothing changes.
            _ = fcntl(descriptor, Self.setPipeSize, 1 << 20)
        }
        DispatchQueue(label: "clipbridge.link.read").async { [self] in readLoop() }
        Task { [weak self] in await self?.watchSilence() }
    }

    /// Whether the wire has ended.
    var isClosed: Bool { state.withLock { $0.closed != nil } }

    /// Queues `message` for writing, in order; returns at once unless the queue is full (``highWater``), then once
    /// the writer has drained it.
    /// - Throws: the wire's end, when it has ended.
    func send(_ message: LinkMessage) async throws {
        try await send(frame: message.encoded())
    }

    /// Queues an encoded frame, as ``send(_:)`` does a message.
    func send(frame: [UInt8]) async throws {
        let full = try state.withLock { state throws -> Bool in
            if let closed = state.closed { throw closed }
            state.queued += frame.count
            return state.queued > Self.highWater
        }
        writes.async { [self] in
            try? write(frame)
            let resumed = state.withLock { state -> [CheckedContinuation<Void, Never>] in
                state.queued -= frame.count
                guard state.queued <= Self.lowWater || state.closed != nil else { return [] }
                defer { state.waiting = [] }
                return state.waiting
            }
            for waiter in resumed { waiter.resume() }
        }
        guard full else { return }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let drained = state.withLock { state -> Bool in
                if state.queued <= Self.lowWater || state.closed != nil { return true }
                state.waiting.append(continuation)
                return false
            }
            if drained { continuation.resume() }
        }
        if let closed = state.withLock({ $0.closed }) { throw closed }
    }

    /// Writes `message` when its turn comes, without waiting for it (answers sent from the reader's thread).
    func post(_ message: LinkMessage) {
        let frame = message.encoded()
        writes.async { [self] in try? write(frame) }
    }

    /// Writes the preamble, then `message`, before anything else.
    func start(with message: LinkMessage) {
        let frame = LinkLimits.preamble + message.encoded()
        writes.async { [self] in try? write(frame) }
    }

    /// Ends the wire: the transport is closed, and the receiver told `reason` (once: later calls do nothing).
    func close(_ reason: any Error) {
        let first = state.withLock { state -> Bool in
            guard state.closed == nil else { return false }
            state.closed = reason
            return true
        }
        guard first else { return }
        let waiting = state.withLock { state in
            defer { state.waiting = [] }
            return state.waiting
        }
        for waiter in waiting { waiter.resume() }
        transport.close()
        // The descriptors are closed where they are used, once nothing uses them: the writer's after the frames queued
        // before it (each of which now finds the wire closed), the reader's when its loop sees the end.
        writes.async { [transport] in _ = Glibc.close(transport.output) }
        receive(.ended(reason))
    }

    // MARK: Reading

    private func readLoop() {
        defer { _ = Glibc.close(transport.input) }
        var decoder = LinkDecoder()
        var buffer = [UInt8](repeating: 0, count: 256 << 10)
        while !isClosed {
            guard wait(for: transport.input, events: Int16(POLLIN)) else { continue }
            let count = buffer.withUnsafeMutableBytes { read(transport.input, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                close(LinkClosed("reading the link failed: \(String(cString: strerror(errno)))"))
                return
            }
            if count == 0 {
                close(Self.farEndClosed)
                return
            }
            state.withLock { $0.lastHeard = .now }
            decoder.append(buffer[0..<count])
            do {
                while let message = try decoder.next() {
                    if isClosed { return }
                    receive(.message(message))
                }
            } catch {
                close(error)
                return
            }
        }
    }

    // MARK: Writing

    private func write(_ frame: [UInt8]) throws {
        try frame.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                if let closed = state.withLock({ $0.closed }) { throw closed }
                guard wait(for: transport.output, events: Int16(POLLOUT)) else { continue }
                let written = Self.write(transport.output, bytes.baseAddress! + offset, bytes.count - offset)
                if written < 0 {
                    if -written == Int(EINTR) || -written == Int(EAGAIN) { continue }
                    let failure = LinkClosed("writing to the link failed: \(String(cString: strerror(Int32(-written))))")
                    close(failure)
                    throw failure
                }
                offset += written
            }
        }
    }

    /// write(2) with SIGPIPE blocked on this thread for the call, so that a far end gone costs an EPIPE, not the
    /// process, without touching the process's signal handling (as `WaylandSendRequest` writes to a requestor's pipe):
    /// the signal such a write leaves pending on this thread is taken before the mask is restored. The count written,
    /// or −errno.
    private static func write(_ fd: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
        var pipeSignal = sigset_t()
        sigemptyset(&pipeSignal)
        sigaddset(&pipeSignal, SIGPIPE)
        var previous = sigset_t()
        pthread_sigmask(SIG_BLOCK, &pipeSignal, &previous)
        let result = Glibc.write(fd, bytes, count)
        let code = errno
        // A SIGPIPE blocked before this call is not ours to take.
        if result < 0, code == EPIPE, sigismember(&previous, SIGPIPE) == 0 {
            var none = timespec()
            _ = sigtimedwait(&pipeSignal, nil, &none)
        }
        pthread_sigmask(SIG_SETMASK, &previous, nil)
        return result < 0 ? -Int(code) : result
    }

    /// Waits up to a quarter second for `descriptor` to be ready; false when it was not (the caller looks at whether
    /// the wire is closed, then waits again).
    private func wait(for descriptor: Int32, events: Int16) -> Bool {
        var entry = pollfd(fd: descriptor, events: events, revents: 0)
        return poll(&entry, 1, 250) > 0
    }

    // MARK: Liveness

    /// Pings a quiet peer, and closes the wire when nothing came for ``LinkLimits/silenceLimit``.
    private func watchSilence() async {
        var nonce: UInt64 = 0
        while !isClosed {
            try? await Task.sleep(for: LinkLimits.pingInterval / 2)
            let quiet = ContinuousClock.now - state.withLock { $0.lastHeard }
            if quiet >= LinkLimits.silenceLimit {
                close(LinkClosed("nothing came from the far end for \(LinkLimits.silenceLimit)"))
            } else if quiet >= LinkLimits.pingInterval {
                nonce += 1
                post(.ping(nonce))
            }
        }
    }
}

/// A link that ended, and why.
package struct LinkClosed: Error, Sendable, Equatable, ReportedError, CustomStringConvertible {
    package var reason: String

    package init(_ reason: String) { self.reason = reason }

    package var reportedMessage: String { reason }
    package var description: String { reason }
}
